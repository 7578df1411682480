import Foundation
@testable import Tactus
import TactusAHAP
import TactusAnalysis
import TactusAudio
import TactusCore
import TactusFiles
import TactusTestSupport
import XCTest

/// Every finding of the harmony check (`convert --check-harmony`, `validate --audio`, previews),
/// each with haptics that trigger it and haptics that do not, on real signals and on Corpus
/// sounds; and times far outside the audio answered, not trapped.
final class HarmonyCheckTests: XCTestCase {
    private var folder: URL!
    private let rate = 16_000.0
    /// 1 s at 16 kHz: digital silence, a click at 0.3 s, silence, a 440 Hz tone from 0.6 to 0.9 s.
    private var sound: SoundActivity!

    override func setUpWithError() throws {
        folder = AudioFixture.temporaryDirectory(name)
        var samples = Signals.clicks(at: [0.3], seconds: 1, sampleRate: rate, seed: 5)
        let tone = Signals.sine(hz: 440, seconds: 0.3, sampleRate: rate, amplitude: 0.5)
        for (i, x) in tone.enumerated() { samples[Int(0.6 * rate) + i] += x }
        sound = try SoundActivity.measure(write(samples, "sound.wav"))
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    private func write(_ samples: [Float], _ name: String) throws -> URL {
        try AudioFixture.write(samples, to: folder.appendingPathComponent(name), sampleRate: Int(rate), format: .wavFloat)
    }

    private func transient(_ time: Double, intensity: Double = 1) -> HapticTrack.Transient {
        HapticTrack.Transient(time: time, intensity: intensity, sharpness: 0.5)
    }

    /// A region at a steady intensity, or rising from `from` at its start to `intensity` 20 ms later.
    private func region(_ start: Double, _ duration: Double, _ intensity: Double = 0.8, from: Double? = nil) -> HapticTrack.ContinuousRegion {
        let end = start + duration
        let curve = from.map { [HapticTrack.Point(time: start, value: $0), .init(time: start + 0.02, value: intensity),
                                .init(time: end, value: intensity)] }
            ?? [.init(time: start, value: intensity), .init(time: end, value: intensity)]
        return HapticTrack.ContinuousRegion(start: start, end: end, intensity: curve,
                                            sharpness: [.init(time: start, value: 0.5), .init(time: end, value: 0.5)])
    }

    private func kinds(_ transients: [HapticTrack.Transient] = [], _ regions: [HapticTrack.ContinuousRegion] = [],
                       against sound: SoundActivity? = nil) -> [HarmonyCheck.Kind] {
        let track = HapticTrack(duration: 1, transients: transients, regions: regions)
        return HarmonyCheck.check(track, sound: sound ?? self.sound).map { HarmonyCheck.Kind(rawValue: $0.kind)! }
    }

    func testSoundStartsAreTheFirstAudibleSampleOfEachSound() {
        XCTAssertEqual(sound.starts.count, 2, "\(sound.starts)")
        XCTAssertEqual(sound.starts[0], .init(silenceStart: 0, time: 0.3))
        XCTAssertEqual(sound.starts[1].time, 0.6 + 1 / rate, accuracy: 1e-9, "the sine's first sample is 0; its second is audible")
        XCTAssertGreaterThan(sound.starts[1].silenceStart, 0.3, "the silence begins as the click dies away")
        XCTAssertLessThan(sound.starts[1].silenceStart, 0.55, "well before the tone")
    }

    func testHapticsThatFitTheSoundHaveNoFinding() {
        XCTAssertEqual(kinds([transient(0.3)], [region(0.6, 0.3)]), [])
    }

    func testTransientWithoutAttack() {
        XCTAssertEqual(kinds([transient(0.45)]), [.transientWithoutAttack], "silence at 0.45 s")
        XCTAssertEqual(kinds([transient(0.75)]), [.transientWithoutAttack], "the middle of a steady tone")
        XCTAssertEqual(kinds([transient(0.6)]), [], "the tone's start")
        XCTAssertEqual(kinds([transient(0.45, intensity: 0)]), [], "a transient that plays nothing")
    }

    func testContinuousUnderSilence() {
        XCTAssertEqual(kinds([], [region(0.35, 0.2)]), [.continuousUnderSilence])
        XCTAssertEqual(kinds([], [region(0.62, 0.25)]), [])
        XCTAssertEqual(kinds([], [region(0.42, 0.03)]), [], "shorter than 50 ms, too far ahead of the tone to lead it")
    }

    func testPatternLongerThanAudio() {
        XCTAssertEqual(kinds([], [region(0.6, 0.3), region(0.9, 0.5)]), [.patternLongerThanAudio, .continuousUnderSilence],
                       "runs until 1.4 s and buzzes after the sound")
        XCTAssertEqual(kinds([], [region(0.6, 0.4)]), [.continuousUnderSilence], "inside the audio, after the tone")
        XCTAssertEqual(kinds([transient(0.3)], [region(0.6, 0.3)]), [], "ends before the audio")
    }

    /// A sound whose first sample is already loud starts with an attack: a transient at 0.000 s
    /// is heard, and nothing leads it.
    func testSoundThatBeginsAtItsFirstSampleHasAnAttackAtZero() throws {
        let burst = Signals.noise(seconds: 0.5, sampleRate: rate, amplitude: 0.7)
        let loud = try SoundActivity.measure(write(burst, "burst.wav"))
        XCTAssertEqual(loud.starts, [.init(silenceStart: 0, time: 0)])
        XCTAssertEqual(kinds([transient(0)], [region(0, 0.5)], against: loud), [])
        XCTAssertEqual(kinds([transient(0.02)], against: loud), [], "within 30 ms of the start")
        XCTAssertEqual(kinds([transient(0.25)], against: loud), [.transientWithoutAttack], "the middle of the burst")
    }

    /// Issue 31's click: digital silence for 19 ms, then a click. A region from 10 ms leads it
    /// by 9 ms; a region within 1 ms of the click does not.
    func testNineteenMillisecondsOfSilenceThenAClick() throws {
        let click = Signals.clicks(at: [0.019], seconds: 0.3, sampleRate: rate, seed: 3)
        XCTAssertEqual(click.prefix(Int(0.019 * rate)).filter { $0 != 0 }.count, 0, "digital silence first")
        let late = try SoundActivity.measure(write(click, "click.wav"))
        XCTAssertEqual(late.starts.first?.time, 0.019)
        let early = HapticTrack(duration: 0.3, regions: [region(0.010, 0.05, 0.51)])
        let findings = HarmonyCheck.check(early, sound: late)
        XCTAssertEqual(findings.map(\.kind), [HarmonyCheck.Kind.hapticsBeforeSound.rawValue])
        XCTAssertEqual(findings.first?.message, "haptics start at 0.010 s, 9.0 ms before the sound's first audible sample at 0.019 s")
        XCTAssertEqual(kinds([], [region(0.0182, 0.05)], against: late), [], "0.8 ms early is within the tolerance")
        XCTAssertEqual(kinds([], [region(0.0178, 0.05)], against: late), [.hapticsBeforeSound], "1.2 ms early is not")
        XCTAssertEqual(kinds([], [region(0.010, 0.05, from: 0)], against: late), [.hapticsBeforeSound],
                       "a curve rising from 0 plays as soon as it leaves 0")
        XCTAssertEqual(kinds([transient(0.019)], [region(0.019, 0.05)], against: late), [])
    }

    /// A transient before the sound it belongs to (issue 31's 14.5 ms), at the file's start and
    /// after a silence inside it; and a region that carries on from the previous sound is no lead.
    func testTransientBeforeTheSound() {
        XCTAssertEqual(kinds([transient(0.3 - 0.0145)]), [.hapticsBeforeSound])
        let leads = HarmonyCheck.leads(of: HapticTrack(duration: 1, transients: [transient(0.2855), transient(0.59)]), sound: sound)
        XCTAssertEqual(leads.count, 2)
        XCTAssertEqual(leads[0].start - leads[0].onset, 0.0145, accuracy: 1e-9)
        XCTAssertEqual(leads[1].onset, 0.59, "after the silence between the click and the tone")
        XCTAssertEqual(kinds([transient(0.54)]), [.transientWithoutAttack], "60 ms ahead of the tone: under silence, not leading it")
        XCTAssertEqual(kinds([transient(0.1, intensity: 0)]), [], "a transient that plays nothing leads nothing")
    }

    /// Haptics that carry on from one sound into the silence before the next, in a second
    /// region joined to the first, are its tail: only a region that starts playing leads.
    func testATailIntoTheSilenceIsNoLead() throws {
        let clicks = try SoundActivity.measure(write(Signals.clicks(at: [0.3, 0.41], seconds: 0.6, sampleRate: rate, seed: 5),
                                                     "clicks.wav"))
        XCTAssertEqual(clicks.starts.map(\.time), [0.3, 0.41])
        XCTAssertLessThan(clicks.starts[1].silenceStart, 0.36)
        XCTAssertEqual(kinds([transient(0.3), transient(0.41)], [region(0.3, 0.06), region(0.36, 0.03)], against: clicks), [])
        XCTAssertEqual(kinds([transient(0.3), transient(0.41)], [region(0.3, 0.055), region(0.36, 0.03)], against: clicks),
                       [.hapticsBeforeSound], "a region that starts in the silence 50 ms before the second click")
    }

    /// Real Corpus sounds cut to start at their first sample: the transient Tactus puts at
    /// 0.000 s is heard (the old check called it "no audible attack").
    func testCorpusSoundsThatBeginAtTheirFirstSample() throws {
        let converter = Converter(preset: try shippedPreset(), log: CommittedFiles())
        for name in ["clean/gunshot.wav", "clean/punch.wav", "clean/wood_knocks.flac", "multi/door_open_close.wav"] {
            let samples = try decode(Corpus.root.appendingPathComponent(name))
            let first = try XCTUnwrap(samples.firstIndex { $0 != 0 })
            let cut = try write(Array(samples[first...]), name.replacingOccurrences(of: "/", with: "-") + ".wav")
            let track = try converter.convert(cut, to: folder.appendingPathComponent("out")).track
            XCTAssertLessThan(track.transients.first?.time ?? 1, 0.01, "\(name): a transient in its first block")
            let findings = try HarmonyCheck.check(track, soundAt: cut)
            XCTAssertFalse(findings.contains { $0.kind == HarmonyCheck.Kind.transientWithoutAttack.rawValue
                                                  && $0.message.contains(" 0.00") }, "\(name): \(findings)")
            XCTAssertFalse(findings.contains { $0.kind == HarmonyCheck.Kind.hapticsBeforeSound.rawValue
                                                  && $0.message.hasSuffix("at 0.000 s") }, "\(name): \(findings)")
        }
    }

    /// The lead the check reports on a Corpus sound as Tactus converts it today is the distance
    /// from the track's first onset to the first audible sample (within 50 dB of the file's peak,
    /// on `SoundStarts`' ladder of levels 2^(−j/4) of full scale: the lowest not below it), both
    /// found here independently.
    func testLeadOnACorpusSoundIsMeasuredToTheSample() throws {
        let url = Corpus.root.appendingPathComponent("clean/explosion.wav")
        let samples = try decode(url)
        let sampleRate = try AudioFileReader(url: url).format.sampleRate
        let audible = Double(samples.map(abs).max()!) * pow(10, -SoundStarts.audibleBelowPeakDb / 20)
        let threshold = Float(exp2(-floor(-4 * log2(audible)) / 4))
        let firstAudible = Double(try XCTUnwrap(samples.firstIndex { abs($0) >= threshold })) / sampleRate

        let track = try Converter(preset: try shippedPreset(), log: CommittedFiles()).convert(url, to: folder).track
        let firstOnset = min(track.regions.first?.start ?? 1e9, track.transients.first?.time ?? 1e9)
        let leads = HarmonyCheck.leads(of: track, sound: try SoundActivity.measure(url))
        if firstAudible - firstOnset > HarmonyCheck.leadTolerance {
            XCTAssertEqual(leads.first?.start ?? -1, firstAudible, accuracy: 1e-9)
            XCTAssertEqual(leads.first?.onset ?? -1, firstOnset, accuracy: 1e-9)
        } else {
            XCTAssertNotEqual(leads.first?.start, firstAudible)
        }
    }

    /// The crash this check once had: a transient far past the end of the audio.
    func testTimesFarOutsideTheAudioAreFindingsNotTraps() {
        XCTAssertEqual(kinds([transient(100)]), [.patternLongerThanAudio, .transientWithoutAttack])
        XCTAssertEqual(kinds([transient(1e7)]), [.patternLongerThanAudio, .transientWithoutAttack])
        XCTAssertEqual(kinds([transient(1.05)]), [.patternLongerThanAudio, .transientWithoutAttack])
        XCTAssertFalse(HarmonyCheck.audibleAttack(near: -1, sound))
        XCTAssertFalse(HarmonyCheck.audibleAttack(near: .infinity, sound))
        XCTAssertFalse(HarmonyCheck.audibleAttack(near: .nan, sound))
    }

    /// The same through the command line, as a user meets it: late transients and a lead.
    func testValidateWithAudioReportsTransientsPastTheEndAndALead() throws {
        let ahap = folder.appendingPathComponent("late.ahap")
        let pattern: [AHAPElement] = [0.29, 0.3, 250].map { time in
            .event(AHAPEvent(time: time, type: .hapticTransient, parameters: [
                .init(id: AHAPParameterID.hapticIntensity, value: 1), .init(id: AHAPParameterID.hapticSharpness, value: 0.5),
            ]))
        }
        try AHAPEncoder().encode(AHAPDocument(pattern: pattern)).write(to: ahap)
        let outcome = try CLIRunner.run(["validate", ahap.path, "--audio", folder.appendingPathComponent("sound.wav").path])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertTrue(outcome.stdout.contains("haptics run until 250.000 s but the audio ends at 1.000 s"), outcome.stdout)
        XCTAssertTrue(outcome.stdout.contains("haptics start at 0.290 s, 10.0 ms before the sound's first audible sample at 0.300 s"),
                      outcome.stdout)
        XCTAssertTrue(outcome.stdout.contains("transient at 250.000 s has no audible attack"), outcome.stdout)
    }

    /// The four places a designer meets the check say the same about one Corpus sound:
    /// `convert --check-harmony`, `validate --audio`, the preview page and the batch gallery.
    func testEveryToolReportsTheSameFindings() throws {
        let sound = Corpus.root.appendingPathComponent("clean/coin_pickup.wav")
        let out = folder.appendingPathComponent("out")
        let convert = try CLIRunner.run(["convert", sound.path, "-o", out.path, "--check-harmony", "--quiet"])
        XCTAssertEqual(convert.status, 0, convert.stderr)
        let prefix = sound.path + ": warning: "
        let messages = convert.stderrLines.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
        // The coin's second tone starts under the first one's ring: its transient has no level rise.
        XCTAssertFalse(messages.contains { $0.hasPrefix("haptics start at") }, "nothing plays before the sound: \(convert.stderr)")
        XCTAssertTrue(messages.contains { $0.hasPrefix("transient at") }, "a transient without attack: \(convert.stderr)")

        let validate = try CLIRunner.run(["validate", out.appendingPathComponent("coin_pickup.ahap").path, "--audio", sound.path, "--quiet"])
        XCTAssertEqual(validate.stdout.split(separator: "\n").map { $0.components(separatedBy: ": warning: ").last! }, messages)

        func escaped(_ text: String) -> String { text.replacingOccurrences(of: "'", with: "&#39;") }
        let preview = try CLIRunner.run(["preview", out.appendingPathComponent("coin_pickup.ahap").path, "-o", folder.appendingPathComponent("p").path])
        XCTAssertEqual(preview.status, 0, preview.stderr)
        XCTAssertTrue(preview.stdout.contains(messages.count == 1 ? "1 finding:" : "\(messages.count) findings"), preview.stdout)
        let page = try String(contentsOf: folder.appendingPathComponent("p/coin_pickup.html"), encoding: .utf8)
        let input = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: sound, to: input.appendingPathComponent("coin_pickup.wav"))
        XCTAssertEqual(try CLIRunner.run(["batch", input.path, "-o", folder.appendingPathComponent("b").path, "--preview", "--quiet"]).status, 0)
        let gallery = try String(contentsOf: folder.appendingPathComponent("b/.tactus-preview/index.html"), encoding: .utf8)
        for message in messages {
            XCTAssertTrue(page.contains(escaped(message)), "page: \(message)")
            XCTAssertTrue(gallery.contains(escaped(message)), "gallery: \(message)")
        }
    }

    private func decode(_ url: URL) throws -> [Float] {
        let blocks = MonoBlockReader<Float>(try AudioFileReader(url: url), blockFrames: 4096)
        var samples: [Float] = []
        while try blocks.next({ _, mono in samples += mono }) {}
        return samples
    }
}
