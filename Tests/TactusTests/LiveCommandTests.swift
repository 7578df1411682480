import Foundation
import TactusTestSupport
import XCTest

/// `tactus live`: one JSON object per event and line, the same events from a file and from
/// raw audio on standard input, whatever the block size; bad input on one line.
final class LiveCommandTests: XCTestCase {
    private let file = Corpus.root.appendingPathComponent("clean/gunshots_stereo48k.wav").path

    private func lines(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    func testEventsAreJSONLinesWithTheirFields() throws {
        let outcome = try CLIRunner.run(["live", file, "--block", "300"], timeout: CLIRunner.hangLimit)
        XCTAssertEqual(outcome.status, 0, "\(outcome)")
        let events = try lines(outcome.stdout)
        XCTAssertTrue(events.contains { $0["kind"] as? String == "transient" })
        XCTAssertTrue(events.contains { $0["kind"] as? String == "continuous" })
        for event in events {
            XCTAssertEqual(Set(event.keys), ["kind", "time", "intensity", "sharpness", "emittedAt"])
            let time = try XCTUnwrap(event["time"] as? Double), emitted = try XCTUnwrap(event["emittedAt"] as? Double)
            XCTAssertGreaterThanOrEqual(emitted, time)
        }
        let whole = try CLIRunner.run(["live", file, "--block", "1000000"], timeout: CLIRunner.hangLimit)
        XCTAssertEqual(whole.stdout, outcome.stdout, "the block size changes nothing")
    }

    /// Raw float32 little-endian interleaved audio on standard input gives the file's events.
    func testStandardInputTakesRawFloats() throws {
        let decoded = try CLIRunner.run(["live", file], timeout: CLIRunner.hangLimit).stdout
        let folder = AudioFixture.temporaryDirectory()
        let raw = folder.appendingPathComponent("stream.f32")
        let sox = Process()
        sox.executableURL = URL(fileURLWithPath: "/usr/bin/sox")
        sox.arguments = [file, "-t", "raw", "-e", "floating-point", "-b", "32", "-L", raw.path]
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sox") else { throw XCTSkip("sox is not installed") }
        try sox.run()
        sox.waitUntilExit()
        let live = Process()
        live.executableURL = try CLIRunner.executable()
        live.arguments = ["live", "-", "--rate", "48000", "--channels", "2", "--block", "64"]
        live.standardInput = try FileHandle(forReadingFrom: raw)
        let output = Pipe()
        live.standardOutput = output
        try live.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        live.waitUntilExit()
        XCTAssertEqual(live.terminationStatus, 0)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), decoded)
    }

    func testBadInputIsOneLineAndFails() throws {
        let missing = try CLIRunner.run(["live", "/nonexistent/boom.wav"], timeout: CLIRunner.hangLimit)
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertEqual(missing.stderrLines.count, 1, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("/nonexistent/boom.wav"), missing.stderr)

        let refused = try CLIRunner.run(["live", file, "--set", "peaks.postMedianMs=200"], timeout: CLIRunner.hangLimit)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertEqual(refused.stderrLines.count, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("ms ahead"), refused.stderr)

        let noRate = try CLIRunner.run(["live", "-"], timeout: CLIRunner.hangLimit)
        XCTAssertEqual(noRate.status, 64, "\(noRate)")
    }
}
