import Foundation
import Tactus
import TactusAndroid
import TactusCore
import TactusFiles
import TactusTestSupport
import XCTest

/// Android files (`<stem>.android.json`) read and validated by their own specification
/// (`Integrations/Android/FORMAT.md`): every rule with a file that breaks it, Tactus's own files
/// valid and read back as their waveform plays, and `validate`/`convert` on them as a user runs them.
final class AndroidFileReaderTests: XCTestCase {
    /// A valid file; each argument replaces one part (a JSON fragment).
    private func file(format: String = #""tactus-android""#, version: String = "1", durationMs: String = "60",
                      waveform: String = #"{"timings": [10, 20, 30], "amplitudes": [0, 255, 64]}"#,
                      onOff: String = #"{"timings": [10, 50]}"#,
                      composition: String = #"{"complete": false, "primitives": [{"primitive": "THUD", "scale": 0.9, "startMs": 10}]}"#,
                      envelope: String = #"{"initialSharpness": 0.5, "controlPoints": [{"intensity": 1, "sharpness": 0.4, "durationMs": 20}, {"intensity": 0, "sharpness": 0.4, "durationMs": 40}]}"#) -> Data {
        Data(#"{"format": \#(format), "version": \#(version), "metadata": {"Source": "a.wav"}, "durationMs": \#(durationMs), "waveform": \#(waveform), "onOff": \#(onOff), "composition": \#(composition), "envelope": \#(envelope), "future": [1]}"#.utf8)
    }

    private func diagnostics(_ data: Data) -> [FormatDiagnostic] { AndroidFormat().validate(data, baseDirectory: nil) }

    func testAValidFileReadsAsItsWaveformPlays() throws {
        XCTAssertEqual(diagnostics(file()), [])
        let imported = try AndroidFormat().read(file())
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
            ("another format", file(format: #""tactus-ios""#), "unsupportedFormat", "format"),
            ("version 2", file(version: "2"), "unsupportedVersion", "version"),
            ("duration a string", file(durationMs: #""60""#), "wrongType", "durationMs"),
            ("negative duration", file(durationMs: "-1"), "valueOutOfRange", "durationMs"),
            ("no waveform", Data(#"{"format": "tactus-android", "version": 1, "durationMs": 0, "onOff": {"timings": [0]}, "composition": {"complete": true, "primitives": []}, "envelope": {"initialSharpness": 0.5, "controlPoints": [{"intensity": 0, "sharpness": 0.5, "durationMs": 20}]}}"#.utf8),
             "missingKey", "waveform"),
            ("lengths differ", file(waveform: #"{"timings": [10, 50], "amplitudes": [0]}"#), "lengthMismatch", "waveform"),
            ("empty waveform", file(waveform: #"{"timings": [], "amplitudes": []}"#), "lengthMismatch", "waveform"),
            ("amplitude 256", file(waveform: #"{"timings": [60], "amplitudes": [256]}"#), "valueOutOfRange", "waveform.amplitudes[0]"),
            ("fractional timing", file(waveform: #"{"timings": [59.5, 0.5], "amplitudes": [0, 9]}"#), "wrongType", "waveform.timings[0]"),
            ("negative on/off", file(onOff: #"{"timings": [-1]}"#), "valueOutOfRange", "onOff.timings[0]"),
            ("unknown primitive", file(composition: #"{"complete": true, "primitives": [{"primitive": "BUZZ", "scale": 0.5, "startMs": 0}]}"#),
             "unknownPrimitive", "composition.primitives[0].primitive"),
            ("scale 2", file(composition: #"{"complete": true, "primitives": [{"primitive": "TICK", "scale": 2, "startMs": 0}]}"#),
             "valueOutOfRange", "composition.primitives[0].scale"),
            ("primitives out of order", file(composition: #"{"complete": true, "primitives": [{"primitive": "TICK", "scale": 1, "startMs": 30}, {"primitive": "TICK", "scale": 1, "startMs": 10}]}"#),
             "timeOutOfOrder", "composition.primitives[1].startMs"),
            ("complete missing", file(composition: #"{"primitives": []}"#), "missingKey", "composition.complete"),
            ("short control point", file(envelope: #"{"initialSharpness": 0.5, "controlPoints": [{"intensity": 0, "sharpness": 0.5, "durationMs": 10}]}"#),
             "valueOutOfRange", "envelope.controlPoints[0].durationMs"),
            ("envelope not ended", file(envelope: #"{"initialSharpness": 0.5, "controlPoints": [{"intensity": 0.5, "sharpness": 0.5, "durationMs": 20}]}"#),
             "envelopeNotEnded", "envelope.controlPoints[0].intensity"),
            ("sharpness 1.5", file(envelope: #"{"initialSharpness": 1.5, "controlPoints": [{"intensity": 0, "sharpness": 0.5, "durationMs": 20}]}"#),
             "valueOutOfRange", "envelope.initialSharpness"),
            ("metadata a number", Data(String(decoding: file(), as: UTF8.self).replacingOccurrences(of: #""a.wav""#, with: "3").utf8),
             "wrongType", "metadata.Source"),
        ]
        for (name, data, kind, location) in cases {
            let errors = diagnostics(data).filter { $0.severity == .error }
            XCTAssertTrue(errors.contains { $0.kind == kind && $0.location == location }, "\(name): \(errors)")
            XCTAssertThrowsError(try AndroidFormat().read(data), name)
        }
    }

    func testWarningsOnly() throws {
        XCTAssertEqual(diagnostics(file(durationMs: "80")).map(\.kind), ["lengthMismatch"])
        let points = (0..<17).map { #"{"intensity": \#($0 == 16 ? 0 : 0.5), "sharpness": 0.5, "durationMs": 20}"# }
        let long = file(envelope: #"{"initialSharpness": 0.5, "controlPoints": [\#(points.joined(separator: ","))]}"#)
        XCTAssertEqual(diagnostics(long).map(\.kind), ["tooManyControlPoints"])
        XCTAssertNoThrow(try AndroidFormat().read(long))
    }

    /// Tactus's own Android files of Corpus sounds have no error and read back as the waveform
    /// they hold: the amplitude of every millisecond, from the track read, is the one written.
    func testCorpusFilesAreValidAndReadBackAsTheirWaveform() throws {
        let folder = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: folder) }
        let converter = Converter(preset: try shippedPreset(), formats: [AndroidFormat()], log: CommittedFiles())
        for name in ["clean/explosion.wav", "clean/ui_clicks.wav", "multi/door_open_close.wav"] {
            let url = try converter.convert(Corpus.root.appendingPathComponent(name), to: folder).outputs[0].url
            let data = try Data(contentsOf: url)
            XCTAssertEqual(diagnostics(data).filter { $0.severity == .error }, [], name)
            let json = try JSONReader.parse(data)
            guard case .array(let timings)? = json["waveform"]?["timings"], case .array(let amplitudes)? = json["waveform"]?["amplitudes"] else {
                return XCTFail("\(name): no waveform")
            }
            let track = try AndroidFormat().read(data).track
            var ms = 0
            for (timing, amplitude) in zip(timings, amplitudes) {
                guard case .number(let length) = timing, case .number(let level) = amplitude else { return XCTFail(name) }
                for t in ms..<(ms + Int(length)) {
                    let intensity = track.continuousIntensity(at: (Double(t) + 0.5) / 1000)
                    XCTAssertEqual(Int((255 * intensity * intensity).rounded()), Int(level), "\(name) at \(t) ms")
                }
                ms += Int(length)
            }
        }
    }

    /// `validate` judges an Android file by its own rules (it once read it as an AHAP: 9
    /// warnings, 1 error), and `convert` translates it.
    func testValidateAndConvertAnAndroidFile() throws {
        let folder = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: folder) }
        let android = folder.appendingPathComponent("tap.android.json")
        try file().write(to: android)
        let validate = try CLIRunner.run(["validate", android.path])
        XCTAssertEqual(validate.status, 0, validate.stderr)
        XCTAssertEqual(validate.stdout, "\(android.path): 0 errors, 0 warnings\n")
        try file(version: "2").write(to: android)
        let invalid = try CLIRunner.run(["validate", android.path])
        XCTAssertEqual(invalid.status, 1)
        XCTAssertTrue(invalid.stdout.contains("error: version: 2 is not supported"), invalid.stdout)

        try file().write(to: android)
        let out = folder.appendingPathComponent("out")
        let convert = try CLIRunner.run(["convert", android.path, "-o", out.path, "--format", "ahap,haptic"])
        XCTAssertEqual(convert.status, 0, convert.stderr)
        XCTAssertTrue(convert.stderr.contains("warning: waveform: read from the waveform"), convert.stderr)
        let check = try CLIRunner.run(["validate", out.appendingPathComponent("tap.android.ahap").path,
                                       out.appendingPathComponent("tap.android.haptic").path, "--quiet"])
        XCTAssertEqual(check.status, 0, check.stdout)
        XCTAssertEqual(check.stdout, "")
    }
}
