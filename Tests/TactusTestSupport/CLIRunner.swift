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

        public init(fileSizeLimit: Int? = nil, withoutPrivileges: Bool = false) {
            self.fileSizeLimit = fileSizeLimit
            self.withoutPrivileges = withoutPrivileges
        }
    }

    /// Why a run could not be started.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// The `tactus` executable in the build products folder that holds the test bundle
    /// (`swift test` builds it alongside the tests).
    public static func executable() throws -> URL {
        let xctestFolders = Bundle.allBundles.map(\.bundleURL).filter { $0.pathExtension == "xctest" }
            .map { $0.deletingLastPathComponent() }
        let argumentFolder = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent()
        for folder in xctestFolders + [Bundle.main.bundleURL, argumentFolder] {
            let candidate = folder.appendingPathComponent("tactus")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        throw Unavailable(description: "no tactus executable beside the test bundle; build it first (swift build)")
    }

    /// Runs `tactus <arguments>` in `directory` and waits for it.
    public static func run(_ arguments: [String], in directory: URL? = nil,
                           conditions: Conditions = Conditions()) throws -> Outcome {
        let running = try start(arguments, in: directory, conditions: conditions)
        return running.wait()
    }

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
        return try Running(command: command, directory: directory)
    }

    /// Peak resident memory of the largest child process this process has waited for, in
    /// megabytes: an upper bound on what any one run needed.
    public static func largestChildPeakMegabytes() -> Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        return Double(usage.ru_maxrss) / 1024  // kilobytes
        #else
        getrusage(RUSAGE_CHILDREN, &usage)
        return Double(usage.ru_maxrss) / 1_048_576  // bytes
        #endif
    }

    /// A started process whose output goes to temporary files (no pipe can fill up and
    /// stall it).
    public final class Running {
        public let process = Process()
        private let stdoutURL: URL
        private let stderrURL: URL

        init(command: [String], directory: URL?) throws {
            let scratch = FileManager.default.temporaryDirectory
            let token = UUID().uuidString
            stdoutURL = scratch.appendingPathComponent("tactus-cli-\(token).out")
            stderrURL = scratch.appendingPathComponent("tactus-cli-\(token).err")
            _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
            _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
            process.executableURL = URL(fileURLWithPath: command[0])
            process.arguments = Array(command.dropFirst())
            if let directory { process.currentDirectoryURL = directory }
            process.standardInput = FileHandle.nullDevice
            // Help text wraps at the terminal's width; a fixed one keeps it reproducible.
            process.environment = ProcessInfo.processInfo.environment.merging(["COLUMNS": "80"]) { $1 }
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
                try? FileManager.default.removeItem(at: stdoutURL)
                try? FileManager.default.removeItem(at: stderrURL)
            }
            return Outcome(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
                           stdout: (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "",
                           stderr: (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "")
        }
    }
}
