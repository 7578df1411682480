import Foundation
import TactusFiles
import XCTest

/// The same-stem rule: sources that would write the same outputs in one folder keep their
/// whole names as stems; everything else keeps its bare stem.
final class OutputNamingTests: XCTestCase {
    private func stems(_ paths: [String], into folder: String? = nil) -> [String] {
        let urls = paths.map { URL(fileURLWithPath: $0) }
        let stems = OutputNaming.stems(for: urls) { folder.map { URL(fileURLWithPath: $0) } ?? $0.deletingLastPathComponent() }
        return urls.map { stems[$0]! }
    }

    func testDistinctStemsStayBare() {
        XCTAssertEqual(stems(["/a/boom.wav", "/a/hit.ogg", "/a/sub/boom.wav"]), ["boom", "hit", "boom"],
                       "beside their sources, different folders never collide")
    }

    func testSharedStemsKeepTheirWholeNames() {
        XCTAssertEqual(stems(["/a/hit.wav", "/a/hit.ogg", "/a/tap.wav"]), ["hit.wav", "hit.ogg", "tap"])
        XCTAssertEqual(stems(["/a/Hit.wav", "/a/hit.OGG"]), ["Hit.wav", "hit.OGG"], "case-insensitive, as macOS file systems are")
    }

    func testOneOutputFolderJoinsSourcesFromEverywhere() {
        XCTAssertEqual(stems(["/a/boom.wav", "/b/boom.flac", "/c/tap.wav"], into: "/out"), ["boom.wav", "boom.flac", "tap"])
    }

    func testTheRuleDependsOnlyOnTheSetOfSources() {
        let forwards = stems(["/a/x.wav", "/a/x.mp3", "/a/y.wav"])
        let backwards = stems(["/a/y.wav", "/a/x.mp3", "/a/x.wav"])
        XCTAssertEqual(forwards, [backwards[2], backwards[1], backwards[0]])
    }
}
