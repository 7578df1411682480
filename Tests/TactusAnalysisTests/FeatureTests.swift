import Foundation
import XCTest
@testable import TactusAnalysis
import TactusTestSupport
import TactusCore

/// Runs a whole signal through a default analysis session, in uneven blocks as a decoder would.
func analyse(_ signal: [Float], sampleRate: Double, configuration: AnalysisConfiguration? = nil) throws -> AnalysisResult {
    let session = AnalysisSession(sampleRate: sampleRate, configuration: try configuration ?? .defaults())
    var start = 0
    var block = 1000
    while start < signal.count {
        let end = min(signal.count, start + block)
        signal[start..<end].withUnsafeBufferPointer { session.push($0) }
        start = end
        block = block == 1000 ? 4096 : 1000
    }
    return session.finish()
}

final class FeatureTests: XCTestCase {
    func testRMSOfASineIsThreeDecibelsBelowItsPeak() throws {
        let result = try analyse(Signals.sine(hz: 1000, seconds: 1, sampleRate: 44100, amplitude: 0.5), sampleRate: 44100)
        let levels = try result.feature("rms.db")
        let middle = levels[20..<(levels.count - 20)]
        for level in middle { XCTAssertEqual(Double(level), 20 * log10(0.5 / 2.0.squareRoot()), accuracy: 0.1) }
    }

    func testCentroidOfASineIsItsFrequencyAtAnyRate() throws {
        for sr in [22050.0, 44100, 48000, 96000] {
            for hz in [250.0, 1000, 4000] {
                let result = try analyse(Signals.sine(hz: hz, seconds: 0.5, sampleRate: sr), sampleRate: sr)
                let centroids = try result.feature("centroid.hz")
                let middle = Array(centroids[10..<(centroids.count - 10)])
                let mean = middle.reduce(0, +) / Float(middle.count)
                XCTAssertEqual(Double(mean), hz, accuracy: hz * 0.05, "\(hz) Hz at \(sr)")
            }
        }
    }

    func testFrameCountAndTimesFollowTheHop() throws {
        let sr = 48000.0
        let result = try analyse([Float](repeating: 0, count: 48000), sampleRate: sr)
        XCTAssertEqual(result.hopSeconds, 0.01, accuracy: 1e-9)
        XCTAssertEqual(try result.feature("rms.db").count, STFT.frameCount(sampleCount: 48000, hop: 480))
        XCTAssertEqual(try result.feature("rms.db").count, 100)
        XCTAssertEqual(result.duration, 1, accuracy: 1e-9)
    }

    func testClicksAreFoundOnTheirFirstSample() throws {
        let onsets = [0.1003, 0.4217, 0.75, 1.2051]
        for sr in [22050.0, 44100, 96000] {
            let signal = Signals.clicks(at: onsets, seconds: 1.5, sampleRate: sr)
            let found = try analyse(signal, sampleRate: sr).onsets.map(\.time)
            XCTAssertEqual(found.count, onsets.count, "\(sr) Hz: \(found)")
            for (f, o) in zip(found, onsets) { XCTAssertEqual(f, o, accuracy: 1.0 / sr + 1e-9, "\(sr) Hz") }
        }
    }

    func testSilenceAndSteadyNoiseHaveNoOnsets() throws {
        XCTAssertEqual(try analyse([Float](repeating: 0, count: 44100), sampleRate: 44100).onsets.count, 0)
        let noise = Signals.noise(seconds: 3, sampleRate: 44100, amplitude: 0.3)
        // The noise's own start is an onset; nothing after it is.
        let found = try analyse(noise, sampleRate: 44100).onsets
        XCTAssertLessThanOrEqual(found.count, 1, "\(found.map(\.time))")
        XCTAssertTrue(found.allSatisfy { $0.time < 0.05 })
    }

    /// A low thud in a noise bed lifts only the lowest bands, so the mean flux over all bands
    /// barely moves; the level jumps, and the jump makes it an onset (and only the thud's).
    func testALowThudInNoiseIsFoundByItsLevelJump() throws {
        let sr = 44100.0, thudAt = 1.0
        let noise = Signals.noise(seconds: 2, sampleRate: sr, amplitude: 0.03)
        let noisePower = 0.03 * 0.03 / 3
        // An 80 Hz thud whose mean power over its first 100 ms is 12 dB above the noise's.
        let start = Int(thudAt * sr)
        var thud = [Float](repeating: 0, count: noise.count)
        let amplitude = (2 * noisePower * pow(10, 1.2) / 0.6).squareRoot()
        for i in 0..<Int(0.3 * sr) {
            let t = Double(i) / sr
            thud[start + i] = Float(amplitude * min(1, t / 0.003) * exp(-t / 0.08) * sin(2 * .pi * 80 * t))
        }
        let signal = Signals.mix(noise, thud)
        let found = try analyse(signal, sampleRate: sr).onsets.map(\.time).filter { $0 > 0.05 }
        XCTAssertEqual(found.count, 1, "\(found)")
        XCTAssertEqual(found.first ?? 0, thudAt, accuracy: 0.025)

        var withoutJump = try AnalysisConfiguration.defaults()
        withoutJump.peaks = try ParameterSet(PeakPicker.parameters, ["delta": .number(4), "jumpDb": .number(0), "bedJumpDb": .number(0),
                                                                           "bedRiseSpreads": .number(0)])
        let missed = try analyse(signal, sampleRate: sr, configuration: withoutJump).onsets.filter { $0.time > 0.05 }
        XCTAssertEqual(missed.count, 0, "the flux alone should not find it: \(missed.map(\.time))")
    }

    /// A sound that comes in at its own level out of silence and then swells is an attack at
    /// its start; the same swell faded in from silence is not. The swell gate alone (stepDb 0)
    /// refuses both, since the first 50 ms of each stay more than 12 dB under what follows.
    func testASoundThatStartsAsAStepIsAnAttackThoughItSwellsLater() throws {
        let sr = 44100.0, startAt = 0.3
        let noise = Signals.noise(seconds: 1.5, sampleRate: sr, amplitude: 1)
        let start = Int(startAt * sr), step = Int(0.1 * sr), swell = Int(0.3 * sr)
        // Steady at 0.02 for 100 ms, then rising linearly to 0.3 over 300 ms (23.5 dB louder).
        func stepThenSwell(_ i: Int) -> Float {
            i < start ? 0 : i < start + step ? 0.02 : Float(0.02 + 0.28 * min(1, Double(i - start - step) / Double(swell)))
        }
        // Faded in from silence to 0.3 over 400 ms.
        func fadeIn(_ i: Int) -> Float { i < start ? 0 : Float(0.3 * min(1, Double(i - start) / Double(step + swell))) }
        let stepped = noise.enumerated().map { i, x in x * stepThenSwell(i) }
        let faded = noise.enumerated().map { i, x in x * fadeIn(i) }

        let found = try analyse(stepped, sampleRate: sr).onsets.map(\.time)
        XCTAssertEqual(found.count, 1, "\(found)")
        XCTAssertEqual(found.first ?? 0, startAt, accuracy: 0.002)
        XCTAssertEqual(try analyse(faded, sampleRate: sr).onsets.map(\.time), [])

        var withoutSteps = try AnalysisConfiguration.defaults()
        withoutSteps.peaks = try ParameterSet(PeakPicker.parameters, ["stepDb": .number(0)])
        XCTAssertEqual(try analyse(stepped, sampleRate: sr, configuration: withoutSteps).onsets.map(\.time), [])
    }

    /// The gates (here the relative one: 40 dB under the file's loudest frame) act before the
    /// minimum interval, so a faint tick they refuse does not hold back the hit 40 ms after it.
    func testARefusedOnsetDoesNotHoldBackTheHitAfterIt() throws {
        let sr = 44100.0
        let faint = Signals.clicks(at: [0.3], seconds: 1, sampleRate: sr, amplitude: 0.0025)
        let hit = Signals.clicks(at: [0.34], seconds: 1, sampleRate: sr, amplitude: 0.8, seed: 2)
        let signal = Signals.mix(faint, hit)
        let found = try analyse(signal, sampleRate: sr).onsets.map(\.time)
        XCTAssertEqual(found.count, 1, "\(found)")
        XCTAssertEqual(found.first ?? 0, 0.34, accuracy: 1 / sr + 1e-9)
        // The tick alone is an onset: it is refused only beside the hit.
        XCTAssertEqual(try analyse(faint, sampleRate: sr).onsets.count, 1)
    }

    /// Clicks whose peak is 3 × the bed's over white noise: in 20 ms frames neither their level
    /// jump nor their novelty passes; in 2.5 ms blocks they stand well out of the bed, and over a
    /// steady bed that makes them onsets (the frame jump alone finds them from a peak of 4 ×).
    func testClicksInANoiseBedAreFoundByTheirShortBlocks() throws {
        let sr = 44100.0, onsets = [0.8, 1.4]
        let signal = Signals.mix(Signals.noise(seconds: 2, sampleRate: sr, amplitude: 0.03),
                                 Signals.clicks(at: onsets, seconds: 2, sampleRate: sr, amplitude: 0.09))
        func found(with settings: [String: ParameterValue]) throws -> [Double] {
            var configuration = try AnalysisConfiguration.defaults()
            configuration.peaks = try ParameterSet(PeakPicker.parameters,
                                                   SuperFlux.peakPickingDefaults.byName.merging(settings) { $1 })
            return try analyse(signal, sampleRate: sr, configuration: configuration).onsets.map(\.time).filter { $0 > 0.1 }
        }
        // The bed's spread finds them too; the short blocks alone are tested here.
        let blocksOnly = try found(with: ["bedRiseSpreads": .number(0)])
        XCTAssertEqual(blocksOnly.count, onsets.count, "\(blocksOnly)")
        for (f, o) in zip(blocksOnly, onsets) { XCTAssertEqual(f, o, accuracy: 0.005) }
        let missed = try found(with: ["bedRiseSpreads": .number(0), "bedJumpDb": .number(0)])
        XCTAssertEqual(missed, [], "frame levels alone should not find them")
    }

    /// Noise bursts that swell in over 10 ms to 4.4 dB above a steady noise bed: neither the
    /// novelty, the frame jump nor the short blocks pass them, but the bed's own frame levels
    /// waver by a fraction of a dB, so they stand many times its spread out of it.
    func testBurstsAFewDecibelsOutOfASteadyBedAreFound() throws {
        let sr = 44100.0, onsets = [0.8, 1.4]
        var signal = Signals.noise(seconds: 2, sampleRate: sr, amplitude: 0.03)
        let burst = Signals.noise(seconds: 0.5, sampleRate: sr, amplitude: 0.04, seed: 3)
        for onset in onsets {
            let start = Int(onset * sr)
            for i in burst.indices where start + i < signal.count {
                let t = Double(i) / sr
                signal[start + i] += burst[i] * Float(min(t / 0.01, 1) * exp(-max(t - 0.01, 0) / 0.1))
            }
        }
        let found = try analyse(signal, sampleRate: sr).onsets.map(\.time).filter { $0 > 0.1 }
        XCTAssertEqual(found.count, onsets.count, "\(found)")
        for (f, o) in zip(found, onsets) { XCTAssertEqual(f, o, accuracy: 0.01) }

        var withoutBedRise = try AnalysisConfiguration.defaults()
        withoutBedRise.peaks = try ParameterSet(PeakPicker.parameters,
                                                (SuperFlux.peakPickingDefaults + [PeakPicker.bedRiseSpreads.setting(.number(0))]).byName)
        let missed = try analyse(signal, sampleRate: sr, configuration: withoutBedRise).onsets.filter { $0.time > 0.1 }
        XCTAssertEqual(missed.map(\.time), [], "without the bed's spread they should be missed")
    }

    /// The block jump is a ratio of mean powers in dB: a tenfold amplitude is 20 dB.
    func testBlockJumpIsThePowerRatioOfTheLoudestBlocks() {
        var history = SampleHistory(capacity: 4096)
        let quiet = [Float](repeating: 0.1, count: 1000), loud = [Float](repeating: 1, count: 200)
        quiet.withUnsafeBufferPointer { history.append($0) }
        loud.withUnsafeBufferPointer { history.append($0) }
        XCTAssertEqual(BlockLevels.jump(in: history, from: 1000, to: 1200, before: 1000, block: 100), 20, accuracy: 1e-4)
        // Spans the history does not hold give no jump.
        XCTAssertEqual(BlockLevels.jump(in: history, from: 1000, to: 1300, before: 1000, block: 100), 0)
    }

    /// A faint tick 40 ms before a hit, inside a hum that is already playing: within the
    /// minimum interval one of them keeps its transient, and it is the hit, 20 dB louder.
    func testAFaintPrecursorGivesWayToTheHitAfterIt() throws {
        let sr = 44100.0
        var hum = Signals.sine(hz: 220, seconds: 1, sampleRate: sr, amplitude: 0.02)
        for i in 0..<Int(0.2 * sr) { hum[i] = 0 }
        let signal = Signals.mix(hum, Signals.clicks(at: [0.5], seconds: 1, sampleRate: sr, amplitude: 0.06),
                                 Signals.clicks(at: [0.54], seconds: 1, sampleRate: sr, amplitude: 0.8, seed: 2))
        let found = try analyse(signal, sampleRate: sr).onsets.map(\.time)
        XCTAssertEqual(found.count, 2, "\(found)")
        XCTAssertEqual(found.first ?? 0, 0.2, accuracy: 1 / sr + 1e-9)  // the hum's own start
        XCTAssertEqual(found.last ?? 0, 0.54, accuracy: 1 / sr + 1e-9)

        var firstKept = try AnalysisConfiguration.defaults()
        firstKept.peaks = try ParameterSet(PeakPicker.parameters,
                                           (SuperFlux.peakPickingDefaults + [PeakPicker.precursorDb.setting(.number(0))]).byName)
        XCTAssertEqual(try analyse(signal, sampleRate: sr, configuration: firstKept).onsets.last?.time ?? 0, 0.5, accuracy: 0.001)
    }

    /// A note that starts while the one before it still rings stands only a few dB above it,
    /// never `floorMarginDb` (8 dB): its transient goes on its start, not 20 ms later on its
    /// loudest sample. The first note, out of silence, is placed as before.
    func testANoteOverARingingNoteIsPlacedOnItsStart() throws {
        let sr = 44100.0
        func bell(_ hz: Double, at start: Double) -> [Float] {
            (0..<Int(1.2 * sr)).map { i in
                let t = Double(i) / sr - start
                guard t >= 0 else { return 0 }
                let envelope = min(t / 0.002, 1) * exp(-t / 0.25)
                return Float(0.3 * envelope * (sin(2 * .pi * hz * t) + 0.5 * sin(2 * .pi * 2.76 * hz * t)
                                               + 0.3 * sin(2 * .pi * 5.4 * hz * t)))
            }
        }
        let found = try analyse(Signals.mix(bell(523, at: 0.1), bell(659, at: 0.22)), sampleRate: sr).onsets.map(\.time)
        XCTAssertEqual(found.count, 2, "\(found)")
        XCTAssertEqual(found.first ?? 0, 0.1, accuracy: 0.0005)  // its 2 ms ramp's first audible samples
        XCTAssertEqual(found.last ?? 0, 0.22, accuracy: 0.005)
    }

    func testEveryOnsetMethodFindsCleanClicks() throws {
        let onsets = [0.2, 0.5, 0.9]
        let signal = Signals.clicks(at: onsets, seconds: 1.2, sampleRate: 44100)
        for method in OnsetMethods.all {
            let found = try analyse(signal, sampleRate: 44100, configuration: .defaults(method: method)).onsets.map(\.time)
            XCTAssertEqual(found.count, 3, "\(method.id): \(found)")
            for (f, o) in zip(found, onsets) { XCTAssertEqual(f, o, accuracy: 0.002, method.id) }
        }
    }

    func testParametersAreValidated() {
        XCTAssertThrowsError(try ParameterSet(PeakPicker.parameters, ["delta": .number(-1)])) { error in
            XCTAssertEqual("\(error)", "delta = -1 is outside 0…100")
        }
        XCTAssertThrowsError(try ParameterSet(PeakPicker.parameters, ["minIntervalMS": .number(10)])) { error in
            XCTAssertEqual("\(error)", "unknown parameter \"minIntervalMS\" (did you mean \"minIntervalMs\"?)")
        }
        XCTAssertThrowsError(try ParameterSet(PeakPicker.parameters, ["delta": .flag(true)]))
    }
}
