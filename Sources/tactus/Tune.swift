import ArgumentParser
import TactusCommandLine
import TactusCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `tactus tune`: runs `tactus-tune` with the same arguments, as git runs `git-<name>`, so that
/// `tactus` does not link the tune server (Hummingbird on SwiftNIO). The options are
/// `tactus-tune`'s alone: every argument, `--help` included, is handed on unparsed.
struct Tune: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: TuneSummary.abstract,
        discussion: "Runs \(Tune.executableName) (installed beside tactus) with these arguments; `tactus tune --help` shows its options.",
        helpNames: [])

    /// The executable that serves the page, looked for beside this one, then on `PATH`.
    static let executableName = "tactus-tune"

    @Argument(parsing: .captureForPassthrough, help: "Sound files or folders, and options, for \(Tune.executableName).")
    var arguments: [String] = []

    func run() throws {
        let reason = Self.replaceProcess(arguments: arguments)
        report("tune: \(reason)")
        throw ExitCode(1)
    }

    /// Replaces this process with `tactus-tune` run with `arguments`: the one in this
    /// executable's own folder (symbolic links resolved) first, then the first on `PATH`.
    /// Returns only when neither can be run, with the reason and what to do.
    static func replaceProcess(arguments: [String]) -> String {
        var candidates: [String] = []
        if let folder = ownFolder() { candidates.append(folder + "/" + executableName) }
        candidates.append(executableName)  // no slash: execvp searches PATH
        var failure: (path: String, errno: Int32)?
        for path in candidates {
            let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            execvp(path, argv)
            if errno != ENOENT, failure == nil { failure = (path, errno) }
        }
        if let failure {
            return "\(failure.path): cannot run it (\(String(cString: strerror(failure.errno))))"
        }
        return "\(executableName) is not installed (`make build` builds it beside tactus from the Tune package, `make install` installs it)"
    }

    /// The folder this executable was started from, with every symbolic link resolved.
    private static func ownFolder() -> String? {
        #if os(Linux)
        guard let path = realpath("/proc/self/exe", nil) else { return nil }
        #else
        var size: UInt32 = 0
        _ = _NSGetExecutablePath(nil, &size)
        var named = [CChar](repeating: 0, count: Int(size))
        guard _NSGetExecutablePath(&named, &size) == 0, let path = realpath(named, nil) else { return nil }
        #endif
        defer { free(path) }
        let resolved = String(cString: path)
        guard let slash = resolved.lastIndex(of: "/") else { return nil }
        return String(resolved[..<slash])
    }
}
