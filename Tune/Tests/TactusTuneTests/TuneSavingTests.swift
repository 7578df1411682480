import Foundation
import TactusCore
import TactusFiles
import Tactus
import TactusMapping
import TactusPresets
@testable import TactusTune
import TactusTestSupport
import XCTest

/// Where "Save" may write: a new preset never replaces a file, a folder's `tactus.json` gives
/// batch the same values, and only a user's own preset file is saved over, never a shipped one.
final class TuneSavingTests: XCTestCase {
    private func settings(_ json: String, _ session: TuneSession) throws -> TuneSettings {
        try TuneSettings(json: JSONReader.parse(Data(json.utf8)), base: session.base)
    }

    func testSavesOverAUsersPresetFileButNeverAShippedOne() throws {
        let folder = AudioFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let mine = folder.appendingPathComponent("mine.json")
        try Data(#"{"schemaVersion": 1, "name": "mine", "extends": "impacts", "peaks": {"delta": 0.4}}"#.utf8).write(to: mine)
        let sound = Corpus.root.appendingPathComponent("clean/bell.wav")

        let user = try TuneTestServer(sounds: [sound], preset: mine.path, folder: folder.appendingPathComponent("user"))
        defer { user.stop() }
        let tuned = try settings(#"{"name":"mine","set":{"mapping.intensity.gamma":0.7}}"#, user.session)
        XCTAssertEqual(try user.session.save(tuned, to: .base), mine.path)
        let saved = try PresetLibrary.standard().resolve(mine.path)
        XCTAssertEqual(saved.parameters("mapping.intensity").values["gamma"], .number(0.7))
        XCTAssertEqual(saved.parameters("peaks").values["delta"], .number(0.4), "its own values stay")
        XCTAssertEqual(saved.chain.count, 3, "it still extends impacts: \(saved.chain)")

        let shipped = try TuneTestServer(sounds: [sound], preset: "impacts", folder: folder.appendingPathComponent("shipped"))
        defer { shipped.stop() }
        XCTAssertNil(shipped.session.overwritableBase())
        let before = try PresetLibrary.standard().contents(of: PresetLibrary.standard().locate("impacts"))
        XCTAssertThrowsError(try shipped.session.save(try settings(#"{"name":"impacts","set":{"peaks.delta":0.9}}"#, shipped.session),
                                                      to: .base))
        XCTAssertEqual(try PresetLibrary.standard().contents(of: PresetLibrary.standard().locate("impacts")), before)
    }

    func testAFolderPresetGivesBatchTheTunedValues() throws {
        let folder = AudioFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (sounds, bell) = try TuneTestServer.soundsFolder(in: folder)
        let server = try TuneTestServer(sounds: [bell], folder: folder.appendingPathComponent("run"))
        defer { server.stop() }
        let reply = try server.post("/api/save", #"{"name":"x","target":"folder","folder":0,"set":{"mapping.intensity.gamma":0.7,"peaks.delta":0.3}}"#)
        XCTAssertEqual(reply.status, 200, reply.text)
        let written = try FolderPresetFile.parse(Data(contentsOf: sounds.appendingPathComponent("tactus.json")), folder: sounds)
        XCTAssertEqual(written.preset, "default")
        XCTAssertEqual(Set(written.overrides.keys), ["mapping.intensity.gamma", "peaks.delta"])
        XCTAssertEqual(try server.post("/api/save", #"{"name":"x","target":"folder","folder":3}"#).status, 400)
    }
}
