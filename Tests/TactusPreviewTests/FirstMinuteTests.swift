import Foundation
import Tactus
import TactusCore
import TactusTestSupport
import XCTest

/// What a designer meets in the first minute with the tool, each as it was met: counts in the
/// singular, a missing or empty folder named for what it is, a preview whose stated length is
/// the sound's, and a haptic file that plays nothing translated into files that play nothing.
final class FirstMinuteTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = AudioFixture.temporaryDirectory(name)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// One click: "1 transient", never "1 transients"; "0 errors, 0 warnings".
    func testCountsOfOneAreSingular() throws {
        let sound = try AudioFixture.write(Signals.clicks(at: [0.2], seconds: 0.5, sampleRate: 44100),
                                           to: folder.appendingPathComponent("click.wav"), sampleRate: 44100)
        let convert = try CLIRunner.run(["convert", sound.path, "-o", folder.appendingPathComponent("out").path])
        XCTAssertEqual(convert.status, 0, convert.stderr)
        XCTAssertTrue(convert.stdout.contains("(1 transient, "), convert.stdout)
        XCTAssertFalse(convert.stdout.contains("1 transients") || convert.stdout.contains("1 continuous regions"), convert.stdout)
        let validate = try CLIRunner.run(["validate", folder.appendingPathComponent("out/click.ahap").path])
        XCTAssertTrue(validate.stdout.hasSuffix(": 0 errors, 0 warnings\n"), validate.stdout)
        let preview = try CLIRunner.run(["preview", sound.path, "-o", folder.appendingPathComponent("p").path])
        XCTAssertTrue(preview.stdout.contains("(1 transient, "), preview.stdout)
        let page = try String(contentsOf: folder.appendingPathComponent("p/click.html"), encoding: .utf8)
        XCTAssertTrue(page.contains("<span class=\"label\">transient</span>"), "the page's label too")
    }

    func testBatchOnAMissingOrSoundlessFolder() throws {
        let missing = try CLIRunner.run(["batch", folder.appendingPathComponent("nowhere").path, "-o", folder.appendingPathComponent("o").path])
        XCTAssertEqual(missing.status, 64)
        XCTAssertEqual(missing.stderr, "tactus: \(folder.appendingPathComponent("nowhere").path): does not exist (tactus batch takes a folder of sounds)\n")

        let empty = folder.appendingPathComponent("docs", isDirectory: true)
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: empty.appendingPathComponent("readme.txt"))
        let none = try CLIRunner.run(["batch", empty.path, "-o", folder.appendingPathComponent("o").path, "--quiet"])
        XCTAssertEqual(none.status, 1)
        XCTAssertEqual(none.stderrLines, ["tactus: \(empty.path): no audio files found (batch converts the files libsndfile reads)"])
    }

    /// The page states the sound's length, not the sound's plus the last tick's ring.
    func testThePreviewStatesTheSoundsLength() throws {
        let sound = try AudioFixture.write(Signals.clicks(at: [0.1, 0.47], seconds: 0.5, sampleRate: 44100),
                                           to: folder.appendingPathComponent("late.wav"), sampleRate: 44100)
        XCTAssertEqual(try CLIRunner.run(["preview", sound.path, "-o", folder.path, "--quiet"]).status, 0)
        let page = try String(contentsOf: folder.appendingPathComponent("late.html"), encoding: .utf8)
        XCTAssertTrue(page.contains("<span class=\"value\">0.5 s</span><span class=\"label\">length of the sound</span>"), page)
    }

    /// An AHAP with an empty pattern and a `.haptic` (version with only `major`, as Meta's own
    /// test files have) whose amplitude stays 0 play nothing: each translates into files of
    /// every format that are valid and play nothing, with one warning saying so.
    func testAFileThatPlaysNothingTranslatesToFilesThatPlayNothing() throws {
        let ahap = folder.appendingPathComponent("empty.ahap")
        try Data(#"{"Version": 1.0, "Pattern": []}"#.utf8).write(to: ahap)
        let haptic = folder.appendingPathComponent("silent.haptic")
        try Data(#"{"version": {"major": 1}, "signals": {"continuous": {"envelopes": {"amplitude": [{"time": 0, "amplitude": 0}, {"time": 1, "amplitude": 0}]}}}}"#.utf8)
            .write(to: haptic)
        for input in [ahap, haptic] {
            let out = folder.appendingPathComponent("from-" + input.pathExtension)
            let convert = try CLIRunner.run(["convert", input.path, "-o", out.path, "--format", "ahap,haptic,android"])
            XCTAssertEqual(convert.status, 0, convert.stderr)
            XCTAssertEqual(convert.stderrLines, ["\(input.path): warning: plays nothing; the outputs play nothing too"])
            let stem = input.deletingPathExtension().lastPathComponent
            for ext in ["ahap", "haptic", "android.json"] {
                let output = out.appendingPathComponent("\(stem).\(ext)")
                let validate = try CLIRunner.run(["validate", output.path, "--quiet"])
                XCTAssertEqual(validate.status, 0, "\(output.lastPathComponent): \(validate.stdout)")
                XCTAssertEqual(validate.stdout, "", output.lastPathComponent)
                XCTAssertTrue(try HapticFormats.read(output).track.playsNothing, output.lastPathComponent)
            }
        }
    }
}
