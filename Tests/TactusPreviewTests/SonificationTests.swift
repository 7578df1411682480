import Foundation
import TactusAHAP
import TactusTestSupport
@testable import TactusPreview
import XCTest
import TactusCore
import TactusFiles

final class SonificationTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = AudioFixture.temporaryDirectory(name)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The rendered file, end to end: one tick where the transient is, exact silence elsewhere.
    func testSingleTransientIsOneTickAtItsSampleAndSilenceElsewhere() throws {
        let ahap = try PreviewFixtures.writeAHAP([PreviewFixtures.transient(0.5, intensity: 0.8, sharpness: 0.6)],
                                                named: "tick", in: folder)
        let summary = try PreviewRenderer.render(file: ahap, format: AHAPFormat(), into: folder, log: CommittedFiles())
        let (samples, format) = try PreviewFixtures.readAudio(summary.hapticsAudio)
        XCTAssertEqual(format.sampleRate, PreviewRenderer.defaultSampleRate)
        XCTAssertEqual(format.channels, 1)
        XCTAssertNil(summary.sideBySideAudio, "no sound in the pattern, so nothing to put beside the haptics")

        let nonzero = samples.indices.filter { samples[$0] != 0 }
        let first = try XCTUnwrap(nonzero.first), last = try XCTUnwrap(nonzero.last)
        let rate = format.sampleRate
        XCTAssertEqual(Double(first) / rate, 0.5, accuracy: 0.001, "the tick starts on the transient")
        XCTAssertLessThan(Double(last - first) / rate, HapticSonifier.longestTick, "one short tick, nothing after it")
        XCTAssertTrue(samples[..<first].allSatisfy { $0 == 0 }, "silence before the tick")
        XCTAssertTrue(samples[(last + 1)...].allSatisfy { $0 == 0 }, "silence after the tick")
        let peak = Double(samples.map { abs($0) }.max() ?? 0)
        XCTAssertEqual(peak, HapticSonifier.tickAmplitude * 0.8, accuracy: 0.05, "level follows intensity")
    }

    /// Sharper ticks are higher-pitched and shorter; level scales with intensity.
    func testTickPitchAndLengthFollowSharpnessAndLevelFollowsIntensity() throws {
        let dull = try tick(intensity: 1, sharpness: 0), sharp = try tick(intensity: 1, sharpness: 1)
        let quiet = try tick(intensity: 0.25, sharpness: 0)
        XCTAssertGreaterThan(zeroCrossingsPerSecond(sharp), 3 * zeroCrossingsPerSecond(dull))
        XCTAssertLessThan(ringingLength(sharp), ringingLength(dull) / 2)
        XCTAssertEqual(peak(quiet) / peak(dull), 0.25, accuracy: 0.01)
    }

    /// The carrier's RMS, divided by its known gain, gives back the intensity the evaluator
    /// says Core Haptics plays, through an intensity-control ramp; outside the event, silence.
    func testContinuousIntensityIsRecoverableFromRMS() throws {
        let document = AHAPDocument(pattern: [
            PreviewFixtures.continuous(0.1, duration: 1.0, intensity: 0.9, sharpness: 0.3),
            .curve(AHAPParameterCurve(parameterID: AHAPParameterID.hapticIntensityControl, time: 0.1, controlPoints: [
                .init(time: 0, value: 0.2), .init(time: 0.4, value: 1), .init(time: 0.9, value: 0.4),
            ])),
        ])
        let evaluator = playbackOf(document)
        let rate = 48_000.0
        let samples = render(HapticSonifier(playback: evaluator, sampleRate: rate), frames: Int(1.3 * rate))
        let window = Int(0.05 * rate)
        var errors: [Double] = []
        for start in stride(from: Int(0.12 * rate), through: Int(1.04 * rate), by: window / 2) {
            let slice = samples[start..<(start + window)]
            let rms = (slice.reduce(0) { $0 + Double($1) * Double($1) } / Double(window)).squareRoot()
            let heard = rms * 2.0.squareRoot() / HapticSonifier.carrierAmplitude
            let felt = (0..<window).reduce(0) { $0 + evaluator.continuousIntensity(at: Double(start + $1) / rate) }
                / Double(window)
            errors.append(abs(heard - felt))
        }
        XCTAssertLessThan(errors.max() ?? 1, 0.03, "RMS envelope follows the evaluated intensity")
        XCTAssertTrue(samples[..<Int(0.098 * rate)].allSatisfy { $0 == 0 }, "no hum before the event")
        XCTAssertTrue(samples[Int(1.102 * rate)...].allSatisfy { $0 == 0 }, "no hum after the event")
    }

    /// The carrier rises in pitch with sharpness, within the Taptic Engine's 80–300 Hz.
    func testCarrierPitchFollowsSharpnessWithinTapticRange() {
        for (sharpness, hz) in [(0.0, 80.0), (1.0, 300.0)] {
            let evaluator = playbackOf(AHAPDocument(pattern: [
                PreviewFixtures.continuous(0, duration: 1, intensity: 1, sharpness: sharpness),
            ]))
            let samples = render(HapticSonifier(playback: evaluator, sampleRate: 48_000), frames: 48_000)
            // The strongest component between 40 and 400 Hz is the fundamental (overtones are
            // weaker): found on a 5 Hz grid, then refined to 0.5 Hz.
            let segment = Array(samples[4_800..<9_600])
            let coarse = stride(from: 40.0, through: 400, by: 5).max { power(segment, $0) < power(segment, $1) }!
            let strongest = stride(from: coarse - 5, through: coarse + 5, by: 0.5)
                .max { power(segment, $0) < power(segment, $1) }!
            XCTAssertEqual(strongest, hz, accuracy: hz * 0.02, "sharpness \(sharpness)")
        }
    }

    /// Same pattern, same bytes, whatever the block sizes the audio is rendered in.
    func testRenderingDoesNotDependOnBlockSize() {
        let evaluator = playbackOf(AHAPDocument(pattern: [
            PreviewFixtures.continuous(0.05, duration: 0.3, intensity: 0.7, sharpness: 0.8),
            PreviewFixtures.transient(0.1, intensity: 1, sharpness: 0.2),
            PreviewFixtures.transient(0.2003, intensity: 0.5, sharpness: 0.9),
        ]))
        let whole = render(HapticSonifier(playback: evaluator, sampleRate: 44_100), frames: 20_000)
        let sonifier = HapticSonifier(playback: evaluator, sampleRate: 44_100)
        var pieces: [Float] = []
        for size in [1, 7, 4096, 333, 15_563] { pieces += render(sonifier, frames: size) }
        XCTAssertEqual(pieces, whole)
    }

    // MARK: Helpers

    private func render(_ sonifier: HapticSonifier, frames: Int) -> [Float] {
        var out = [Float](repeating: 0, count: frames)
        out.withUnsafeMutableBufferPointer { sonifier.render(into: $0) }
        return out
    }

    private func tick(intensity: Double, sharpness: Double) throws -> [Float] {
        let evaluator = playbackOf(AHAPDocument(pattern: [
            PreviewFixtures.transient(0.01, intensity: intensity, sharpness: sharpness),
        ]))
        return render(HapticSonifier(playback: evaluator, sampleRate: 48_000), frames: 4_800)
    }

    private func peak(_ samples: [Float]) -> Double { Double(samples.map { abs($0) }.max() ?? 0) }

    private func ringingLength(_ samples: [Float]) -> Int {
        let audible = samples.indices.filter { abs(samples[$0]) > 1e-4 }
        return (audible.last ?? 0) - (audible.first ?? 0)
    }

    private func zeroCrossingsPerSecond(_ samples: [Float]) -> Double {
        let audible = samples.indices.filter { abs(samples[$0]) > 1e-4 }
        guard let first = audible.first, let last = audible.last, last > first else { return 0 }
        let crossings = (first..<last).filter { (samples[$0] < 0) != (samples[$0 + 1] < 0) }.count
        return Double(crossings) / (Double(last - first) / 48_000)
    }

    /// Power of `x` at `hz` (48 kHz), by correlation with a complex sinusoid.
    private func power(_ x: [Float], _ hz: Double) -> Double {
        var re = 0.0, im = 0.0
        for (n, sample) in x.enumerated() {
            let phase = 2 * Double.pi * hz * Double(n) / 48_000
            re += Double(sample) * cos(phase)
            im += Double(sample) * sin(phase)
        }
        return re * re + im * im
    }
}
