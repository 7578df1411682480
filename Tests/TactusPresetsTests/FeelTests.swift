import Foundation
import TactusAnalysis
import TactusCore
import TactusMapping
import TactusPresets
import TactusTestSupport
import XCTest

/// How a sound feels against how it sounds (issue 31), through the whole analysis and the
/// default preset: loudness across files, body sharpness, nothing before the sound.
final class FeelTests: XCTestCase {
    static let rate = 44_100.0

    /// The default preset (compiled in) with `overrides`, analysing and mapping `samples`.
    func track(_ samples: [Float], overrides: [String] = []) throws -> (AnalysisResult, HapticTrack) {
        let preset = try PresetLibrary.compiledIn.resolve("default", overrides: overrides)
        let session = AnalysisSession(sampleRate: Self.rate, configuration: preset.analysisConfiguration())
        session.push(samples)
        let analysis = session.finish()
        return (analysis, try preset.mapper().map(analysis))
    }

    /// A struck metal plate: a noise burst into a decaying 2.5 kHz ring, 0.4 s.
    func clang(amplitude: Float) -> [Float] {
        let ring = Signals.sine(hz: 2500, seconds: 0.4, sampleRate: Self.rate, amplitude: 1)
        let burst = Signals.clicks(at: [0], seconds: 0.4, sampleRate: Self.rate, amplitude: 0.6, decayMs: 5)
        return (0..<ring.count).map { i in
            amplitude * (ring[i] * Float(exp(-Double(i) / Self.rate / 0.12)) + burst[i])
        }
    }

    /// Low-passed noise under `hz` swelling in over 20 ms and dying away over 0.3 s: a rumble.
    func rumble(seconds: Double = 0.6, hz: Double = 120) -> [Float] {
        let noise = Signals.noise(seconds: seconds, sampleRate: Self.rate, amplitude: 1, seed: 3)
        var low = [Float](repeating: 0, count: noise.count)
        var a: Float = 0, b: Float = 0
        let k = Float(1 - exp(-2 * Double.pi * hz / Self.rate))
        for i in noise.indices {
            a += k * (noise[i] - a)
            b += k * (a - b)
            let t = Double(i) / Self.rate
            low[i] = 6 * b * Float(min(1, t / 0.02) * exp(-t / 0.3))
        }
        return low
    }

    /// A rumble whose low-pass cutoff glides `lowHz` → `highHz` → `lowHz` over its length, at a
    /// steady level: a dark body that brightens and darkens again.
    func glidingRumble(seconds: Double = 0.8, lowHz: Double = 50, highHz: Double = 150) -> [Float] {
        let noise = Signals.noise(seconds: seconds, sampleRate: Self.rate, amplitude: 1, seed: 5)
        var a: Float = 0, b: Float = 0
        return noise.indices.map { i in
            let t = Double(i) / Self.rate
            let hz = lowHz + (highHz - lowHz) * sin(Double.pi * t / seconds)
            let k = Float(1 - exp(-2 * Double.pi * hz / Self.rate))
            a += k * (noise[i] - a)
            b += k * (a - b)
            return 6 * b * Float(min(1, t / 0.02))
        }
    }

    func loudest(_ track: HapticTrack) -> Double {
        max(track.transients.map(\.intensity).max() ?? 0,
            track.regions.flatMap(\.intensity).map(\.value).max() ?? 0)
    }

    func testTheSameSoundTwelveDecibelsQuieterPlaysClearlyWeakerAndTheQuietestStillPlays() throws {
        let (loudAnalysis, loud) = try track(clang(amplitude: 0.8))
        let (quietAnalysis, quiet) = try track(clang(amplitude: 0.8 * pow(10, -12 / 20)))
        XCTAssertEqual(quietAnalysis.loudestMomentaryLufs, loudAnalysis.loudestMomentaryLufs - 12, accuracy: 0.1)
        XCTAssertGreaterThan(loudest(loud) - loudest(quiet), 0.15, "12 dB quieter must play clearly weaker")
        XCTAssertEqual(quiet.transients.count, loud.transients.count)
        // Per file, both play the same: what a preset that ignores loudness does.
        let (_, loudPerFile) = try track(clang(amplitude: 0.8), overrides: ["mapping.loudness.normalization=perFile"])
        let (_, quietPerFile) = try track(clang(amplitude: 0.8 * pow(10, -12 / 20)), overrides: ["mapping.loudness.normalization=perFile"])
        XCTAssertEqual(loudest(loudPerFile), loudest(quietPerFile), accuracy: 0.02)
        // 50 dB down the sound still plays, at the floor's share of its shape.
        let (_, faint) = try track(clang(amplitude: 0.8 * pow(10, -50 / 20)))
        XCTAssertGreaterThanOrEqual(loudest(faint), 0.3 * loudest(loudPerFile) - 0.01)
        XCTAssertLessThan(loudest(faint), loudest(quiet))
    }

    func testAClickAfterDigitalSilenceGetsNothingBeforeIt() throws {
        let lead = Int(0.0193 * Self.rate)
        let head = [Float](repeating: 0, count: lead) + clang(amplitude: 0.8) + [Float](repeating: 0, count: Int(0.3 * Self.rate))
        let (analysis, track) = try track(head + clang(amplitude: 0.5))
        let first = Double(lead) / Self.rate
        let second = Double(head.count) / Self.rate
        XCTAssertEqual(analysis.soundStarts.map(\.time), [first, second])
        XCTAssertFalse(track.regions.isEmpty)
        for region in track.regions {
            XCTAssertTrue(region.start >= first, "a region starts at \(region.start), before the sound at \(first)")
            XCTAssertFalse(region.start < second && region.end > second - 0.05 && region.start > first + 0.05,
                           "a region runs across the silence before the second sound")
        }
        XCTAssertTrue(track.regions.contains { abs($0.start - second) < 1e-9 }, "the second sound's body starts on its first sample")
        for transient in track.transients {
            XCTAssertTrue(transient.time >= first && !(transient.time > first + 0.45 && transient.time < second),
                          "a transient at \(transient.time) in a silence")
        }
    }

    func testARumblesBodyIsRounderThanAClicks() throws {
        let (_, low) = try track(rumble())
        let (_, bright) = try track(clang(amplitude: 0.8))
        func body(_ track: HapticTrack) -> Double {
            let values = track.regions.flatMap(\.sharpness).map(\.value)
            return values.reduce(0, +) / Double(max(1, values.count))
        }
        XCTAssertFalse(low.regions.isEmpty)
        XCTAssertFalse(bright.regions.isEmpty)
        XCTAssertLessThan(body(low), 0.35)
        XCTAssertGreaterThan(body(bright) - body(low), 0.3)
    }

    /// Rumbles far below the place's scale (60 and 120 Hz) both play round and off 0: the
    /// place's soft bound keeps them near `edge` (0.07), above the rails. Their places differ by
    /// less than 0.001 (reference brightness about −15.5 and −13.5 octaves, where even a bound
    /// nearing its end as 1/u² is all but flat), so their own moves decide which plays rounder
    /// (the 60 Hz one plays about 0.10 against 0.08); sines, which do not move, keep their
    /// order (`MappingTests.testRumblesBelowTheScaleKeepTheirOrder`). With `edge` 0 the place is
    /// unbounded and the rumble plays nearer 0.
    func testRumblesBelowTheScalePlayRoundButOffZero() throws {
        func body(_ samples: [Float], _ overrides: [String] = []) throws -> Double {
            let values = try track(samples, overrides: overrides).1.regions.flatMap(\.sharpness).map(\.value)
            XCTAssertFalse(values.isEmpty)
            return values.reduce(0, +) / Double(max(1, values.count))
        }
        for hz in [60.0, 120] {
            let round = try body(rumble(hz: hz))
            XCTAssertGreaterThan(round, 0.05, "\(hz) Hz")
            XCTAssertLessThan(round, 0.35, "\(hz) Hz")
            XCTAssertLessThan(try body(rumble(hz: hz), ["mapping.sharpness.edge=0"]), round, "an unbounded place plays it nearer 0")
        }
    }

    /// A dark body's brightness moves are kept however far below the scale it lies: the curve
    /// is simplified in octaves, not in the sharpness the soft end squeezes towards 0.
    func testADarkBodyThatBrightensKeepsItsShape() throws {
        let (_, track) = try track(glidingRumble())
        let region = try XCTUnwrap(track.regions.max { $0.end - $0.start < $1.end - $1.start })
        let sharpness = region.sharpness
        let span = region.end - region.start
        func at(_ fraction: Double) -> Double { Polyline(sharpness).value(at: region.start + fraction * span) }
        XCTAssertLessThan(sharpness.map(\.value).max() ?? 1, 0.35, "the rumble stays round")
        XCTAssertGreaterThan(sharpness.count, 3, "its brightening is drawn, not a straight line")
        XCTAssertGreaterThan(at(0.5), at(0.15), "it brightens towards the middle")
        XCTAssertGreaterThan(at(0.5), at(0.85), "and darkens again")
    }
}
