import Foundation
import XCTest
import TactusAnalysis
import TactusCore
import TactusMapping
import TactusPresets
import TactusTestSupport

/// `tactus presets show`/`init` and `--set` as a user meets them.
final class PresetCommandTests: RobustnessTestCase {
    var committedSchema: URL { Corpus.root.deletingLastPathComponent().appendingPathComponent("Presets/preset.schema.json") }

    /// The `$schema` of a file `presets init` wrote, followed from the file's folder.
    func schemaTarget(of preset: URL) throws -> URL {
        let json = try JSONReader.parse(Data(contentsOf: preset))
        guard case .string(let reference)? = json["$schema"] else { XCTFail("no $schema"); return preset }
        XCTAssertFalse(reference.hasPrefix("/"), "relative, so the tree can move: \(reference)")
        return URL(fileURLWithPath: reference, relativeTo: preset.deletingLastPathComponent()).standardizedFileURL
    }

    func testInitWritesASchemaReferenceThatResolvesFromWhereTheFileIs() throws {
        let deep = folder.appendingPathComponent("a/b", isDirectory: true)
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        let target = deep.appendingPathComponent("mine.json")
        let written = try CLIRunner.run(["presets", "init", "--from", "explosions", "-o", target.path], in: folder)
        XCTAssertEqual(written.status, 0, "\(written)")
        XCTAssertEqual(try Data(contentsOf: schemaTarget(of: target)), try Data(contentsOf: committedSchema))
        let check = try CLIRunner.run(["presets", "validate", target.path], in: folder)
        XCTAssertEqual(check.status, 0, "\(check)")

        // Printed: relative to the current folder, where `> mine.json` puts it.
        let printed = try CLIRunner.run(["presets", "init"], in: deep)
        XCTAssertEqual(printed.status, 0, "\(printed)")
        let redirected = deep.appendingPathComponent("printed.json")
        try Data(printed.stdout.utf8).write(to: redirected)
        XCTAssertEqual(try Data(contentsOf: schemaTarget(of: redirected)), try Data(contentsOf: committedSchema))

        // An existing file is not replaced.
        let before = try Data(contentsOf: target)
        let again = try CLIRunner.run(["presets", "init", "-o", target.path], in: folder)
        XCTAssertEqual(again.status, 64)
        XCTAssertEqual(again.stderrLines, ["tactus: \(target.path): already exists (remove it or choose another name)"])
        XCTAssertEqual(try Data(contentsOf: target), before)
    }

    func testShowPrintsEachDescriptionAndWhatFeelMakesOfAValue() throws {
        let shown = try CLIRunner.run(["presets", "show", "default", "--set", "feel.density=1"], in: folder)
        XCTAssertEqual(shown.status, 0, "\(shown)")
        let lines = shown.stdout.split(separator: "\n").map(String.init)
        let delta = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("  peaks.delta = 4 ") })
        XCTAssertTrue(lines[delta].hasSuffix("(method superflux) → 1 (feel)"), lines[delta])
        XCTAssertEqual(lines[delta + 1], "      " + PeakPicker.delta.help + " Unit: novelty.")
        let density = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("  feel.density = 1 ") })
        XCTAssertEqual(lines[density + 1], "      " + FeelSettings.density.help)
    }

    /// An inverted pair given with `--set` is a usage error: one line, exit 64, nothing written.
    func testSetThatInvertsAPairIsAUsageError() throws {
        let audio = try write(Signals.clicks(at: [0.1], seconds: 0.3, sampleRate: 44_100), to: "a.wav")
        let outcome = try CLIRunner.run(["convert", audio.path, "-o", outputFolder.path, "--set", "mapping.sharpness.lowHz=4000",
                                         "--set", "mapping.sharpness.highHz=3000"], in: folder)
        XCTAssertEqual(outcome.status, 64, "\(outcome)")
        XCTAssertEqual(outcome.stderrLines, ["tactus: --set: mapping.sharpness.lowHz = 4000 must be below mapping.sharpness.highHz = 3000"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: outputFolder.path))
    }

    /// A preset file that inverts a pair fails `presets validate` (exit 1) and `convert` (exit
    /// 64) on one line naming the file and both keys.
    func testAPresetThatInvertsAPairIsRefused() throws {
        let preset = try write(Data(#"{"schemaVersion": 1, "extends": "default", "mapping": {"transients": {"lowOctaves": 9, "highOctaves": 8}}}"#.utf8),
                               to: "inverted.json")
        let line = "tactus: inverted.json: mapping.transients.lowOctaves = 9 must be below mapping.transients.highOctaves = 8"
        let validated = try CLIRunner.run(["presets", "validate", preset.path], in: folder)
        XCTAssertEqual(validated.status, 1, "\(validated)")
        XCTAssertEqual(validated.stderrLines, [line])
        let audio = try write(Signals.clicks(at: [0.1], seconds: 0.3, sampleRate: 44_100), to: "a.wav")
        let converted = try CLIRunner.run(["convert", audio.path, "-o", outputFolder.path, "--preset", preset.path], in: folder)
        XCTAssertEqual(converted.status, 64, "\(converted)")
        XCTAssertEqual(converted.stderrLines, [line])
    }
}
