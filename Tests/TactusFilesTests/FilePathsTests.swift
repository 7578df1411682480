import Foundation
import TactusFiles
import XCTest

final class FilePathsTests: XCTestCase {
    /// Only a path of plain names stays below the folder it is appended to.
    func testPlainRelativePaths() {
        for path in ["a.ahap", "a/b.ahap", "a b/..c", ".hidden/x"] {
            XCTAssertTrue(FilePaths.isPlainRelative(path), path)
        }
        for path in ["", "/", "/a", "a/", "a//b", ".", "./a", "a/.", "..", "../a", "a/../b", "a/..", "a\0b"] {
            XCTAssertFalse(FilePaths.isPlainRelative(path), path)
        }
    }

    /// "" and "/" are their own parents: a walk up a path must stop at either.
    func testDeletingLastComponentEndsAtEmptyOrRoot() {
        let cases = [("a/b/c", "a/b"), ("a", ""), ("", ""), ("/a", "/"), ("/", "/"), ("//", "/"), ("a/b/", "a")]
        for (path, parent) in cases {
            XCTAssertEqual(FilePaths.deletingLastComponent(path), parent, path)
        }
    }
}
