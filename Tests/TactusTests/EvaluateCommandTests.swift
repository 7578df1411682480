import Foundation
import TactusTestSupport
import XCTest

/// `tactus evaluate` on a set of annotations someone handed over: the broken ones are named
/// one per line, the rest still scored, and the exit status says that not all were.
final class EvaluateCommandTests: XCTestCase {
    func testBrokenAnnotationsAreNamedAndTheRestScored() throws {
        let folder = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: folder) }
        try AudioFixture.write(Signals.clicks(at: [0.1, 0.4], seconds: 0.6, sampleRate: 44_100),
                               to: folder.appendingPathComponent("hit.wav"), sampleRate: 44_100)
        try Data("not audio".utf8).write(to: folder.appendingPathComponent("notes.wav"))
        let files = [
            "hit.json": #"{"file": "hit.wav", "condition": "clean", "onsets": [0.1, 0.4]}"#,
            "null.json": "null",
            "words.json": #"{"file": "hit.wav", "onsets": "0.1"}"#,
            "negative.json": #"{"file": "hit.wav", "onsets": [-1]}"#,
            "escape.json": #"{"file": "../../etc/passwd", "onsets": [0.1]}"#,
            "notes.json": #"{"file": "notes.wav", "onsets": [0.1]}"#,
            "settings.json": #"{"something": "else"}"#,  // not an annotation: passed over
        ]
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }

        let outcome = try CLIRunner.run(["evaluate", folder.path], timeout: CLIRunner.hangLimit)
        XCTAssertEqual(outcome.status, 1, "\(outcome)")
        let path = folder.path
        XCTAssertEqual(outcome.stderrLines.count, 6, outcome.stderr)
        for expected in ["\(path)/null.json: is not an annotation: null, not an object",
                         "\(path)/words.json: \"onsets\" must be a list of times",
                         "\(path)/negative.json: \"onsets\" must be a list of times",
                         "\(path)/escape.json: \"file\" must name a sound in the annotation's folder",
                         "\(path)/notes.wav: is not audio",
                         "5 of 6 annotations not scored"] {
            XCTAssertTrue(outcome.stderrLines.contains { $0.hasPrefix("tactus: " + expected) }, "\(expected)\n\(outcome.stderr)")
        }
        let all = try XCTUnwrap(outcome.stdout.split(separator: "\n").first { $0.hasPrefix("ALL") })
        XCTAssertEqual(all.split(separator: " ").prefix(5), ["ALL", "1", "1.000", "1.000", "1.000"], outcome.stdout)
    }
}
