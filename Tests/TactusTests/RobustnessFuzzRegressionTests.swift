import Foundation
import XCTest
import Tactus
import TactusAHAP
import TactusAnalysis
import TactusMapping
import TactusPresets
import TactusTestSupport

/// Inputs the fuzzers in Fuzz/ crashed on, kept so they stay fixed. Each is checked with
/// the property its fuzz target asserts, in process, on every test run.
final class RobustnessFuzzRegressionTests: XCTestCase {
    /// FuzzPreset: a 50 ms hop over a 5 ms window (both in range) let the STFT's read
    /// position run past the samples it held, and compacting its buffer trapped.
    func testHopLongerThanTheWindowRuns() throws {
        try assertPresetRuns(#"{"schemaVersion": 1, "stft": {"windowMs": 5, "hopMs": 50}}"#)
    }

    /// FuzzHaptic: a `.haptic` breakpoint at 8.9 × 10²⁷ s reads (players accept any 32-bit
    /// float), but no other format can hold it. `convert` used to blame the disk ("cannot write
    /// huge.ahap: The operation could not be completed … check the output folder's free
    /// space") and `preview` called the file invalid while `validate` passed it. Now: one line
    /// saying which format cannot hold it, no output, and a warning from `validate`.
    func testAHapticFileBeyondEveryOtherFormatIsRefusedInOneLine() throws {
        let folder = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("huge.haptic")
        try Data(#"{"version": {"major": 1, "minor": 0, "patch": 0}, "signals": {"continuous": {"envelopes": {"amplitude": [{"time": 0, "amplitude": 1}, {"time": 8.88e27, "amplitude": 0}]}}}}"#.utf8).write(to: file)
        let out = folder.appendingPathComponent("out")
        let convert = try CLIRunner.run(["convert", file.path, "-o", out.path, "--format", "ahap,haptic,android"])
        XCTAssertEqual(convert.status, 1)
        XCTAssertEqual(convert.stderrLines, ["tactus: \(file.path): cannot be written as ahap: a number that is not finite, or a time past 100000000 s, at regions[0]"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path), [], "nothing written")
        let validate = try CLIRunner.run(["validate", file.path])
        XCTAssertEqual(validate.status, 0)
        XCTAssertTrue(validate.stdout.contains("warning: signals.continuous.envelopes.amplitude[1].time"), validate.stdout)
        let preview = try CLIRunner.run(["preview", file.path, "-o", folder.appendingPathComponent("preview").path])
        XCTAssertEqual(preview.status, 1)
        XCTAssertEqual(preview.stderrLines.count, 1, preview.stderr)
        XCTAssertTrue(preview.stderr.contains("huge.haptic: its haptics run past 3600 s"), preview.stderr)
    }

    /// FuzzConfig: a manifest whose duration overflows to infinity (`2.81e9996780045353`) was
    /// taken as this tool's, and writing it back trapped (JSON has no infinity). Now it is a
    /// manifest from elsewhere: one warning, every output rebuilt, a valid manifest written.
    func testAManifestWithAnInfiniteDurationIsRebuilt() throws {
        let folder = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sounds = folder.appendingPathComponent("sounds")
        try FileManager.default.createDirectory(at: sounds, withIntermediateDirectories: true)
        try AudioFixture.write(Signals.clicks(at: [0.1], seconds: 0.5, sampleRate: 44_100),
                               to: sounds.appendingPathComponent("tap.wav"), sampleRate: 44_100)
        let out = folder.appendingPathComponent("out")
        XCTAssertEqual(try CLIRunner.run(["batch", sounds.path, "-o", out.path, "--quiet"]).status, 0)
        let manifest = out.appendingPathComponent(BatchManifest.fileName)
        let text = try String(contentsOf: manifest, encoding: .utf8)
        let broken = text.replacingOccurrences(of: #""durationSeconds": 0.5"#, with: #""durationSeconds": 2.81e9996780045353"#)
        XCTAssertNotEqual(broken, text)
        try Data(broken.utf8).write(to: manifest)
        let again = try CLIRunner.run(["batch", sounds.path, "-o", out.path, "--quiet"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stderrLines.count, 1, again.stderr)
        XCTAssertTrue(again.stderr.contains("rebuilding every output"), again.stderr)
        XCTAssertEqual(try String(contentsOf: manifest, encoding: .utf8), text)
    }

    /// FuzzPreset's property: a preset that resolves analyses a sound, maps it and writes an
    /// AHAP that passes the validator.
    private func assertPresetRuns(_ json: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let preset = try ResolvedPreset(resolving: [PresetFile.parse(Data(json.utf8), source: "fuzz.json")])
        let session = AnalysisSession(sampleRate: 16_000, configuration: preset.analysisConfiguration())
        session.push(Signals.clicks(at: [0.1, 0.5, 0.9], seconds: 1, sampleRate: 16_000))
        let track = try preset.mapper().map(session.finish())
        let report = AHAPValidator().validate(try AHAPWriter().data(for: track))
        XCTAssertTrue(report.isValid, "\(report)", file: file, line: line)
    }
}
