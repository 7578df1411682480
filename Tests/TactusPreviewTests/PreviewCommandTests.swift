import Foundation
import TactusTestSupport
import XCTest

/// `tactus preview` as a user runs it.
final class PreviewCommandTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = AudioFixture.temporaryDirectory(name)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testConvertsAudioThenPreviewsAndPreviewsAnAHAPAsItIs() throws {
        let source = Corpus.root.appendingPathComponent("clean/body_hits.ogg")
        let run = try CLIRunner.run(["preview", source.path, "-o", folder.path])
        XCTAssertEqual(run.status, 0, "\(run)")
        XCTAssertEqual(try PreviewFixtures.names(in: folder), [
            "body_hits.ahap", "body_hits.haptics.wav", "body_hits.html", "body_hits.side-by-side.wav",
            "body_hits.svg", "body_hits.wav",
        ])
        XCTAssertTrue(run.stdout.contains("transients"), run.stdout)

        // Again from the AHAP, into another folder: the sound is found beside the AHAP.
        let again = folder.appendingPathComponent("again", isDirectory: true)
        let second = try CLIRunner.run(["preview", folder.appendingPathComponent("body_hits.ahap").path,
                                        "-o", again.path, "--quiet"])
        XCTAssertEqual(second.status, 0, "\(second)")
        XCTAssertEqual(second.stdout, "")
        XCTAssertEqual(try Data(contentsOf: again.appendingPathComponent("body_hits.side-by-side.wav")),
                       try Data(contentsOf: folder.appendingPathComponent("body_hits.side-by-side.wav")))
    }

    func testBadInputIsOneLineOnStandardErrorAndExitOne() throws {
        let text = folder.appendingPathComponent("readme.ahap")
        try Data("hello".utf8).write(to: text)
        let run = try CLIRunner.run(["preview", text.path, "-o", folder.path])
        XCTAssertEqual(run.status, 1, "\(run)")
        XCTAssertEqual(run.stderrLines.count, 1, "\(run)")
        XCTAssertTrue(run.stderrLines.first?.hasPrefix("tactus: \(text.path): is not a valid ahap file") ?? false, "\(run)")
        XCTAssertEqual(try PreviewFixtures.names(in: folder), ["readme.ahap"])
    }
}
