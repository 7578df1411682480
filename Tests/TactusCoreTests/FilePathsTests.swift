import TactusCore
import XCTest

final class FilePathsTests: XCTestCase {
    /// "" and "/" are their own parents: a walk up a path must stop at either.
    func testDeletingLastComponentEndsAtEmptyOrRoot() {
        let cases = [("a/b/c", "a/b"), ("a", ""), ("", ""), ("/a", "/"), ("/", "/"), ("//", "/"), ("a/b/", "a")]
        for (path, parent) in cases {
            XCTAssertEqual(FilePaths.deletingLastComponent(path), parent, path)
        }
    }
}
