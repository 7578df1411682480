import Foundation

/// Syncs committed outputs to disk on a thread of its own while a long run goes on, a few
/// times a second, so the syncs wait for the disk while the workers convert rather than all
/// at the end. Left to the end, they were a fifth of a two-job batch's wall time; done per
/// file as it was written, each cost a journal commit of its own. `finish()` stops the
/// thread and syncs what is left.
public final class BackgroundFlush {
    private let condition = NSCondition()
    private var stopping = false
    private var stopped = false
    private var errors: [FileError] = []

    public init(interval: TimeInterval = 0.25) {
        let thread = Thread { [self] in
            condition.lock()
            while !stopping {
                condition.unlock()
                let found = StagedFile.flushCommitted()
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
        return found + StagedFile.flushCommitted()
    }
}
