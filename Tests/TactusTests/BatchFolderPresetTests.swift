import Foundation
import Tactus
import TactusMapping
import TactusPresets
import TactusTestSupport
import XCTest

/// `tactus.json` files choose the preset per subtree: nearest wins, value by value, and the
/// command line applies wherever no `tactus.json` says otherwise.
final class BatchFolderPresetTests: XCTestCase {
    private func expectedHash(_ overrides: [String], preset: String = "default") throws -> String {
        try BatchFixture.library.resolve(preset, overrides: overrides).hash
    }

    func testNearestFolderSettingsWinValueByValue() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        for path in ["boom.wav", "ui/click.wav", "ui/menu/open.wav", "ui/menu/fast/blip.wav", "explosions/big.wav"] {
            try fixture.sound(path)
        }
        try fixture.text("soft.json", #"{"name": "soft", "extends": "default", "mapping": {"intensity": {"gamma": 1.5}}}"#)
        try fixture.text("ui/tactus.json", #"{"set": {"peaks.delta": 6, "mapping.intensity.gamma": 0.8}}"#)
        try fixture.text("ui/menu/tactus.json", #"{"set": {"peaks.delta": 2}}"#)
        try fixture.text("ui/menu/fast/tactus.json", #"{"preset": "../../../soft.json"}"#)
        try fixture.text("explosions/tactus.json", #"{"set": {"output.audioVolume": 0.5}}"#)

        let result = try fixture.run { $0.overrides = ["output.audioVolume=0.9"] }

        XCTAssertTrue(result.succeeded, "\(result.problems)")
        let cli = "output.audioVolume=0.9"
        XCTAssertEqual(try fixture.metadata("boom.ahap")["PresetHash"], try expectedHash([cli]))
        XCTAssertEqual(try fixture.metadata("ui/click.ahap")["PresetHash"],
                       try expectedHash(["mapping.intensity.gamma=0.8", cli, "peaks.delta=6"]))
        XCTAssertEqual(try fixture.metadata("ui/menu/open.ahap")["PresetHash"],
                       try expectedHash(["mapping.intensity.gamma=0.8", cli, "peaks.delta=2"]))
        let soft = fixture.input.appendingPathComponent("soft.json").path
        XCTAssertEqual(try fixture.metadata("ui/menu/fast/blip.ahap")["Preset"], "soft")
        XCTAssertEqual(try fixture.metadata("ui/menu/fast/blip.ahap")["PresetHash"],
                       try expectedHash(["mapping.intensity.gamma=0.8", cli, "peaks.delta=2"], preset: soft))
        XCTAssertEqual(try fixture.metadata("explosions/big.ahap")["PresetHash"],
                       try expectedHash(["output.audioVolume=0.5"]))
    }

    /// A bad `tactus.json` is reported once with its path; the files below it are not
    /// converted (not silently converted with another preset); the rest of the tree is.
    func testBadFolderSettingsAreReportedWithTheirPath() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        try fixture.sound("boom.wav")
        try fixture.sound("typo/a.wav")
        try fixture.sound("typo/below/b.wav")
        try fixture.sound("syntax/c.wav")
        try fixture.sound("method/d.wav")
        try fixture.text("typo/tactus.json", #"{"set": {"peaks.delt": 4}}"#)
        try fixture.text("syntax/tactus.json", #"{"preset": "default",}"#)
        try fixture.text("method/tactus.json", #"{"preset": "defualt"}"#)

        let result = try fixture.run()

        XCTAssertFalse(result.succeeded)
        let problems = result.problems.map(\.description).sorted()
        guard problems.count == 3 else { return XCTFail("expected one problem per bad tactus.json: \(problems)") }
        XCTAssertTrue(problems[0].hasPrefix(fixture.input.path + "/method/tactus.json: defualt: no preset with this name"),
                      problems[0])
        XCTAssertTrue(problems[0].contains("did you mean \"default\"?"), problems[0])
        XCTAssertTrue(problems[1].hasPrefix(fixture.input.path + "/syntax/tactus.json: is not valid JSON"), problems[1])
        XCTAssertTrue(problems[2].hasPrefix(fixture.input.path + "/typo/tactus.json: set: unknown key \"peaks.delt\""),
                      problems[2])
        XCTAssertEqual(result.files.filter { $0.status == .failed }.map(\.source),
                       ["method/d.wav", "syntax/c.wav", "typo/a.wav", "typo/below/b.wav"])
        XCTAssertEqual(result.files.filter { $0.status == .converted }.map(\.source), ["boom.wav"])
    }

    func testFolderSettingsFileIsParsedStrictly() throws {
        let folder = URL(fileURLWithPath: "/sfx/ui", isDirectory: true)
        let file = try FolderPresetFile.parse(Data(#"{"preset": "../p.json", "set": {"peaks.delta": 4, "output.pairAudio": false}}"#.utf8),
                                              folder: folder)
        XCTAssertEqual(file, FolderPresetFile(preset: "/sfx/p.json", overrides: ["peaks.delta": "4.0", "output.pairAudio": "false"]))
        XCTAssertEqual(try FolderPresetFile.parse(Data(#"{"preset": "impacts"}"#.utf8), folder: folder).preset, "impacts")
        for bad in [#"{"presets": "x"}"#, #"{"preset": 3}"#, #"{"set": ["peaks.delta=4"]}"#, #"{"set": {"delta": 4}}"#,
                    #"{"set": {"peaks.delta": null}}"#, #"{"preset": "a", "preset": "b"}"#, "[]"] {
            XCTAssertThrowsError(try FolderPresetFile.parse(Data(bad.utf8), folder: folder), bad)
        }
    }

    /// A folder's `tactus.json` that inverts a pair is reported once, on one line naming both
    /// keys; the files below it are not converted.
    func testAFolderSettingThatInvertsAPairIsReported() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        try fixture.sound("boom.wav")
        try fixture.sound("ui/click.wav")
        try fixture.text("ui/tactus.json", #"{"set": {"mapping.transients.floorDb": -10, "mapping.transients.ceilingDb": -20}}"#)
        let result = try fixture.run()
        XCTAssertEqual(result.problems.map(\.description), [
            fixture.input.path + "/ui/tactus.json: set: mapping.transients.floorDb = -10 must be below mapping.transients.ceilingDb = -20",
        ])
        XCTAssertEqual(result.files.filter { $0.status == .failed }.map(\.source), ["ui/click.wav"])
        XCTAssertEqual(result.files.filter { $0.status == .converted }.map(\.source), ["boom.wav"])
    }
}
