import Foundation
import TactusAnalysis
import TactusCore
import TactusMapping
import XCTest

/// `HapticMapper`'s rules on feature arrays built by hand (no audio, no analysis): each test
/// sets the frames a rule reads and checks the number the rule gives.
final class MapperRuleTests: XCTestCase {
    static let hop = 0.01
    static let silent: Float = -120

    /// A mapper with the sections' defaults under `loudness`, `transients`, `intensity` and
    /// `sharpness` overrides.
    func mapper(loudness: [String: ParameterValue] = ["normalization": .choice("absolute")],
                transients: [String: ParameterValue] = [:], intensity: [String: ParameterValue] = [:],
                sharpness: [String: ParameterValue] = [:]) throws -> HapticMapper {
        try HapticMapper(loudness: ParameterSet(LoudnessSettings.parameters, loudness),
                         transients: ParameterSet(TransientSettings.parameters, transients),
                         intensity: ParameterSet(IntensitySettings.parameters, intensity),
                         sharpness: ParameterSet(SharpnessSettings.parameters, sharpness))
    }

    /// One second of frames at `hop`: `levels` (dBFS) per frame, a 1 kHz centroid with no
    /// weight in the lows unless given.
    func input(levels: [Float], centroids: [Float]? = nil, weightedOctaves: [Float]? = nil, onsets: [Double] = [],
               lufs: Double = -20, starts: [SoundStarts.Start] = []) -> MappingInput {
        let centroids = centroids ?? [Float](repeating: 1000, count: levels.count)
        return MappingInput(hopSeconds: Self.hop, duration: Double(levels.count) * Self.hop, levelsDb: levels,
                            centroidsHz: centroids, weightedOctaves: weightedOctaves ?? centroids.map { log2($0) },
                            onsets: onsets, loudestMomentaryLufs: lufs, soundStarts: starts)
    }

    /// `count` silent frames, each span of frames at its level.
    func frameLevels(_ spans: [(Range<Int>, Float)], count: Int = 100) -> [Float] {
        var levels = [Float](repeating: Self.silent, count: count)
        for (frames, level) in spans { for k in frames { levels[k] = level } }
        return levels
    }

    /// Each frame's intensity before smoothing: `maxIntensity` × the level on −50…0 dB.
    func bodyIntensity(_ level: Float) -> Double { 0.8 * min(1, max(0, (Double(level) + 50) / 50)) }

    /// A transient sits on each onset, its intensity minIntensity + (max − min) × its attack's
    /// level on floorDb…ceilingDb (the loudest frame of the 25 ms after the onset).
    func testTransientsSitOnTheOnsetsWithIntensityFromTheAttackLevel() throws {
        let levels = frameLevels([(20..<23, -6), (23..<40, -30), (60..<63, -26)])
        let track = try mapper().map(input(levels: levels, onsets: [0.2, 0.6, 0.85]))
        XCTAssertEqual(track.transients.map(\.time), [0.2, 0.6, 0.85])
        let intensities = track.transients.map(\.intensity)
        XCTAssertEqual(intensities[0], 0.3 + 0.7 * 34 / 40, accuracy: 1e-6)
        XCTAssertEqual(intensities[1], 0.3 + 0.7 * 14 / 40, accuracy: 1e-6)
        XCTAssertEqual(intensities[2], 0.3, accuracy: 1e-9, "an attack below floorDb plays at minIntensity")
    }

    /// normalization `loudness`: every intensity × the sound's strength, floorGain at floorLufs,
    /// 1 at ceilingLufs; the shape stays.
    func testLoudnessScalesEveryIntensityByTheSoundsStrength() throws {
        let levels = frameLevels([(20..<60, -6)])
        let mapper = try mapper(loudness: ["normalization": .choice("loudness")])
        let loud = mapper.map(input(levels: levels, onsets: [0.2], lufs: -8))
        let quiet = mapper.map(input(levels: levels, onsets: [0.2], lufs: -35))
        XCTAssertEqual(quiet.transients[0].intensity / loud.transients[0].intensity, 0.3, accuracy: 1e-9)
        let loudBody = loud.regions[0].intensity.map(\.value), quietBody = quiet.regions[0].intensity.map(\.value)
        XCTAssertEqual(loudBody.count, quietBody.count)
        for (q, l) in zip(quietBody, loudBody) { XCTAssertEqual(q, 0.3 * l, accuracy: 1e-9) }
        XCTAssertEqual(loudBody.max()!, 0.8, accuracy: 1e-6, "the loudest sound plays its body at maxIntensity")
    }

    /// With no smoothing and a fine tolerance, the body's intensity is maxIntensity × the
    /// frame's level on floorDb…ceilingDb, frame by frame, over the span above the gate.
    func testContinuousIntensityFollowsTheLevel() throws {
        var levels = frameLevels([(60..<80, 0)])
        for k in 10..<60 { levels[k] = -45 + 45 * Float(k - 10) / 50 }
        let track = try mapper(intensity: ["attackMs": .number(0), "releaseMs": .number(0), "tolerance": .number(0.001)])
            .map(input(levels: levels))
        XCTAssertEqual(track.regions.count, 1)
        let region = try XCTUnwrap(track.regions.first)
        XCTAssertEqual(region.start, 0.1, accuracy: 1e-12, "the body starts with the first frame above the gate")
        XCTAssertEqual(region.end, 0.81, accuracy: 1e-12, "and ends one frame after the last")
        let curve = Polyline(region.intensity)
        for k in 10..<80 {
            XCTAssertEqual(curve.value(at: Double(k) * Self.hop), bodyIntensity(levels[k]), accuracy: 0.001 + 1e-6, "frame \(k)")
        }
    }

    /// sharpness `centroid`: each audible frame's centroid on lowHz…highHz (log frequency).
    func testBodySharpnessFollowsTheCentroidOnTheLogFrequencyScale() throws {
        let levels = frameLevels([(10..<90, 0)])
        var centroids = [Float](repeating: 0, count: 100)
        for k in 10..<50 { centroids[k] = 300 }
        for k in 50..<90 { centroids[k] = 3000 }
        let track = try mapper(sharpness: ["from": .choice("centroid"), "smoothingMs": .number(0), "tolerance": .number(0.001)])
            .map(input(levels: levels, centroids: centroids))
        let curve = Polyline(try XCTUnwrap(track.regions.first).sharpness)
        for k in 12..<48 { XCTAssertEqual(curve.value(at: Double(k) * Self.hop), log(2) / log(40), accuracy: 0.002, "frame \(k)") }
        for k in 52..<88 { XCTAssertEqual(curve.value(at: Double(k) * Self.hop), log(20) / log(40), accuracy: 0.002, "frame \(k)") }
    }

    /// sharpness `weightedCentroid`: a steady 512 Hz body with one octave of weight in the lows
    /// is placed at 9 − lowWeightScale octaves; with `edge` 0 its place is the logistic curve
    /// σ(4·(x − 5.25)/5.7) of the default 2.4…8.1 octaves: 7 octaves counting the lows twice,
    /// 8 counting them once.
    func testBodySharpnessTakesTheWeightInTheLowsOff() throws {
        let levels = frameLevels([(10..<90, 0)])
        let centroids = [Float](repeating: 512, count: 100)
        for (scale, octaves) in [(2.0, 7.0), (1.0, 8.0)] {
            let expected = 1 / (1 + exp(-4 / 5.7 * (octaves - 5.25)))
            let track = try mapper(sharpness: ["edge": .number(0), "smoothingMs": .number(0), "lowWeightScale": .number(scale)])
                .map(input(levels: levels, centroids: centroids, weightedOctaves: centroids.map { log2($0) - 1 }))
            for point in try XCTUnwrap(track.regions.first).sharpness { XCTAssertEqual(point.value, expected, accuracy: 1e-6, "\(scale)") }
        }
    }

    /// A body whose centroid `hz` at frame k (10…89) runs as given, with `lowOctaves` of weight in
    /// the lows in every frame: the body's sharpness at each frame, as the track's curve plays it.
    func bodySharpness(_ hz: (Int) -> Float, lowOctaves: Float, sharpness: [String: ParameterValue] = [:]) throws -> [Double] {
        let levels = frameLevels([(10..<90, -6)])
        var centroids = [Float](repeating: 0, count: 100)
        for k in 10..<90 { centroids[k] = hz(k) }
        let track = try mapper(sharpness: sharpness)
            .map(input(levels: levels, centroids: centroids, weightedOctaves: centroids.map { $0 > 0 ? log2($0) - lowOctaves : 0 }))
        let curve = Polyline(try XCTUnwrap(track.regions.first).sharpness)
        return (12..<88).map { curve.value(at: Double($0) * Self.hop) }
    }

    /// Pearson correlation of two series of equal length (0 when either is flat).
    func pearson(_ a: [Double], _ b: [Double]) -> Double {
        let ma = a.reduce(0, +) / Double(a.count), mb = b.reduce(0, +) / Double(b.count)
        let ab = zip(a, b).map { ($0 - ma) * ($1 - mb) }.reduce(0, +)
        let aa = a.map { ($0 - ma) * ($0 - ma) }.reduce(0, +), bb = b.map { ($0 - mb) * ($0 - mb) }.reduce(0, +)
        return aa > 0 && bb > 0 ? ab / (aa * bb).squareRoot() : 0
    }

    /// A sweep over two octaves, 2^(t·2) × `from` Hz.
    func sweep(from hz: Float) -> (Int) -> Float { { k in hz * pow(2, 2 * Float(k - 10) / 79) } }

    /// Issue 43: a body whose brightness sweeps two octaves moves by at least 0.15 (p90 − p10)
    /// upwards, a dark one (a rumble, two octaves of weight in the lows) as a bright one (a
    /// hiss, none): the place keeps the dark one off 0, where a single scale pressed it flat.
    func testABodySweepingTwoOctavesMovesWhateverItsPlace() throws {
        for (hz, lows) in [(Float(80), Float(2)), (500, 0.5), (2000, 0)] {
            let values = try bodySharpness(sweep(from: hz), lowOctaves: lows)
            let sorted = values.sorted()
            let p10 = sorted[sorted.count / 10], p90 = sorted[sorted.count * 9 / 10]
            XCTAssertGreaterThanOrEqual(p90 - p10, 0.15, "\(hz) Hz: \(p10)…\(p90)")
            XCTAssertGreaterThan(values.last!, values.first!, "\(hz) Hz brightens")
            XCTAssertGreaterThan(pearson(values, (12..<88).map { log2(Double(sweep(from: hz)($0))) }), 0.95)
        }
    }

    /// The order of kinds holds under the movement: a dark rumble's body (100 Hz, two octaves of
    /// weight in the lows) plays at most 0.35 and at least 0.3 under a click's (4 kHz, none).
    func testADarkRumblesBodyPlaysUnderAClicksBody() throws {
        let rumble = try bodySharpness({ _ in 100 }, lowOctaves: 2), click = try bodySharpness({ _ in 4000 }, lowOctaves: 0)
        let mean = { (v: [Double]) in v.reduce(0, +) / Double(v.count) }
        XCTAssertLessThanOrEqual(mean(rumble), 0.35)
        XCTAssertGreaterThanOrEqual(mean(click) - mean(rumble), 0.3)
    }

    /// `brightenOctaves` ±1 (what `feel.crispness` ±1 sets) moves a mid-scale sweeping body's
    /// median by at least 0.15 each way, and a dark one's the same way.
    func testBrighteningMovesTheBodysMedianBothWays() throws {
        func median(_ hz: Float, _ lows: Float, _ octaves: Double) throws -> Double {
            let v = try bodySharpness(sweep(from: hz), lowOctaves: lows, sharpness: ["brightenOctaves": .number(octaves)]).sorted()
            return v[v.count / 2]
        }
        let base = try median(300, 0.5, 0), up = try median(300, 0.5, 1), down = try median(300, 0.5, -1)
        XCTAssertGreaterThanOrEqual(up - base, 0.15, "\(down) \(base) \(up)")
        XCTAssertGreaterThanOrEqual(base - down, 0.15, "\(down) \(base) \(up)")
        XCTAssertGreaterThan(try median(80, 2, 1), try median(80, 2, 0))
        XCTAssertLessThan(try median(80, 2, -1), try median(80, 2, 0))
    }

    /// Nothing in range sits at 0 or 1: bodies from a 50 Hz rumble to a 12 kHz hiss, each
    /// sweeping two octaves, play strictly inside 0…1, above the AHAP's 4 decimals.
    func testNoBodyInRangeSitsAtZeroOrOne() throws {
        for (hz, lows) in [(Float(50), Float(3)), (150, 1), (1000, 0), (3000, 0)] {
            let values = try bodySharpness(sweep(from: hz), lowOctaves: lows)
            XCTAssertGreaterThan(values.min()!, 0.001, "\(hz) Hz")
            XCTAssertLessThan(values.max()!, 0.999, "\(hz) Hz")
        }
    }

    /// Two attacks at 0.2 and 0.6 s whose frames hold `first` and `second` weighted octaves,
    /// mapped with the body off: the track (two transients, no region).
    func twoAttacks(_ first: Float, _ second: Float) throws -> HapticTrack {
        let levels = frameLevels([(20..<23, -6), (60..<63, -6)])
        var octaves = [Float](repeating: 0, count: 100)
        for k in 20..<23 { octaves[k] = first }
        for k in 60..<63 { octaves[k] = second }
        return try mapper(intensity: ["enabled": .flag(false)])
            .map(input(levels: levels, centroids: [Float](repeating: 1000, count: 100), weightedOctaves: octaves, onsets: [0.2, 0.6]))
    }

    /// A transient's sharpness keeps its order past the scale's ends (`knee`): an attack at 13
    /// and one at 15 weighted octaves, both above the 11-octave end, play under 0.99, in order.
    func testTransientsPastTheScaleKeepTheirOrder() throws {
        let sharpness = try twoAttacks(13, 15).transients.map(\.sharpness)
        XCTAssertLessThan(sharpness[1], 0.99)
        XCTAssertLessThan(sharpness[0], sharpness[1])
        XCTAssertGreaterThan(sharpness[0], 0.85)
    }

    /// A transient's sharpness (`weightedCentroid`): its attack's weighted octaves on
    /// lowOctaves…highOctaves (5.5…11), so a brighter hit is sharper.
    func testTransientSharpnessFollowsTheAttacksWeightedOctaves() throws {
        let track = try twoAttacks(8, 10)
        XCTAssertEqual(track.transients.map(\.sharpness)[0], 2.5 / 5.5, accuracy: 1e-6)
        XCTAssertEqual(track.transients.map(\.sharpness)[1], 4.5 / 5.5, accuracy: 1e-6)
        XCTAssertTrue(track.regions.isEmpty, "intensity disabled writes no body")
    }

    /// A sound that starts inside a body's span cuts it: the body ends where the silence
    /// before that sound begins and starts again on the sound's first audible sample.
    func testSoundStartsCutTheBody() throws {
        let levels = frameLevels([(10..<90, -6)])
        let start = SoundStarts.Start(silenceStart: 0.4, time: 0.503)
        let track = try mapper().map(input(levels: levels, starts: [start]))
        XCTAssertEqual(track.regions.count, 2)
        XCTAssertEqual(track.regions[0].end, 0.4, accuracy: 1e-12)
        XCTAssertEqual(track.regions[1].start, 0.503, accuracy: 1e-12)
        XCTAssertEqual(track.regions[1].intensity.first?.time ?? -1, 0.503, accuracy: 1e-12,
                       "the curve starts on the sound's first sample")
        XCTAssertEqual(track.regions[1].intensity.first?.value ?? 0, bodyIntensity(-6), accuracy: 1e-6,
                       "with the first frame's value, so the attack stays sharp")
        let uncut = try mapper().map(input(levels: levels))
        XCTAssertEqual(uncut.regions.count, 1, "without the start the body is one region")
    }

    /// A body cut where a silence begins (the tail of a decay that dips under the audible level
    /// before a later sound) follows its frames up to the cut and falls to 0 on its last
    /// frame: the 0 does not bend the simplified decay before it.
    func testABodyCutBySilenceFallsOnlyOnItsLastFrame() throws {
        var levels = frameLevels([])
        for k in 10..<90 { levels[k] = -6 - 0.4 * Float(k - 10) }
        let start = SoundStarts.Start(silenceStart: 0.4, time: 0.503)
        let tolerance = 0.05
        let track = try mapper(intensity: ["attackMs": .number(0), "releaseMs": .number(0), "tolerance": .number(tolerance)])
            .map(input(levels: levels, starts: [start]))
        let body = try XCTUnwrap(track.regions.first)
        XCTAssertEqual(body.end, 0.4, accuracy: 1e-12)
        let curve = Polyline(body.intensity)
        for k in 10..<40 {
            XCTAssertEqual(curve.value(at: Double(k) * Self.hop), bodyIntensity(levels[k]), accuracy: tolerance + 1e-6, "frame \(k)")
        }
        XCTAssertEqual(curve.value(at: 0.4), 0, "the body ends at 0")
    }

    /// The simplified body never strays from the frames' values by more than its tolerance, and
    /// a coarser tolerance keeps fewer points.
    func testSimplificationKeepsWithinItsTolerance() throws {
        var levels = frameLevels([])
        for k in 10..<90 { levels[k] = -25 + 20 * Float(sin(2 * Double.pi * Double(k) / 40)) }
        var counts: [Int] = []
        for tolerance in [0.001, 0.01, 0.05] {
            let track = try mapper(intensity: ["attackMs": .number(0), "releaseMs": .number(0), "tolerance": .number(tolerance)])
                .map(input(levels: levels))
            let region = try XCTUnwrap(track.regions.first)
            let curve = Polyline(region.intensity)
            for k in 10..<90 {
                XCTAssertEqual(curve.value(at: Double(k) * Self.hop), bodyIntensity(levels[k]), accuracy: tolerance + 1e-6,
                               "frame \(k) at tolerance \(tolerance)")
            }
            counts.append(region.intensity.count)
        }
        XCTAssertGreaterThan(counts[0], counts[1])
        XCTAssertGreaterThan(counts[1], counts[2])
    }

    /// A file whose loudest frame is under silenceDb maps to nothing.
    func testASilentFileHasNoHaptics() throws {
        let track = try mapper().map(input(levels: frameLevels([(20..<60, -90)]), onsets: [0.2]))
        XCTAssertTrue(track.transients.isEmpty && track.regions.isEmpty)
        XCTAssertEqual(track.duration, 1)
    }

    /// An analysis without a feature the mapper reads is an error, not a trap.
    func testAMissingFeatureThrows() throws {
        let session = AnalysisSession(sampleRate: 16_000, configuration: try .defaults())
        session.push([Float](repeating: 0, count: 1_600))
        var analysis = session.finish()
        analysis.features[CentroidAnalyzer.output] = nil
        XCTAssertThrowsError(try mapper().map(analysis)) { error in
            XCTAssertEqual((error as? AnalysisResult.MissingFeature)?.name, CentroidAnalyzer.output)
        }
    }
}
