import Foundation
@testable import Tactus
import TactusAHAP
import TactusCore
import TactusTestSupport
import XCTest

/// Every finding of `tactus validate --audio`, each with a pattern that triggers it and one
/// that does not, on real signals; and times far outside the audio answered, not trapped.
final class HarmonyCheckTests: XCTestCase {
    private var folder: URL!
    /// 1 s at 16 kHz: silence, a click at 0.3 s, silence, a 440 Hz tone from 0.6 to 0.9 s.
    private var reference: ReferenceEnvelope!

    override func setUpWithError() throws {
        folder = AudioFixture.temporaryDirectory(name)
        let rate = 16_000.0
        var samples = Signals.clicks(at: [0.3], seconds: 1, sampleRate: rate, seed: 5)
        let tone = Signals.sine(hz: 440, seconds: 0.3, sampleRate: rate, amplitude: 0.5)
        for (i, x) in tone.enumerated() { samples[Int(0.6 * rate) + i] += x }
        let audio = try AudioFixture.write(samples, to: folder.appendingPathComponent("sound.wav"), sampleRate: Int(rate))
        reference = try ReferenceEnvelope.measure(audio)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    private func transient(_ time: Double) -> AHAPElement {
        .event(AHAPEvent(time: time, type: .hapticTransient, parameters: [
            .init(id: AHAPParameterID.hapticIntensity, value: 1), .init(id: AHAPParameterID.hapticSharpness, value: 0.5),
        ]))
    }

    private func continuous(_ time: Double, _ duration: Double) -> AHAPElement {
        .event(AHAPEvent(time: time, type: .hapticContinuous, duration: duration, parameters: [
            .init(id: AHAPParameterID.hapticIntensity, value: 0.8), .init(id: AHAPParameterID.hapticSharpness, value: 0.5),
        ]))
    }

    private func kinds(_ pattern: [AHAPElement]) -> [AHAPDiagnostic.Kind] {
        HarmonyCheck.check(AHAPDocument(pattern: pattern), audio: reference).map(\.kind)
    }

    func testPatternThatFitsTheSoundHasNoFinding() {
        XCTAssertEqual(kinds([transient(0.3), continuous(0.6, 0.3)]), [])
    }

    func testTransientWithoutAttack() {
        XCTAssertEqual(kinds([transient(0.45)]), [.transientWithoutAttack], "silence at 0.45 s")
        XCTAssertEqual(kinds([transient(0.75)]), [.transientWithoutAttack], "the middle of a steady tone")
        XCTAssertEqual(kinds([transient(0.6)]), [], "the tone's start")
    }

    func testContinuousUnderSilence() {
        XCTAssertEqual(kinds([continuous(0.35, 0.2)]), [.continuousUnderSilence])
        XCTAssertEqual(kinds([continuous(0.62, 0.25)]), [])
        XCTAssertEqual(kinds([continuous(0.42, 0.03)]), [], "shorter than 50 ms is not reported")
    }

    func testPatternLongerThanAudio() {
        XCTAssertEqual(kinds([continuous(0.6, 0.3), continuous(0.9, 0.5)]), [.patternLongerThanAudio, .continuousUnderSilence],
                       "runs until 1.4 s and buzzes after the sound")
        XCTAssertEqual(kinds([continuous(0.6, 0.4)]), [.continuousUnderSilence], "inside the audio, after the tone")
        XCTAssertEqual(kinds([continuous(0.6, 0.3), transient(0.3)]), [], "ends before the audio")
    }

    /// The crash this check once had: a transient far past the end of the audio.
    func testTimesFarOutsideTheAudioAreFindingsNotTraps() {
        XCTAssertEqual(kinds([transient(100)]), [.patternLongerThanAudio, .transientWithoutAttack])
        XCTAssertEqual(kinds([transient(1e7)]), [.patternLongerThanAudio, .transientWithoutAttack])
        XCTAssertEqual(kinds([transient(1.05)]), [.patternLongerThanAudio, .transientWithoutAttack])
        XCTAssertFalse(HarmonyCheck.audibleAttack(near: -1, reference))
        XCTAssertFalse(HarmonyCheck.audibleAttack(near: .infinity, reference))
        XCTAssertFalse(HarmonyCheck.audibleAttack(near: .nan, reference))
    }

    /// The same through the command line, as a user meets it.
    func testValidateWithAudioReportsTransientsPastTheEnd() throws {
        let ahap = folder.appendingPathComponent("late.ahap")
        try AHAPEncoder().encode(AHAPDocument(pattern: [transient(0.3), transient(250)])).write(to: ahap)
        let outcome = try CLIRunner.run(["validate", ahap.path, "--audio", folder.appendingPathComponent("sound.wav").path])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertTrue(outcome.stdout.contains("haptics run until 250.000 s but the audio ends at 1.000 s"), outcome.stdout)
        XCTAssertTrue(outcome.stdout.contains("transient at 250.000 s has no audible attack"), outcome.stdout)
    }
}
