import Foundation
import XCTest
import TactusTestSupport

/// The documented contract of the command line: exit 0 when every input converted, 1 when
/// some failed (the others still convert, each failure one `tactus: <file>: …` line in
/// input order), 64 for usage errors, whatever the command.
final class CLIExitCodeTests: RobustnessTestCase {
    func testHelpDocumentsTheExitCodes() throws {
        let help = try CLIRunner.run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("Exit codes: 0 success, 1 some inputs failed, 64 usage error."), help.stdout)
    }

    func testEveryInputConvertedExitsZero() throws {
        let a = try write(Signals.clicks(at: [0.1], seconds: 0.3, sampleRate: 44_100), to: "a.wav")
        let b = try write(Signals.clicks(at: [0.2], seconds: 0.3, sampleRate: 44_100), to: "b.flac", format: .flac16)
        let outcome = try CLIRunner.run(["convert", a.path, b.path, "-o", outputFolder.path], in: folder)
        XCTAssertEqual(outcome.status, 0, "\(outcome)")
        XCTAssertEqual(outcome.stderr, "")
        XCTAssertEqual(outcome.stdout.split(separator: "\n").count, 2, "one line per converted file")
    }

    func testSomeInputsFailedExitsOneAndConvertsTheRest() throws {
        let good = try write(Signals.clicks(at: [0.1], seconds: 0.3, sampleRate: 44_100), to: "good.wav")
        let text = try write(Data("notes".utf8), to: "notes.wav")
        let missing = input("missing.wav")
        let outcome = try CLIRunner.run(["convert", missing.path, good.path, text.path, "-o", outputFolder.path, "-q"],
                                        in: folder)
        XCTAssertEqual(outcome.status, 1, "\(outcome)")
        XCTAssertEqual(outcome.stdout, "", "--quiet prints nothing but errors")
        XCTAssertEqual(outcome.stderrLines.count, 2, "\(outcome)")
        XCTAssertTrue(outcome.stderrLines.first?.hasPrefix("tactus: \(missing.path): no such file (") ?? false, "\(outcome)")
        XCTAssertTrue(outcome.stderrLines.last?.hasPrefix("tactus: \(text.path): is not audio") ?? false, "\(outcome)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outputFolder.path).sorted(),
                       ["good.ahap", "good.wav"])
    }

    func testUsageErrorsExitSixtyFour() throws {
        let sound = try write(Signals.clicks(at: [0.1], seconds: 0.3, sampleRate: 44_100), to: "hit.wav")
        let usages: [[String]] = [
            ["convert"],
            ["convert", sound.path, "--no-such-option"],
            ["no-such-command"],
            ["convert", sound.path, "--preset", "no-such-preset"],
            ["convert", sound.path, "--set", "peaks.delta=loud"],
            ["batch", input("no-such-folder").path, "-o", outputFolder.path],
            ["batch", folder.path, "-o", outputFolder.path, "--jobs", "0"],
        ]
        for arguments in usages {
            let outcome = try CLIRunner.run(arguments, in: folder)
            XCTAssertEqual(outcome.status, 64, "\(arguments): \(outcome)")
            XCTAssertFalse(outcome.stderr.isEmpty, "\(arguments) says what is wrong")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: outputFolder.path), "a usage error writes nothing")
    }

    /// A bad preset is reported on one `tactus:` line that names it, with a hint.
    func testUnknownPresetIsOneLineWithAHint() throws {
        let sound = try write(Signals.clicks(at: [0.1], seconds: 0.3, sampleRate: 44_100), to: "hit.wav")
        let outcome = try CLIRunner.run(["convert", sound.path, "--preset", "impactz"], in: folder)
        XCTAssertEqual(outcome.stderrLines, ["tactus: impactz: no preset with this name (did you mean \"impacts\"?)"])
    }

    func testAnalyzeRefusesLikeConvert() throws {
        let text = try write(Data("notes".utf8), to: "notes.wav")
        let outcome = try CLIRunner.run(["analyze", text.path], in: folder)
        XCTAssertEqual(outcome.status, 1)
        assertErrorLine(outcome, names: text.path, mentioning: "is not audio")
        XCTAssertEqual(outcome.stdout, "")
    }
}
