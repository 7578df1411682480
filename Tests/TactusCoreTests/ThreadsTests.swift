import Foundation
import TactusCore
import XCTest

final class ThreadsTests: XCTestCase {
    /// `runOnThreads` runs the body once per thread, all at once, and returns only after all
    /// have finished: every body waits until all have started (this would hang were they run
    /// one after another), then counts itself.
    func testRunOnThreadsRunsTheBodiesTogetherAndWaitsForAll() {
        let lock = Lock()
        var started = 0
        var finished = 0
        runOnThreads(6) {
            lock.withLock { started += 1 }
            while lock.withLock({ started }) < 6 { usleep(100) }
            usleep(20_000)
            lock.withLock { finished += 1 }
        }
        XCTAssertEqual(finished, 6)
    }
}
