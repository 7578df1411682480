import Foundation
import XCTest
@testable import TactusAHAP

final class AHAPValidatorTests: XCTestCase {
    private typealias Kind = AHAPDiagnostic.Kind

    /// A pattern around the given elements (JSON text of each).
    private func file(_ elements: String...) -> String {
        #"{"Version": 1.0, "Pattern": ["# + elements.joined(separator: ",") + "]}"
    }

    private let transient = #"{"Event": {"Time": 0.1, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.5}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.5}]}}"#

    private func report(_ json: String, base: URL? = nil) -> AHAPValidationReport {
        AHAPValidator(baseDirectory: base).validate(data(json))
    }

    private func assertFinds(_ kind: Kind, _ severity: AHAPDiagnostic.Severity = .error, at location: String? = nil,
                             in json: String, base: URL? = nil, file: StaticString = #filePath, line: UInt = #line) {
        let result = report(json, base: base)
        let found = result.diagnostics.filter { $0.kind == kind }
        XCTAssertFalse(found.isEmpty, "expected \(kind) in:\n\(result)", file: file, line: line)
        for diagnostic in found { XCTAssertEqual(diagnostic.severity, severity, file: file, line: line) }
        if let location { XCTAssertEqual(found.first?.location, location, "\(result)", file: file, line: line) }
    }

    func testAMinimalValidFileHasNoFindings() {
        XCTAssertEqual(report(file(transient)).diagnostics, [])
        XCTAssertEqual(report(file()).description, "0 errors, 0 warnings")
    }

    func testStructuralErrors() {
        assertFinds(.invalidJSON, in: #"{"Version": 1.0,"#)
        assertFinds(.wrongType, at: "Version", in: #"{"Version": "1.0", "Pattern": []}"#)
        assertFinds(.wrongType, at: "", in: "[]")
        assertFinds(.missingKey, at: "Pattern", in: #"{"Version": 1.0}"#)
        assertFinds(.missingKey, .warning, at: "Version", in: #"{"Pattern": []}"#)
        XCTAssertTrue(report(#"{"Pattern": []}"#).isValid, "Apple's samples omit Version and play")
        assertFinds(.unsupportedVersion, at: "Version", in: #"{"Version": 0, "Pattern": []}"#)
        assertFinds(.unsupportedVersion, .warning, at: "Version", in: #"{"Version": 2, "Pattern": []}"#)
        assertFinds(.wrongType, at: "Pattern", in: #"{"Version": 1.0, "Pattern": {}}"#)
        assertFinds(.wrongType, at: "Metadata", in: #"{"Version": 1.0, "Metadata": [], "Pattern": []}"#)
        assertFinds(.wrongType, .warning, at: "Metadata.Build", in: #"{"Version": 1.0, "Metadata": {"Build": 3}, "Pattern": []}"#)
        assertFinds(.numberOutOfRange, at: "Pattern[0].Event.Time",
                    in: file(#"{"Event": {"Time": 1e999, "EventType": "HapticTransient"}}"#))
        assertFinds(.elementShape, at: "Pattern[0]", in: file("{}"))
        assertFinds(.elementShape, at: "Pattern[1]", in: file(transient, #"{"Parameter": {}, "ParameterCurve": {}}"#))
        assertFinds(.wrongType, at: "Pattern[0].Event.EventWaveformUseVolumeEnvelope",
                    in: file(#"{"Event": {"Time": 0, "EventType": "AudioCustom", "EventWaveformPath": "a.wav", "EventWaveformUseVolumeEnvelope": 0}}"#))
    }

    func testUnknownAndDuplicateKeysAreWarnings() {
        assertFinds(.unknownKey, .warning, at: "Extra", in: #"{"Version": 1.0, "Pattern": [], "Extra": 1}"#)
        assertFinds(.unknownKey, .warning, at: "Pattern[0].Event.Intensity",
                    in: file(#"{"Event": {"Time": 0, "EventType": "HapticTransient", "Intensity": 1}}"#))
        assertFinds(.duplicateKey, .warning, at: "Version", in: #"{"Version": 1.0, "Version": 1.0, "Pattern": []}"#)
        assertFinds(.unsupportedVersion, .warning, in: #"{"Version": 2, "Pattern": []}"#)
    }

    func testEventErrors() {
        assertFinds(.unknownEventType, at: "Pattern[0].Event.EventType", in: file(#"{"Event": {"Time": 0, "EventType": "Rumble"}}"#))
        assertFinds(.negativeTime, at: "Pattern[0].Event.Time",
                    in: file(#"{"Event": {"Time": -0.1, "EventType": "HapticTransient"}}"#))
        assertFinds(.missingDuration, at: "Pattern[0].Event.EventDuration",
                    in: file(#"{"Event": {"Time": 0, "EventType": "HapticContinuous"}}"#))
        assertFinds(.missingDuration, in: file(#"{"Event": {"Time": 0, "EventType": "AudioContinuous"}}"#))
        assertFinds(.nonPositiveDuration, in: file(#"{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 0}}"#))
        assertFinds(.durationTooLong, at: "Pattern[0].Event.EventDuration",
                    in: file(#"{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 30.5}}"#))
        assertFinds(.missingWaveformPath, at: "Pattern[0].Event.EventWaveformPath",
                    in: file(#"{"Event": {"Time": 0, "EventType": "AudioCustom"}}"#))
        assertFinds(.unknownParameter, at: "Pattern[0].Event.EventParameters[0].ParameterID",
                    in: file(#"{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "Loudness", "ParameterValue": 1}]}}"#))
        assertFinds(.valueOutOfRange, at: "Pattern[0].Event.EventParameters[0].ParameterValue",
                    in: file(#"{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1.2}]}}"#))
        assertFinds(.valueOutOfRange, in: file(#"{"Event": {"Time": 0, "EventType": "AudioCustom", "EventWaveformPath": "a.wav", "EventParameters": [{"ParameterID": "AudioPitch", "ParameterValue": -1.5}]}}"#))
        assertFinds(.missingParameter, .warning, at: "Pattern[0].Event.EventParameters",
                    in: file(#"{"Event": {"Time": 0, "EventType": "HapticTransient"}}"#))
        XCTAssertEqual(report(file(#"{"Event": {"Time": 0, "EventType": "AudioCustom", "EventWaveformPath": "a.wav", "EventParameters": [{"ParameterID": "AudioPan", "ParameterValue": -1}]}}"#)).diagnostics, [])
    }

    func testAudioFileMustExistNextToThePattern() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tactus-validator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data([0]).write(to: directory.appendingPathComponent("é 1.wav"))
        let audio = { (name: String) in self.file(#"{"Event": {"Time": 0, "EventType": "AudioCustom", "EventWaveformPath": "\#(name)"}}"#) }
        assertFinds(.audioFileNotFound, at: "Pattern[0].Event.EventWaveformPath", in: audio("missing.wav"), base: directory)
        XCTAssertEqual(report(audio("é 1.wav"), base: directory).errorCount, 0)
        XCTAssertEqual(report(audio("missing.wav")).errorCount, 0, "no base directory, no file check")
        // Validating a file on disk resolves paths next to it.
        let pattern = directory.appendingPathComponent("p.ahap")
        try data(audio("missing.wav")).write(to: pattern)
        XCTAssertEqual(AHAPValidator().validate(contentsOf: pattern).diagnostics.map(\.kind), [.audioFileNotFound])
        // A path an app bundle cannot resolve: absolute, or out of the AHAP's folder.
        try Data([0]).write(to: directory.deletingLastPathComponent().appendingPathComponent("up.wav"))
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent().appendingPathComponent("up.wav")) }
        assertFinds(.waveformPathOutsideFolder, .warning, at: "Pattern[0].Event.EventWaveformPath",
                    in: audio("../up.wav"), base: directory)
        XCTAssertEqual(report(audio("../up.wav"), base: directory).errorCount, 0, "it exists here")
        assertFinds(.waveformPathOutsideFolder, .warning, in: audio(directory.appendingPathComponent("é 1.wav").path))
        XCTAssertFalse(report(audio("sub/a..b.wav")).diagnostics.contains { $0.kind == .waveformPathOutsideFolder })
    }

    func testParameterAndCurveErrors() {
        let point = { (t: Double, v: Double) in #"{"Time": \#(t), "ParameterValue": \#(v)}"# }
        let curve = { (id: String, time: Double, points: [String]) in
            #"{"ParameterCurve": {"ParameterID": "\#(id)", "Time": \#(time), "ParameterCurveControlPoints": [\#(points.joined(separator: ","))]}}"#
        }
        assertFinds(.unknownParameter, at: "Pattern[0].Parameter.ParameterID",
                    in: file(#"{"Parameter": {"ParameterID": "HapticIntensity", "Time": 0, "ParameterValue": 1}}"#))
        assertFinds(.valueOutOfRange, at: "Pattern[0].Parameter.ParameterValue",
                    in: file(#"{"Parameter": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterValue": -0.5}}"#))
        assertFinds(.negativeTime, in: file(#"{"Parameter": {"ParameterID": "HapticSharpnessControl", "Time": -1, "ParameterValue": 0}}"#))
        assertFinds(.unknownParameter, in: file(curve("Volume", 0, [point(0, 1)])))
        assertFinds(.emptyCurve, in: file(curve("HapticIntensityControl", 0, [])))
        assertFinds(.tooManyControlPoints, .warning, at: "Pattern[0].ParameterCurve.ParameterCurveControlPoints",
                    in: file(curve("HapticIntensityControl", 0, (0..<17).map { point(Double($0) * 0.1, 1) })))
        XCTAssertFalse(report(file(curve("HapticIntensityControl", 0, (0..<16).map { point(Double($0) * 0.1, 1) })))
            .diagnostics.contains { $0.kind == .tooManyControlPoints })
        assertFinds(.decreasingControlPointTime, at: "Pattern[0].ParameterCurve.ParameterCurveControlPoints[2].Time",
                    in: file(curve("HapticSharpnessControl", 0, [point(0, 0), point(0.5, 0.2), point(0.4, 0)])))
        assertFinds(.negativeTime, at: "Pattern[0].ParameterCurve.ParameterCurveControlPoints[0].Time",
                    in: file(curve("HapticSharpnessControl", 0, [point(-0.1, 0)])))
        assertFinds(.valueOutOfRange, at: "Pattern[0].ParameterCurve.ParameterCurveControlPoints[0].ParameterValue",
                    in: file(curve("HapticSharpnessControl", 0, [point(0, -1.5)])))
        // The known converter bug: a later curve written with absolute point times.
        assertFinds(.absoluteControlPointTimes, .warning, at: "Pattern[1].ParameterCurve.ParameterCurveControlPoints[0].Time",
                    in: file(curve("AudioVolumeControl", 0, [point(0, 1), point(2, 1)]),
                             curve("AudioVolumeControl", 2, [point(2, 1), point(3, 1)])))
    }

    func testPlaybackWarnings() {
        let continuous = #"{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 1, "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.5}]}}"#
        let late = #"{"Event": {"Time": 2, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.8}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.5}]}}"#
        // A naive envelope: fades to 0 with the continuous event and never comes back.
        let fade = #"{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [{"Time": 0, "ParameterValue": 1}, {"Time": 1, "ParameterValue": 0}]}}"#
        let naive = file(continuous, fade, late)
        assertFinds(.transientScaledByControl, .warning, at: "Pattern[2].Event", in: naive)
        assertFinds(.controlLeaksIntoLaterEvents, .warning, at: "Pattern[1].ParameterCurve", in: naive)
        assertFinds(.controlLeftSetAfterLastEvent, .warning, at: "Pattern[1].ParameterCurve", in: naive)
        XCTAssertEqual(report(naive).errorCount, 0)

        let shift = #"{"Parameter": {"ParameterID": "HapticSharpnessControl", "Time": 0, "ParameterValue": 0.3}}"#
        assertFinds(.transientSharpnessShiftedByControl, .warning, at: "Pattern[1].Event", in: file(shift, transient))
        // A curve that returns to neutral leaves nothing behind.
        let restored = #"{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [{"Time": 0, "ParameterValue": 0.2}, {"Time": 1, "ParameterValue": 0.2}, {"Time": 1.01, "ParameterValue": 1}]}}"#
        XCTAssertEqual(report(file(continuous, restored, late)).diagnostics, [])
    }

    func testReportPrintsOneLinePerDiagnosticAndCounts() {
        let result = report(#"{"Version": 1.0, "Extra": 1, "Pattern": [{"Event": {"Time": -1, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.5}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.5}]}}]}"#)
        XCTAssertEqual(result.errorCount, 1)
        XCTAssertEqual(result.warningCount, 1)
        XCTAssertFalse(result.isValid)
        XCTAssertEqual(result.description, """
            warning: Extra: unknown key; Core Haptics ignores it
            error: Pattern[0].Event.Time: time -1.0 is negative
            1 error, 1 warning
            """)
    }
}
