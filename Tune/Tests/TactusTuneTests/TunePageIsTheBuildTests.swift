import Foundation
import TactusCore
@testable import TactusTune
import TactusTestSupport
import XCTest

/// What the page exports is what the build gets: a preset saved through the server, given to
/// `tactus convert`, writes the same bytes as the page's export with the same settings.
final class TunePageIsTheBuildTests: XCTestCase {
    func testASavedPresetConvertsToTheBytesThePageExported() throws {
        let folder = AudioFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sounds = ["clean/bell.wav", "clean/body_hits.ogg"].map { Corpus.root.appendingPathComponent($0) }
        let server = try TuneTestServer(sounds: sounds, folder: folder)
        defer { server.stop() }
        // Heavier and rounder: louder, softer curve, duller; fewer, crisper clicks (one analysis setting).
        let settings = #""name":"heavier","set":{"mapping.intensity.gamma":0.7,"mapping.sharpness.lowHz":200,"#
            + #""mapping.transients.maxIntensity":1,"peaks.delta":0.2,"mapping.intensity.tolerance":0.05}"#
        let saved = try server.post("/api/save", "{\(settings),\"target\":\"preset\"}")
        XCTAssertEqual(saved.status, 200, saved.text)
        let preset = try XCTUnwrap(saved.json()["path"]?.string)
        XCTAssertEqual(preset, folder.appendingPathComponent("presets/heavier.json").path)
        let text = try String(contentsOfFile: preset, encoding: .utf8)
        XCTAssertTrue(text.contains("\"extends\": \"default\""), text)
        XCTAssertFalse(text.contains("windowMs"), "only the differences are saved:\n\(text)")
        XCTAssertEqual(try server.post("/api/save", "{\(settings),\"target\":\"preset\"}").status, 422, "never replaces a preset")

        for index in sounds.indices {
            let exported = try server.post("/api/export", "{\(settings),\"sound\":\(index),\"formats\":[\"ahap\",\"haptic\",\"android\"]}")
            XCTAssertEqual(exported.status, 200, exported.text)
            let files = try XCTUnwrap(exported.json()["files"]?.stringArray)
            XCTAssertEqual(files.count, 4, "three formats and the paired audio: \(files)")

            let built = folder.appendingPathComponent("built")
            let outcome = try CLIRunner.run(["convert", sounds[index].path, "-o", built.path, "--preset", preset,
                                             "--format", "ahap,haptic,android", "--quiet"])
            XCTAssertEqual(outcome.status, 0, outcome.description)
            for file in files {
                let name = URL(fileURLWithPath: file).lastPathComponent
                XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)),
                               try Data(contentsOf: built.appendingPathComponent(name)), name)
            }
        }
        // The same settings, tuned differently, give other bytes: the comparison can fail.
        let other = try server.post("/api/export", #"{"name":"heavier","sound":0,"formats":["ahap"],"set":{"mapping.intensity.gamma":1.5}}"#)
        XCTAssertEqual(other.status, 200, other.text)
        XCTAssertNotEqual(try Data(contentsOf: folder.appendingPathComponent("export/bell.ahap")),
                          try Data(contentsOf: folder.appendingPathComponent("built/bell.ahap")))
    }
}
