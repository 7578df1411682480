import Foundation
import TactusAndroid
import TactusCore
import TactusTestSupport
import XCTest

/// Android files (`<stem>.android.json`) read and validated by their own specification
/// (`Integrations/Android/FORMAT.md`): every rule with a file that breaks it, a valid file
/// read as its waveform plays.
final class AndroidFileReaderTests: XCTestCase {
    private func diagnostics(_ data: Data) -> [FormatDiagnostic] { AndroidFormat().validate(data, baseDirectory: nil) }

    func testAValidFileReadsAsItsWaveformPlays() throws {
        XCTAssertEqual(diagnostics(AndroidSample.file()), [])
        let imported = try AndroidFormat().read(AndroidSample.file())
        XCTAssertEqual(imported.metadata, [MetadataEntry(key: "Source", value: "a.wav")])
        XCTAssertEqual(imported.warnings.map(\.kind), ["readFromWaveform"])
        let track = imported.track
        XCTAssertEqual(track.duration, 0.06)
        XCTAssertEqual(track.transients, [])
        XCTAssertEqual(track.regions.count, 1)
        XCTAssertEqual(track.regions[0].start, 0.01)
        XCTAssertEqual(track.regions[0].end, 0.06)
        XCTAssertEqual(track.continuousIntensity(at: 0.02), 1, "255 plays at full intensity")
        XCTAssertEqual(track.continuousIntensity(at: 0.05), (64.0 / 255).squareRoot(), accuracy: 1e-12, "√(amplitude/255)")
        XCTAssertEqual(track.continuousIntensity(at: 0.005), 0)
    }

    func testEveryRuleIsAnErrorAtItsPlace() {
        let cases: [(String, Data, String, String)] = [
            ("not JSON", Data("{".utf8), "invalidJSON", ""),
            ("another format", AndroidSample.file(format: #""tactus-ios""#), "unsupportedFormat", "format"),
            ("version 2", AndroidSample.file(version: "2"), "unsupportedVersion", "version"),
            ("duration a string", AndroidSample.file(durationMs: #""60""#), "wrongType", "durationMs"),
            ("negative duration", AndroidSample.file(durationMs: "-1"), "valueOutOfRange", "durationMs"),
            ("no waveform", Data(#"{"format": "tactus-android", "version": 1, "durationMs": 0, "onOff": {"timings": [0]}, "composition": {"complete": true, "primitives": []}, "envelope": {"initialSharpness": 0.5, "controlPoints": [{"intensity": 0, "sharpness": 0.5, "durationMs": 20}]}}"#.utf8),
             "missingKey", "waveform"),
            ("lengths differ", AndroidSample.file(waveform: #"{"timings": [10, 50], "amplitudes": [0]}"#), "lengthMismatch", "waveform"),
            ("empty waveform", AndroidSample.file(waveform: #"{"timings": [], "amplitudes": []}"#), "lengthMismatch", "waveform"),
            ("amplitude 256", AndroidSample.file(waveform: #"{"timings": [60], "amplitudes": [256]}"#), "valueOutOfRange", "waveform.amplitudes[0]"),
            ("fractional timing", AndroidSample.file(waveform: #"{"timings": [59.5, 0.5], "amplitudes": [0, 9]}"#), "wrongType", "waveform.timings[0]"),
            ("negative on/off", AndroidSample.file(onOff: #"{"timings": [-1]}"#), "valueOutOfRange", "onOff.timings[0]"),
            ("unknown primitive", AndroidSample.file(composition: #"{"complete": true, "primitives": [{"primitive": "BUZZ", "scale": 0.5, "startMs": 0}]}"#),
             "unknownPrimitive", "composition.primitives[0].primitive"),
            ("scale 2", AndroidSample.file(composition: #"{"complete": true, "primitives": [{"primitive": "TICK", "scale": 2, "startMs": 0}]}"#),
             "valueOutOfRange", "composition.primitives[0].scale"),
            ("primitives out of order", AndroidSample.file(composition: #"{"complete": true, "primitives": [{"primitive": "TICK", "scale": 1, "startMs": 30}, {"primitive": "TICK", "scale": 1, "startMs": 10}]}"#),
             "timeOutOfOrder", "composition.primitives[1].startMs"),
            ("complete missing", AndroidSample.file(composition: #"{"primitives": []}"#), "missingKey", "composition.complete"),
            ("short control point", AndroidSample.file(envelope: #"{"initialSharpness": 0.5, "controlPoints": [{"intensity": 0, "sharpness": 0.5, "durationMs": 10}]}"#),
             "valueOutOfRange", "envelope.controlPoints[0].durationMs"),
            ("envelope not ended", AndroidSample.file(envelope: #"{"initialSharpness": 0.5, "controlPoints": [{"intensity": 0.5, "sharpness": 0.5, "durationMs": 20}]}"#),
             "envelopeNotEnded", "envelope.controlPoints[0].intensity"),
            ("sharpness 1.5", AndroidSample.file(envelope: #"{"initialSharpness": 1.5, "controlPoints": [{"intensity": 0, "sharpness": 0.5, "durationMs": 20}]}"#),
             "valueOutOfRange", "envelope.initialSharpness"),
            ("metadata a number", Data(String(decoding: AndroidSample.file(), as: UTF8.self).replacingOccurrences(of: #""a.wav""#, with: "3").utf8),
             "wrongType", "metadata.Source"),
        ]
        for (name, data, kind, location) in cases {
            let errors = diagnostics(data).filter { $0.severity == .error }
            XCTAssertTrue(errors.contains { $0.kind == kind && $0.location == location }, "\(name): \(errors)")
            XCTAssertThrowsError(try AndroidFormat().read(data), name)
        }
    }

    func testWarningsOnly() throws {
        XCTAssertEqual(diagnostics(AndroidSample.file(durationMs: "80")).map(\.kind), ["lengthMismatch"])
        let points = (0..<17).map { #"{"intensity": \#($0 == 16 ? 0 : 0.5), "sharpness": 0.5, "durationMs": 20}"# }
        let long = AndroidSample.file(envelope: #"{"initialSharpness": 0.5, "controlPoints": [\#(points.joined(separator: ","))]}"#)
        XCTAssertEqual(diagnostics(long).map(\.kind), ["tooManyControlPoints"])
        XCTAssertNoThrow(try AndroidFormat().read(long))
    }
}
