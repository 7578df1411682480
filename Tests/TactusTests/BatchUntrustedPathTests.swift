import Foundation
@testable import Tactus
import TactusTestSupport
import TactusCore
import XCTest

/// Paths a batch takes from outside, the `--report` path and the outputs a manifest lists,
/// never make it replace or delete a file that is not its own to replace or delete.
final class BatchUntrustedPathTests: XCTestCase {
    /// Pruning removes the folders a file leaves empty, never the root, and ends whatever
    /// the path's text: "/x/y.ahap" walked up to "/", its own parent, forever.
    func testRemovingOutputsEndsAndKeepsTheRootWhateverThePath() throws {
        let root = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("a/b/c.ahap")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data().write(to: file)

        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            OutputTree.remove(["a/b/c.ahap", "/x/y.ahap"], under: root)
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "OutputTree.remove never returned")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path), [])
    }
}
