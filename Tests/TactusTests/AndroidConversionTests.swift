import Foundation
import Tactus
import TactusAndroid
import TactusCore
import TactusFiles
import TactusTestSupport
import XCTest

/// Android files (`<stem>.android.json`) as a user meets them: Tactus's own files valid and
/// read back as their waveform plays, and `validate`/`convert` on them.
final class AndroidConversionTests: XCTestCase {
    private func diagnostics(_ data: Data) -> [FormatDiagnostic] { AndroidFormat().validate(data, baseDirectory: nil) }

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
        try AndroidSample.file().write(to: android)
        let validate = try CLIRunner.run(["validate", android.path])
        XCTAssertEqual(validate.status, 0, validate.stderr)
        XCTAssertEqual(validate.stdout, "\(android.path): 0 errors, 0 warnings\n")
        try AndroidSample.file(version: "2").write(to: android)
        let invalid = try CLIRunner.run(["validate", android.path])
        XCTAssertEqual(invalid.status, 1)
        XCTAssertTrue(invalid.stdout.contains("error: version: 2 is not supported"), invalid.stdout)

        try AndroidSample.file().write(to: android)
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
