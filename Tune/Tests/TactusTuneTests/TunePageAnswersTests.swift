import Foundation
import TactusCore
import TactusFiles
import Tactus
import TactusPresets
@testable import TactusTune
import TactusTestSupport
import XCTest

/// What the page is told: refused settings in words (no made-up file), the sounds that were
/// skipped with their reason, and what each target format plays of a track.
final class TunePageAnswersTests: XCTestCase {
    func testRefusedSettingsAreOneLineInWordsAndTheNextRequestWorks() throws {
        let folder = AudioFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try TuneTestServer(sounds: [Corpus.root.appendingPathComponent("clean/bell.wav")], folder: folder)
        defer { server.stop() }
        let crossed = try server.post("/api/render", #"{"name":"default-tuned","sounds":[0],"set":{"mapping.sharpness.lowHz":3000,"mapping.sharpness.highHz":1000}}"#)
        XCTAssertEqual(crossed.status, 422, crossed.text)
        let message = try XCTUnwrap(crossed.json()["error"]?.string)
        XCTAssertTrue(message.hasPrefix("mapping.sharpness.lowHz = 3000 must be below mapping.sharpness.highHz = 1000"), message)
        XCTAssertFalse(message.contains(".json"), "the page's settings are no file: \(message)")
        let outOfRange = try server.post("/api/render", #"{"name":"t","sounds":[0],"set":{"mapping.intensity.gamma":99}}"#)
        XCTAssertEqual(outOfRange.status, 422)
        XCTAssertTrue(try XCTUnwrap(outOfRange.json()["error"]?.string).hasPrefix("mapping.intensity.gamma = "), outOfRange.text)
        XCTAssertEqual(try server.post("/api/render", #"{"name":"t","sounds":[0],"set":{"mapping.intensity.gamma":0.8}}"#).status, 200,
                       "nothing is left broken on the server")
    }

    func testSkippedSoundsAreListedWithTheirReason() throws {
        let folder = AudioFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (sounds, _) = try TuneTestServer.soundsFolder(in: folder)
        try Data("RIFF....WAVEfmt garbage".utf8).write(to: sounds.appendingPathComponent("broken.wav"))
        try Data("not a sound".utf8).write(to: sounds.appendingPathComponent("notes.txt"))
        let (found, problems) = FoundSound.find([sounds.path], jobs: 1)
        let base = try TuneBase(reference: "default", overrides: [], library: PresetLibrary.standard())
        let (session, failures) = try TuneSession.open(found, skipped: problems, base: base, library: PresetLibrary.standard(),
                                                       exportFolder: folder.appendingPathComponent("export"),
                                                       presetFolder: folder.appendingPathComponent("Presets"), jobs: 1)
        defer { session.close() }
        XCTAssertEqual(session.soundCount, 1)
        let skipped = try XCTUnwrap(session.state()["skipped"]?.items)
        XCTAssertEqual(skipped.count, problems.count + failures.count)
        XCTAssertEqual(skipped.compactMap { $0["line"]?.string }, (problems + failures).map(\.description))
        XCTAssertTrue(skipped.contains { $0["file"]?.string?.hasSuffix("broken.wav") == true }, "\(skipped)")
        XCTAssertFalse(skipped.contains { $0["file"]?.string?.hasSuffix("bell.wav") == true })
    }

    func testATargetDrawsWhatItsFormatPlaysReadBackFromItsBytes() throws {
        let folder = AudioFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try TuneTestServer(sounds: [Corpus.root.appendingPathComponent("clean/body_hits.ogg")], folder: folder)
        defer { server.stop() }
        func render(_ target: String) throws -> JSONValue {
            let reply = try server.post("/api/render", #"{"name":"t","sounds":[0],"target":"\#(target)"}"#)
            XCTAssertEqual(reply.status, 200, reply.text)
            return try XCTUnwrap(reply.json()["tracks"]?.array(0))
        }
        let mapped = try render("track")
        XCTAssertEqual(mapped["findings"]?.items?.count, 0)
        let android = try render("android")
        XCTAssertNotEqual(android["track"]?.compactText(), mapped["track"]?.compactText(), "Android plays its waveform, not the mapped track")
        let ahap = try render("ahap")
        XCTAssertEqual(ahap["track"]?["transients"]?.items?.count, mapped["track"]?["transients"]?.items?.count,
                       "an AHAP keeps every transient")
        let rumble = try render("rumble")
        XCTAssertNotEqual(rumble["track"]?.compactText(), mapped["track"]?.compactText(), "a gamepad plays its two motors")
        // The server reads back the bytes an export writes: the same track as reading the exported file.
        let exported = try server.post("/api/export", #"{"name":"t","sound":0,"formats":["android"]}"#)
        XCTAssertEqual(exported.status, 200, exported.text)
        let file = URL(fileURLWithPath: try XCTUnwrap(exported.json()["files"]?.array(0)?.string))
        let read = try HapticFormats.read(file).track
        XCTAssertEqual(android["track"]?.compactText(), TuneSession.json(read).compactText())
        XCTAssertEqual(try server.post("/api/render", #"{"name":"t","sounds":[0],"target":"dualsense"}"#).status, 400)
        let sound = try server.post("/api/haptics-audio", #"{"name":"t","sound":0,"target":"rumble"}"#)
        XCTAssertEqual(sound.status, 200)
        XCTAssertNotEqual(sound.body, try server.post("/api/haptics-audio", #"{"name":"t","sound":0}"#).body)
    }
}
