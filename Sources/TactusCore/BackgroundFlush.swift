import Foundation

/// Syncs a log's committed outputs to disk on a thread of its own while a long run goes on,
/// every `interval` seconds, so the syncs wait for the disk while the workers convert rather
/// than all at the end. `finish()` stops the thread and syncs what is left.
public final class BackgroundFlush {
    private let condition = NSCondition()
    private var stopping = false
    private var stopped = false
    private var errors: [FileError] = []

    private let log: CommittedFiles

    public init(log: CommittedFiles, interval: TimeInterval = 0.25) {
        self.log = log
        let thread = Thread { [self] in
            condition.lock()
            while !stopping {
                condition.unlock()
                let found = log.flush()
                condition.lock()
                errors += found
                if !stopping { _ = condition.wait(until: Date(timeIntervalSinceNow: interval)) }
            }
            stopped = true
            condition.broadcast()
            condition.unlock()
        }
        thread.start()
    }

    /// Stops the thread, syncs everything committed since its last pass and returns every
    /// failure of the run, in the order found.
    public func finish() -> [FileError] {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !stopped { condition.wait() }
        let found = errors
        condition.unlock()
        return found + log.flush()
    }
}
