import Foundation
import TactusAHAP
import TactusTestSupport
@testable import TactusPreview
import XCTest
import TactusCore
import TactusFiles

final class PreviewRendererTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = AudioFixture.temporaryDirectory(name)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Left: the file's sound (the AudioCustom event at 0 s, what the track pairs); right:
    /// exactly the sonified haptics. Both at the sound's sample rate, sample-aligned.
    func testSideBySideHasTheSoundLeftAndTheHapticsRight() throws {
        let rate = 22_050.0
        let sound = Signals.clicks(at: [0.1, 0.4], seconds: 0.6, sampleRate: rate)
        try AudioFixture.write(sound, to: folder.appendingPathComponent("hit.wav"), sampleRate: Int(rate), channels: 2)
        let ahap = try PreviewFixtures.writeAHAP([
            PreviewFixtures.audio("hit.wav", at: 0),
            PreviewFixtures.transient(0.35, intensity: 1, sharpness: 0.5),
            PreviewFixtures.continuous(0.4, duration: 0.3, intensity: 0.6, sharpness: 0.2),
        ], named: "hit", in: folder)
        let out = folder.appendingPathComponent("out", isDirectory: true)
        let summary = try PreviewRenderer.render(file: ahap, format: AHAPFormat(), into: out, log: CommittedFiles())

        let (mix, mixFormat) = try PreviewFixtures.readAudio(try XCTUnwrap(summary.sideBySideAudio))
        let (haptics, hapticsFormat) = try PreviewFixtures.readAudio(summary.hapticsAudio)
        let (original, _) = try PreviewFixtures.readAudio(folder.appendingPathComponent("hit.wav"))
        XCTAssertEqual(mixFormat.sampleRate, rate)
        XCTAssertEqual(hapticsFormat.sampleRate, rate)
        XCTAssertEqual(mixFormat.channels, 2)
        let frames = mix.count / 2
        XCTAssertEqual(frames, haptics.count)
        XCTAssertEqual(Double(frames) / rate, 0.7 + HapticSonifier.longestTick, accuracy: 1 / rate, "as long as the haptics")
        XCTAssertEqual(summary.duration, Double(frames) / rate, accuracy: 1e-9)

        let offset = 0
        let left = (0..<frames).map { mix[2 * $0] }, right = (0..<frames).map { mix[2 * $0 + 1] }
        assertSamplesEqual(right, haptics, "right channel is the sonified haptics")
        let mono = stride(from: 0, to: original.count, by: 2).map { original[$0] }
        assertSamplesEqual(Array(left[offset..<mono.count]), mono, "the sound, sample for sample")
        XCTAssertTrue(left[mono.count...].allSatisfy { $0 == 0 }, "then silence while the haptics end")
        XCTAssertEqual(summary.originalAudio?.lastPathComponent, "hit.wav")
    }

    func testWhatIsNotAnAHAPFailsInOneLineAndLeavesNothingBehind() throws {
        let bogus = folder.appendingPathComponent("notes.ahap")
        try Data("{\"Pattern\": 3}".utf8).write(to: bogus)
        let out = folder.appendingPathComponent("out", isDirectory: true)
        XCTAssertThrowsError(try PreviewRenderer.render(file: bogus, format: AHAPFormat(), into: out, log: CommittedFiles())) { error in
            let message = "\(error)"
            XCTAssertTrue(message.hasPrefix(bogus.path + ": is not a valid ahap file"), message)
            XCTAssertFalse(message.contains("\n"))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path))
        XCTAssertThrowsError(try PreviewRenderer.render(file: folder.appendingPathComponent("missing.ahap"), format: AHAPFormat(), into: out, log: CommittedFiles())) {
            XCTAssertTrue("\($0)".hasSuffix("missing.ahap: no such file (check the path)"), "\($0)")
        }
    }

    /// An output that would land on an input (here the pattern's own sound) is refused
    /// before anything is written, and the input is untouched.
    func testNeverOverwritesThePatternsSound() throws {
        let sound = Signals.clicks(at: [0.1], seconds: 0.3, sampleRate: 16_000)
        let soundURL = try AudioFixture.write(sound, to: folder.appendingPathComponent("x.haptics.wav"), sampleRate: 16_000)
        let before = try Data(contentsOf: soundURL)
        let ahap = try PreviewFixtures.writeAHAP([PreviewFixtures.audio("x.haptics.wav")], named: "x", in: folder)
        XCTAssertThrowsError(try PreviewRenderer.render(file: ahap, format: AHAPFormat(), into: folder, log: CommittedFiles())) {
            XCTAssertTrue("\($0)".contains("would overwrite an input"), "\($0)")
        }
        XCTAssertEqual(try Data(contentsOf: soundURL), before)
        XCTAssertEqual(try PreviewFixtures.names(in: folder), ["x.ahap", "x.haptics.wav"], "nothing written, no temporaries")
    }

    /// A pattern whose sound is missing still previews its haptics, and says why the sound is absent.
    func testMissingSoundPreviewsTheHapticsAndSaysSo() throws {
        let ahap = try PreviewFixtures.writeAHAP([
            PreviewFixtures.audio("gone.wav"), PreviewFixtures.transient(0.2, intensity: 1, sharpness: 1),
        ], named: "lost", in: folder, preset: nil)
        let summary = try PreviewRenderer.render(file: ahap, format: AHAPFormat(), into: folder, log: CommittedFiles())
        XCTAssertNil(summary.originalAudio)
        XCTAssertNil(summary.sideBySideAudio)
        XCTAssertNil(summary.presetName)
        XCTAssertTrue(summary.warnings.contains { $0.contains("gone.wav") }, "\(summary.warnings)")
        let page = try ParsedMarkup(try String(contentsOf: summary.page, encoding: .utf8))
        XCTAssertEqual(page.all("audio").compactMap { $0.attributes["src"] }, ["lost.haptics.wav"])
        XCTAssertTrue(page.all("li").contains { $0.text.contains("gone.wav") }, "the page lists the finding")
        XCTAssertEqual(try PreviewFixtures.names(in: folder),
                       ["lost.ahap", "lost.haptics.wav", "lost.html", "lost.svg"])
    }

    /// A corrupt Time far in the future is refused instead of writing hours of audio.
    func testAbsurdlyLongPatternIsRefused() throws {
        let ahap = try PreviewFixtures.writeAHAP([PreviewFixtures.transient(1e7, intensity: 1, sharpness: 1)],
                                                named: "far", in: folder)
        XCTAssertThrowsError(try PreviewRenderer.render(file: ahap, format: AHAPFormat(), into: folder, log: CommittedFiles())) {
            XCTAssertTrue("\($0)".contains("haptics run past 3600 s"), "\($0)")
        }
        XCTAssertEqual(try PreviewFixtures.names(in: folder), ["far.ahap"])
    }
}
