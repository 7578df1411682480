import Foundation
import TactusCore
@testable import TactusTune
import TactusTestSupport
import XCTest

/// What the page exports is what the build gets. A preset saved from the page into `./Presets`
/// (the default `--presets-dir`) is found by name from that folder: `tactus convert --preset
/// NAME` and `tactus batch --preset NAME` write the bytes the page exported. Every exported
/// file's recorded preset resolves, so `--preset-from` on it writes the same bytes again, also
/// for an export made before the preset was saved (it records the base and the overrides).
final class TunePageIsTheBuildTests: XCTestCase {
    // Heavier and rounder: louder, softer curve, duller; fewer, crisper clicks (one analysis setting).
    private let settings = #""name":"heavier","set":{"mapping.intensity.gamma":0.7,"mapping.sharpness.lowHz":200,"#
        + #""mapping.transients.maxIntensity":1,"peaks.delta":0.2,"mapping.intensity.tolerance":0.05}"#

    private func exported(_ server: TuneTestServer, sound: Int) throws -> [URL] {
        let reply = try server.post("/api/export", "{\(settings),\"sound\":\(sound),\"formats\":[\"ahap\",\"haptic\",\"android\"]}")
        XCTAssertEqual(reply.status, 200, reply.text)
        let files = try XCTUnwrap(reply.json()["files"]?.stringArray).map { URL(fileURLWithPath: $0) }
        XCTAssertEqual(files.count, 4, "three formats and the paired audio: \(files)")
        return files
    }

    /// `tactus convert` with `arguments` from `folder` writes the bytes of every file in `files`.
    private func assertConvertWrites(_ files: [URL], _ arguments: [String], from folder: URL, into name: String,
                                     line: UInt = #line) throws {
        let built = folder.appendingPathComponent(name)
        let outcome = try CLIRunner.run(["convert"] + arguments + ["-o", built.path, "--format", "ahap,haptic,android", "--quiet"],
                                        in: folder)
        XCTAssertEqual(outcome.status, 0, outcome.description, line: line)
        for file in files {
            XCTAssertEqual(try Data(contentsOf: file), try Data(contentsOf: built.appendingPathComponent(file.lastPathComponent)),
                           "\(name): \(file.lastPathComponent)", line: line)
        }
    }

    func testASavedPresetWorksByNameAndEveryExportReproduces() throws {
        let folder = AudioFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sounds = ["clean/bell.wav", "clean/body_hits.ogg"].map { Corpus.root.appendingPathComponent($0) }
        let server = try TuneTestServer(sounds: sounds, folder: folder, presets: "Presets")
        defer { server.stop() }

        // Before saving: the export records the base and the overrides, which resolve.
        let early = try exported(server, sound: 0)
        let ahap = try String(contentsOf: early[0], encoding: .utf8)
        XCTAssertTrue(ahap.contains(#""Preset": "default""#) && ahap.contains("mapping.intensity.gamma=0.7"), ahap)
        try assertConvertWrites(early, [sounds[0].path, "--preset-from", early[0].path], from: folder, into: "early")

        let saved = try server.post("/api/save", "{\(settings),\"target\":\"preset\"}")
        XCTAssertEqual(saved.status, 200, saved.text)
        let preset = try XCTUnwrap(saved.json()["path"]?.string)
        XCTAssertEqual(preset, folder.appendingPathComponent("Presets/heavier.json").path)
        let text = try String(contentsOfFile: preset, encoding: .utf8)
        XCTAssertTrue(text.contains("\"extends\": \"default\""), text)
        XCTAssertFalse(text.contains("windowMs"), "only the differences are saved:\n\(text)")
        XCTAssertEqual(try server.post("/api/save", "{\(settings),\"target\":\"preset\"}").status, 422, "never replaces a preset")

        // After saving, from the folder the page ran in, the name is enough. The server (in this
        // process, whose working directory is the package's) finds the name through
        // TACTUS_PRESETS; the CLI runs without it (CLIRunner), from the folder, through ./Presets.
        setenv("TACTUS_PRESETS", folder.appendingPathComponent("Presets").path, 1)
        defer { unsetenv("TACTUS_PRESETS") }
        for index in sounds.indices {
            let files = try exported(server, sound: index)
            XCTAssertTrue(try String(contentsOf: files[0], encoding: .utf8).contains(#""Preset": "heavier""#))
            try assertConvertWrites(files, [sounds[index].path, "--preset", "heavier"], from: folder, into: "by-name-\(index)")
            try assertConvertWrites(files, [sounds[index].path, "--preset-from", files[2].path], from: folder, into: "from-\(index)")
        }
        // The same settings, tuned differently, give other bytes: the comparison can fail.
        let other = try server.post("/api/export", #"{"name":"heavier","sound":0,"formats":["ahap"],"set":{"mapping.intensity.gamma":1.5}}"#)
        XCTAssertEqual(other.status, 200, other.text)
        XCTAssertNotEqual(try Data(contentsOf: folder.appendingPathComponent("export/bell.ahap")),
                          try Data(contentsOf: folder.appendingPathComponent("by-name-0/bell.ahap")))
    }

    /// The designer's story to the end: `tactus batch --preset NAME` from the page's folder
    /// gives exactly what the page exported.
    func testBatchByNameGivesThePagesExport() throws {
        let folder = AudioFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (_, bell) = try TuneTestServer.soundsFolder(in: folder)
        let server = try TuneTestServer(sounds: [bell], folder: folder, presets: "Presets")
        defer { server.stop() }
        XCTAssertEqual(try server.post("/api/save", "{\(settings),\"target\":\"preset\"}").status, 200)
        setenv("TACTUS_PRESETS", folder.appendingPathComponent("Presets").path, 1)  // as in the test above
        defer { unsetenv("TACTUS_PRESETS") }
        let files = try exported(server, sound: 0)

        let outcome = try CLIRunner.run(["batch", "Sounds", "-o", "Out", "--preset", "heavier", "--format", "ahap,haptic,android", "--quiet"],
                                        in: folder)
        XCTAssertEqual(outcome.status, 0, outcome.description)
        for file in files {
            XCTAssertEqual(try Data(contentsOf: file), try Data(contentsOf: folder.appendingPathComponent("Out/" + file.lastPathComponent)),
                           file.lastPathComponent)
        }
    }
}
