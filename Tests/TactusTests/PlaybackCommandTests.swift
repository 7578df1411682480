import Foundation
import TactusTestSupport
import XCTest

/// `tactus playback`: what a haptic file plays, as JSON, read by the file's own format (the
/// reading `compare` uses), on a Corpus sound written as AHAP and as `.haptic`.
final class PlaybackCommandTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = AudioFixture.temporaryDirectory(name)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private struct Played {
        let endTime: Double
        let transients: [(time: Double, intensity: Double)]
        let spans: [[Double]]
        let stepMs: Double
        let intensity: [Double]
        let sharpness: [Double?]
    }

    private func playback(_ file: URL, stepMs: Double = 1) throws -> Played {
        let outcome = try CLIRunner.run(["playback", file.path, "--step-ms", String(stepMs)])
        XCTAssertEqual(outcome.status, 0, "\(outcome)")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let continuous = try XCTUnwrap(json["continuous"] as? [String: Any])
        let transients = try XCTUnwrap(json["transients"] as? [[String: Double]])
        return Played(endTime: try XCTUnwrap(json["endTime"] as? Double),
                      transients: transients.map { ($0["time"] ?? .nan, $0["intensity"] ?? .nan) },
                      spans: try XCTUnwrap(continuous["spans"] as? [[Double]]),
                      stepMs: try XCTUnwrap(continuous["stepMs"] as? Double),
                      intensity: try XCTUnwrap(continuous["intensity"] as? [Double]),
                      sharpness: try XCTUnwrap(continuous["sharpness"] as? [Any]).map { $0 as? Double })
    }

    func testTheSameTrackInTwoFormatsPlaysTheSameTransientsAndBody() throws {
        let source = Corpus.root.appendingPathComponent("clean/body_hits.ogg")
        let convert = try CLIRunner.run(["convert", source.path, "-o", folder.path, "--format", "ahap,haptic", "--quiet"])
        XCTAssertEqual(convert.status, 0, "\(convert)")
        let ahapFile = folder.appendingPathComponent("body_hits.ahap")
        let ahap = try playback(ahapFile), haptic = try playback(folder.appendingPathComponent("body_hits.haptic"))

        // Every transient the AHAP holds, at its time, as both formats' players read it.
        let pattern = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: ahapFile)) as? [String: Any])
        let events = try XCTUnwrap(pattern["Pattern"] as? [[String: Any]]).compactMap { $0["Event"] as? [String: Any] }
        let written = events.filter { $0["EventType"] as? String == "HapticTransient" }.compactMap { $0["Time"] as? Double }.sorted()
        XCTAssertGreaterThan(written.count, 2)
        XCTAssertEqual(ahap.transients.map(\.time), written)
        XCTAssertEqual(haptic.transients.count, written.count)
        for (a, h) in zip(ahap.transients, haptic.transients) {
            XCTAssertEqual(a.time, h.time, accuracy: 1e-4)
            XCTAssertEqual(a.intensity, h.intensity, accuracy: 0.002, "transient at \(a.time)")
        }

        // One value per grid instant up to the end, 0…1, sharpness exactly where a span plays.
        XCTAssertEqual(ahap.stepMs, 1)
        XCTAssertEqual(ahap.intensity.count, Int((ahap.endTime * 1000).rounded(.down)) + 1)
        XCTAssertEqual(ahap.sharpness.count, ahap.intensity.count)
        XCTAssertFalse(ahap.spans.isEmpty)
        for (k, value) in ahap.intensity.enumerated() {
            let t = Double(k) / 1000
            XCTAssertTrue((0...1).contains(value), "intensity \(value) at \(t)")
            let inSpan = ahap.spans.contains { $0[0] <= t && t < $0[1] }
            XCTAssertEqual(ahap.sharpness[k] != nil, inSpan, "sharpness at \(t)")
            if !inSpan { XCTAssertEqual(value, 0, "intensity outside every span at \(t)") }
        }

        // The bodies agree away from the transients (the AHAP lifts its body around each one).
        var squares = 0.0, count = 0
        for k in 0..<min(ahap.intensity.count, haptic.intensity.count) {
            let t = Double(k) / 1000
            guard !ahap.transients.contains(where: { abs($0.time - t) < 0.01 }) else { continue }
            squares += pow(ahap.intensity[k] - haptic.intensity[k], 2)
            count += 1
        }
        XCTAssertGreaterThan(count, 1000)
        XCTAssertLessThan((squares / Double(count)).squareRoot(), 0.01)
        XCTAssertGreaterThan(ahap.intensity.max() ?? 0, 0.3, "a body that plays")
    }

    func testRefusesWhatItCannotReadInOneLine() throws {
        let notHaptic = Corpus.root.appendingPathComponent("clean/body_hits.ogg")
        let broken = folder.appendingPathComponent("broken.ahap")
        try Data(#"{"Version": 1, "Pattern": [{"Event": {"Time": 0, "EventType": "HapticTran"#.utf8).write(to: broken)
        for file in [notHaptic, broken] {
            let outcome = try CLIRunner.run(["playback", file.path])
            XCTAssertEqual(outcome.status, 1, "\(outcome)")
            XCTAssertEqual(outcome.stderrLines.count, 1, "\(outcome)")
            XCTAssertTrue(outcome.stderr.contains(file.path), "\(outcome)")
            XCTAssertEqual(outcome.stdout, "")
        }
        let converted = try CLIRunner.run(["convert", notHaptic.path, "-o", folder.path, "--quiet"])
        XCTAssertEqual(converted.status, 0, "\(converted)")
        let fine = try CLIRunner.run(["playback", folder.appendingPathComponent("body_hits.ahap").path, "--step-ms", "1e-9"])
        XCTAssertEqual(fine.status, 1, "\(fine)")
        XCTAssertTrue(fine.stderr.contains("use a larger --step-ms"), "\(fine)")
        XCTAssertEqual(fine.stdout, "")
    }
}
