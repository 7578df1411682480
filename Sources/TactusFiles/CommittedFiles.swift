import TactusCore
import TactusPlatform
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The outputs one command has committed and not yet synced to disk, in commit order without
/// repeats. Each command (a `convert`, a `batch`) keeps its own log and passes it to whatever
/// writes for it, so two runs in one process never sync, or miss, each other's files.
/// Thread-safe: batch workers record into one log while a `BackgroundFlush` drains it.
public final class CommittedFiles: @unchecked Sendable {
    private let lock = Lock()
    private var paths: [String] = []
    private var seen: Set<String> = []

    /// An empty log.
    public init() {}

    /// Notes a file that now stands under its final name.
    /// - Parameter path: the file's final path.
    public func record(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        if seen.insert(path).inserted { paths.append(path) }
    }

    /// The files a `flush()` now would sync, in commit order.
    public var pending: [String] {
        lock.lock()
        defer { lock.unlock() }
        return paths
    }

    /// Syncs every file recorded since the last call, then each folder holding one (so the
    /// renames last too), and forgets them. A file removed since it was recorded is skipped.
    /// - Returns: one error per path that could not be synced, files first, in commit order.
    public func flush() -> [FileError] {
        let files = take()
        let folders = Set(files.map(FilePaths.parent)).sorted()
        return Self.sync(files) + Self.sync(folders)
    }

    private func take() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        defer { paths = []; seen = [] }
        return paths
    }

    /// Syncs on every core at once: the syncs mostly wait for the disk.
    private static func sync(_ paths: [String]) -> [FileError] {
        var errors = [FileError?](repeating: nil, count: paths.count)
        let lock = Lock()
        let workers = min(paths.count, max(1, ProcessInfo.processInfo.activeProcessorCount))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: paths.count, by: workers) {
                guard let error = sync(paths[index]) else { continue }
                lock.lock()
                errors[index] = error
                lock.unlock()
            }
        }
        return errors.compactMap { $0 }
    }

    private static func sync(_ path: String) -> FileError? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }  // removed since (a stem changed): nothing to keep
        defer { close(descriptor) }
        guard fsync(descriptor) != 0 else { return nil }
        return FileError(file: path, reason: "could not be flushed to disk: \(String(cString: strerror(errno)))",
                         hint: FileErrorReason.writeHint)
    }
}
