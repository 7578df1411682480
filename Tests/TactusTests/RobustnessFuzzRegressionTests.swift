import XCTest
import TactusAHAP
import TactusAnalysis
import TactusMapping
import TactusTestSupport

/// Inputs the fuzzers in Fuzz/ crashed on, kept so they stay fixed. Each is checked with
/// the property its fuzz target asserts, in process, on every test run.
final class RobustnessFuzzRegressionTests: XCTestCase {
    /// FuzzPreset: a 50 ms hop over a 5 ms window (both in range) let the STFT's read
    /// position run past the samples it held, and compacting its buffer trapped.
    func testHopLongerThanTheWindowRuns() throws {
        try assertPresetRuns(#"{"schemaVersion": 1, "stft": {"windowMs": 5, "hopMs": 50}}"#)
    }

    /// FuzzPreset's property: a preset that resolves analyses a sound, maps it and writes an
    /// AHAP that passes the validator.
    private func assertPresetRuns(_ json: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let preset = try ResolvedPreset(resolving: [PresetFile.parse(Data(json.utf8), source: "fuzz.json")])
        let session = AnalysisSession(sampleRate: 16_000, configuration: preset.analysisConfiguration())
        session.push(Signals.clicks(at: [0.1, 0.5, 0.9], seconds: 1, sampleRate: 16_000))
        let track = preset.mapper().map(session.finish())
        let report = AHAPValidator().validate(try AHAPWriter().data(for: track))
        XCTAssertTrue(report.isValid, "\(report)", file: file, line: line)
    }
}
