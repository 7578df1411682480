import Foundation
import TactusCore
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

    /// `--format json`: every file with its folder, condition, category, onset scores and
    /// `Movement`; summaries per folder and per category; a category that is not a string is
    /// refused like a broken condition.
    func testJSONCarriesEveryFileAndTheSummaries() throws {
        let folder = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: folder) }
        for sub in ["a", "b"] {
            let dir = folder.appendingPathComponent(sub)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try AudioFixture.write(Signals.clicks(at: [0.1, 0.4], seconds: 0.6, sampleRate: 44_100),
                                   to: dir.appendingPathComponent("hit.wav"), sampleRate: 44_100)
            let category = sub == "a" ? #""category": "click", "# : ""
            try Data(#"{"file": "hit.wav", "condition": "clean", \#(category)"onsets": [0.1, 0.4]}"#.utf8)
                .write(to: dir.appendingPathComponent("hit.json"))
        }
        try Data(#"{"file": "hit.wav", "category": 3, "onsets": [0.1]}"#.utf8).write(to: folder.appendingPathComponent("a/bad.json"))
        let outcome = try CLIRunner.run(["evaluate", folder.path, "--format", "json"], timeout: 120)
        XCTAssertEqual(outcome.status, 1, "the refused annotation: \(outcome)")
        XCTAssertTrue(outcome.stderr.contains(#""category" must be a string, not a number"#), outcome.stderr)
        let json = try JSONReader.parse(Data(outcome.stdout.utf8))
        guard case .array(let files)? = json["files"], files.count == 2 else { return XCTFail(outcome.stdout) }
        XCTAssertEqual(files[0]["file"]?.string, "a/hit.wav")
        XCTAssertEqual(files[0]["category"]?.string, "click")
        XCTAssertEqual(files[1]["folder"]?.string, "b")
        XCTAssertEqual(files[0]["at25"]?["tp"]?.number, 2)
        XCTAssertNotNil(files[0]["movement"]?["envelope"]?.number)
        guard case .array(let groups)? = json["movement"] else { return XCTFail(outcome.stdout) }
        XCTAssertEqual(groups.compactMap { $0["group"]?.string }, ["ALL", "folder a", "folder b", "uncategorised", "category click"])
    }
}
