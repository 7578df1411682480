import TactusCore
import TactusPlatform
import Dispatch

/// Syncs a log's committed outputs to disk on a thread of its own while a long run goes on,
/// every `interval` seconds, so the syncs wait for the disk while the workers convert rather
/// than all at the end. `finish()` stops the thread and syncs what is left.
public final class BackgroundFlush {
    /// Signalled once by `finish()`: ends the thread's wait at once instead of at the interval.
    private let stop = DispatchSemaphore(value: 0)
    /// Signalled once by the thread when it has ended; `errors` is then its alone to read.
    private let stopped = DispatchSemaphore(value: 0)
    private var errors: [FileError] = []

    private let log: CommittedFiles

    /// Starts the thread at once.
    /// - Parameters:
    ///   - log: the run's log, synced while files are committed.
    ///   - interval: seconds between passes.
    public init(log: CommittedFiles, interval: Double = 0.25) {
        self.log = log
        let nanoseconds = Int(interval * 1_000_000_000)
        startThread { [self] in
            while true {
                errors += log.flush()
                if stop.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success { break }
            }
            stopped.signal()
        }
    }

    /// Stops the thread, syncs everything committed since its last pass and returns every
    /// failure of the run, in the order found.
    /// - Returns: the failures, empty when everything reached the disk.
    public func finish() -> [FileError] {
        stop.signal()
        stopped.wait()
        stopped.signal()  // a second `finish()` must not wait for the thread again
        return errors + log.flush()
    }
}
