import Foundation

/// Runs the built `tactus` executable as a subprocess, exactly as a user would, so tests
/// see the real exit code, the real standard error and the files a run leaves behind —
/// things an in-process call to the library cannot show (a crash, a signal, a stray line
/// printed by a C library).
public enum CLIRunner {
    /// What one run did.
    public struct Outcome: CustomStringConvertible {
        /// Exit status, or the signal number when `signaled`.
        public var status: Int32
        /// True when a signal ended the process (a crash, or a kill the test sent).
        public var signaled: Bool
        public var stdout: String
        public var stderr: String
        /// True when the run outlasted its time limit and was killed.
        public var timedOut = false
        /// This run's own peak resident memory in megabytes, when `Conditions.measuresPeakMemory`
        /// asked for it (else nil).
        public var peakMegabytes: Double?

        /// Standard error split into lines, without the empty tail after the last newline.
        public var stderrLines: [String] {
            if stderr.isEmpty { return [] }
            return stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast(stderr.hasSuffix("\n") ? 1 : 0)
                .map(String.init)
        }

        public var description: String {
            "\(signaled ? "signal" : "exit") \(status)\nstdout: \(stdout)\nstderr: \(stderr)"
        }
    }

    /// Limits and privileges a run is started with.
    public struct Conditions {
        /// RLIMIT_FSIZE in bytes (a full disk without a tiny filesystem), or nil for none.
        public var fileSizeLimit: Int?
        /// Run without root's power to ignore file permissions, so that a read-only
        /// folder is read-only for the test too (CI containers often run as root).
        public var withoutPrivileges = false
        /// Measure the run's own peak resident memory (`Outcome.peakMegabytes`). The run is
        /// started by `tactus-peak-memory`, which waits for it with `wait4`: a process that
        /// this (large) test process spawned itself would report at least this process's own
        /// peak, which Linux hands on to a child at its exec. Signals sent with `Running.send`
        /// (SIGINT, SIGTERM, SIGHUP, SIGQUIT) are passed on; SIGKILL reaches only the helper.
        public var measuresPeakMemory = false

        public init(fileSizeLimit: Int? = nil, withoutPrivileges: Bool = false, measuresPeakMemory: Bool = false) {
            self.fileSizeLimit = fileSizeLimit
            self.withoutPrivileges = withoutPrivileges
            self.measuresPeakMemory = measuresPeakMemory
        }
    }

    /// Why a run could not be started.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// The `tactus` executable in the build products folder that holds the test bundle
    /// (`swift test` builds it alongside the tests).
    public static func executable() throws -> URL {
        try builtExecutable("tactus")
    }

    /// An executable of this package in the build products folder that holds the test bundle.
    static func builtExecutable(_ name: String) throws -> URL {
        let xctestFolders = Bundle.allBundles.map(\.bundleURL).filter { $0.pathExtension == "xctest" }
            .map { $0.deletingLastPathComponent() }
        let argumentFolder = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent()
        for folder in xctestFolders + [Bundle.main.bundleURL, argumentFolder] {
            let candidate = folder.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        throw Unavailable(description: "no \(name) executable beside the test bundle; build it first (swift build --build-tests)")
    }

    /// Runs `tactus <arguments>` in `directory` and waits for it.
    public static func run(_ arguments: [String], in directory: URL? = nil,
                           conditions: Conditions = Conditions()) throws -> Outcome {
        let running = try start(arguments, in: directory, conditions: conditions)
        return running.wait()
    }

    /// How long a run may take before a test calls it hung: 10 minutes, ten times the slowest
    /// run seen (a 50,000-event AHAP previewed by the debug build on two cores shared by four
    /// builds: 60 s). Only a hang reaches it; how fast Tactus is, is `make bench`'s to measure
    /// (as ratios: scripts/bench/big_pattern.py for big patterns), not a unit test's.
    public static let hangLimit = 600.0

    /// Runs `tactus <arguments>` and kills it if it outlasts `seconds` (then `timedOut`).
    public static func run(_ arguments: [String], in directory: URL? = nil, timeout seconds: Double) throws -> Outcome {
        let running = try start(arguments, in: directory)
        let deadline = Date(timeIntervalSinceNow: seconds)
        while running.process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        let timedOut = running.process.isRunning
        if timedOut { running.send(SIGKILL) }
        var outcome = running.wait()
        outcome.timedOut = timedOut
        return outcome
    }

    /// Starts `tactus <arguments>` without waiting, for tests that signal it mid-run.
    public static func start(_ arguments: [String], in directory: URL? = nil,
                             conditions: Conditions = Conditions()) throws -> Running {
        var command = [try executable().path] + arguments
        if conditions.withoutPrivileges, geteuid() == 0 {
            let setpriv = "/usr/bin/setpriv"
            guard FileManager.default.isExecutableFile(atPath: setpriv) else {
                throw Unavailable(description: "running as root and \(setpriv) is missing, so permissions cannot be tested")
            }
            // Root keeps its uid but loses every capability, CAP_DAC_OVERRIDE included.
            command = [setpriv, "--bounding-set=-all", "--inh-caps=-all", "--"] + command
        }
        if let limit = conditions.fileSizeLimit {
            // POSIX `ulimit -f` counts 512-byte blocks. SIGXFSZ keeps the default action
            // (terminate), as in a user's shell: the CLI itself must cope with it.
            command = ["/bin/sh", "-c", "ulimit -f \(max(1, limit / 512)) && exec \"$@\"", "sh"] + command
        }
        return try Running(command: command, directory: directory,
                           peakMemoryHelper: conditions.measuresPeakMemory ? builtExecutable("tactus-peak-memory") : nil)
    }

    /// A started process whose output goes to temporary files (no pipe can fill up and
    /// stall it).
    public final class Running {
        public let process = Process()
        private let stdoutURL: URL
        private let stderrURL: URL
        /// Where `tactus-peak-memory` writes the run's peak, when measured.
        private let peakURL: URL?

        init(command: [String], directory: URL?, peakMemoryHelper: URL? = nil) throws {
            let scratch = FileManager.default.temporaryDirectory
            let token = UUID().uuidString
            stdoutURL = scratch.appendingPathComponent("tactus-cli-\(token).out")
            stderrURL = scratch.appendingPathComponent("tactus-cli-\(token).err")
            _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
            _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
            var command = command
            if let peakMemoryHelper {
                let peakURL = scratch.appendingPathComponent("tactus-cli-\(token).peak")
                command = [peakMemoryHelper.path, peakURL.path] + command
                self.peakURL = peakURL
            } else {
                peakURL = nil
            }
            process.executableURL = URL(fileURLWithPath: command[0])
            process.arguments = Array(command.dropFirst())
            if let directory { process.currentDirectoryURL = directory }
            process.standardInput = FileHandle.nullDevice
            // Help text wraps at the terminal's width; a fixed one keeps it reproducible. The
            // presets are the repository's, found beside the built tool, whatever the
            // environment the tests run in names in TACTUS_PRESETS.
            var environment = ProcessInfo.processInfo.environment.merging(["COLUMNS": "80"]) { $1 }
            environment["TACTUS_PRESETS"] = nil
            process.environment = environment
            process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
            process.standardError = try FileHandle(forWritingTo: stderrURL)
            try process.run()
        }

        /// Sends `signal` to the process.
        public func send(_ signal: Int32) {
            kill(process.processIdentifier, signal)
        }

        public func wait() -> Outcome {
            process.waitUntilExit()
            defer {
                for url in [stdoutURL, stderrURL, peakURL].compactMap({ $0 }) { try? FileManager.default.removeItem(at: url) }
            }
            var outcome = Outcome(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
                                  stdout: (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "",
                                  stderr: (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "")
            if let peakURL, let text = try? String(contentsOf: peakURL, encoding: .utf8),
               let kilobytes = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                outcome.peakMegabytes = kilobytes / 1024
            }
            return outcome
        }
    }
}
