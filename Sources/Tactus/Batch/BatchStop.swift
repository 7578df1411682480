import TactusCore

/// Asks a running batch to stop: no new file starts, files in progress finish (so their
/// outputs are whole), the manifest is saved. Set from a signal handler's thread.
public final class BatchStop: @unchecked Sendable {
    private let lock = Lock()
    private var requested = false

    /// A stop not yet requested.
    public init() {}

    /// Asks the run to stop; safe from any thread.
    public func request() {
        lock.lock()
        requested = true
        lock.unlock()
    }

    /// Whether `request()` was called.
    public var isRequested: Bool {
        lock.lock()
        defer { lock.unlock() }
        return requested
    }
}
