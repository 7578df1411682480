import TactusCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How far what a file plays moves, and how its intensity follows the sound's level as a hand
/// judges it: measures a flat or rail-saturated curve cannot pass, beside `Fidelity`'s
/// correlations (docs/ARCHITECTURE.md, "How Tactus is measured").
///
/// One grid: frame k is the 10 ms centred on k × `ReferenceEnvelope.hopSeconds`, the centre of
/// the reference's centroid frame k. Per frame: the continuous intensity played, its mean over
/// the frame (`Fidelity.samplesPerBlock` reads, 0 where no region plays); the continuous
/// sharpness played at the frame's centre; the sound's level, the RMS of the 20 ms centred
/// there (`ReferenceEnvelope.frameLevelDb`), and its log2 centroid.
/// - Sharpness is measured over the body: frames whose played intensity is at least
///   `bodyIntensity`.
/// - Intensity is measured over the envelope's frames: those where the played intensity or the
///   level, mapped 0…1 over the `ReferenceEnvelope.rangeDb` below the loudest frame
///   (`ReferenceEnvelope.frameLoudness`), exceeds `envelopeThreshold`.
public struct Movement: Sendable, Equatable {
    /// Played continuous intensity (0…1) at or above which a frame is body.
    public static let bodyIntensity = 0.05
    /// Body sharpness below this (0…1) is at the lower rail.
    public static let sharpnessLowRail = 0.05
    /// Body sharpness above this (0…1) is at the upper rail.
    public static let sharpnessHighRail = 0.9
    /// Transient sharpness (0…1) at or above which a transient is at the top.
    public static let transientTopSharpness = 0.99
    /// Played intensity below this (0…1) is at the lower rail.
    public static let intensityLowRail = 0.05
    /// Played intensity above this (0…1) is at the upper rail.
    public static let intensityHighRail = 0.95
    /// A frame counts in the envelope measure where the played intensity or the mapped level
    /// (both 0…1) exceeds this.
    public static let envelopeThreshold = 0.05
    /// The played intensity is compared with the level at lags of up to this many frames
    /// (10 ms each) either way, the best kept.
    public static let envelopeMaxLag = 1
    /// A sound whose log2 centroid over its body frames moves at least this much (p90 − p10,
    /// octaves) is a moving sound.
    public static let movingOctaves = 1.0

    /// Frames of the body (played intensity ≥ `bodyIntensity`).
    public var bodyFrames = 0
    /// p90 − p10 of the played body sharpness (0…1); nil without body frames.
    public var sharpnessSpread: Double?
    /// Pearson correlation of the played body sharpness with the log2 centroid, −1…1; nil when
    /// either is constant or there are under 3 body frames.
    public var sharpnessPearson: Double?
    /// Least-squares slope of the played body sharpness on the log2 centroid: sharpness per
    /// octave; nil as `sharpnessPearson`.
    public var sharpnessSlopePerOctave: Double?
    /// Share of body frames at the sharpness rails (below `sharpnessLowRail` or above
    /// `sharpnessHighRail`), 0…1; nil without body frames.
    public var sharpnessRailShare: Double?
    /// p90 − p10 of the log2 centroid over the body frames, octaves; nil without body frames.
    public var centroidSpreadOctaves: Double?
    /// Transients played.
    public var transients = 0
    /// Transients played with a sharpness of at least `transientTopSharpness`.
    public var transientsAtTopSharpness = 0
    /// Frames of the envelope measure (played intensity or mapped level above
    /// `envelopeThreshold`), at lag 0.
    public var envelopeFrames = 0
    /// p90 − p10 of the played intensity over the envelope's frames (0…1); nil without frames.
    public var intensitySpread: Double?
    /// Least-squares slope of the played intensity on the level over the envelope's frames, the
    /// level clamped to the `ReferenceEnvelope.rangeDb` below the loudest frame: intensity per
    /// 10 dB; nil when either is constant.
    public var intensitySlopePer10Db: Double?
    /// Share of the envelope's frames played below `intensityLowRail`, 0…1; nil without frames.
    public var intensityLowRailShare: Double?
    /// Share of the envelope's frames played above `intensityHighRail`, 0…1; nil without frames.
    public var intensityHighRailShare: Double?
    /// The envelope measure: Pearson correlation of the played intensity with the mapped level
    /// over the envelope's frames, the best of the lags up to `envelopeMaxLag` frames, −1…1;
    /// nil when undefined at every lag.
    public var envelope: Double?
    /// The lag of `envelope`, in frames (10 ms): positive when the played intensity trails the
    /// sound.
    public var envelopeLag = 0
    /// The largest intensity played (0…1): a transient's, or the continuous intensity's at the
    /// frames' reads (every 0.5 ms).
    public var peakIntensity = 0.0
    /// The played continuous sharpness averaged over the frames' reads (every 0.5 ms) where a
    /// region plays, weighted by the played intensity (0…1); nil when no region plays above 0.
    public var meanBodySharpness: Double?

    /// Whether the sound is a moving one: its log2 centroid over the body moves at least
    /// `movingOctaves`.
    public var isMovingSound: Bool { (centroidSpreadOctaves ?? 0) >= Self.movingOctaves }

    /// An empty measure (no frames), to fill in.
    public init() {}

    /// Measures what `playback` plays against `reference`.
    /// - Parameters:
    ///   - playback: what the file plays.
    ///   - reference: the sound's level and brightness; its `frameLevelDb` sets the frame count.
    /// - Returns: the measures; those undefined for the file are nil.
    public static func measure(_ playback: HapticPlayback, reference: ReferenceEnvelope) -> Movement {
        let hop = ReferenceEnvelope.hopSeconds, reads = Fidelity.samplesPerBlock
        let count = min(reference.frameLoudness.count, reference.logCentroid.count)
        var played = [Double](repeating: 0, count: count)
        var movement = Movement()
        var weighted = 0.0, weights = 0.0, loudest = 0.0
        for k in 0..<count {
            let from = (Double(k) - 0.5) * hop
            var sum = 0.0
            for i in 0..<reads {
                let t = from + (Double(i) + 0.5) * hop / Double(reads)
                let intensity = playback.continuousIntensity(at: t)
                sum += intensity
                loudest = max(loudest, intensity)
                if intensity > 0, let sharpness = playback.continuousSharpness(at: t) {
                    weighted += intensity * sharpness
                    weights += intensity
                }
            }
            played[k] = sum / Double(reads)
        }
        // Sharpness over the body.
        var sharpness: [Double] = [], octaves: [Double] = []
        for k in 0..<count where played[k] >= bodyIntensity {
            if let s = playback.continuousSharpness(at: Double(k) * hop) {
                sharpness.append(s)
                octaves.append(reference.logCentroid[k])
            }
        }
        movement.bodyFrames = sharpness.count
        if !sharpness.isEmpty {
            movement.sharpnessSpread = spread(sharpness)
            movement.centroidSpreadOctaves = spread(octaves)
            movement.sharpnessRailShare = share(sharpness) { $0 < sharpnessLowRail || $0 > sharpnessHighRail }
        }
        movement.sharpnessPearson = Statistics.pearson(sharpness, octaves)
        movement.sharpnessSlopePerOctave = movement.sharpnessPearson == nil ? nil : Statistics.slope(octaves, sharpness)
        movement.transients = playback.transients.count
        movement.transientsAtTopSharpness = playback.transients.filter { $0.sharpness >= transientTopSharpness }.count
        // Intensity over the envelope's frames.
        let level = Array(reference.frameLoudness.prefix(count))
        let frames = (0..<count).filter { played[$0] > envelopeThreshold || level[$0] > envelopeThreshold }
        movement.envelopeFrames = frames.count
        if !frames.isEmpty {
            let intensity = frames.map { played[$0] }
            movement.intensitySpread = spread(intensity)
            movement.intensityLowRailShare = share(intensity) { $0 < intensityLowRail }
            movement.intensityHighRailShare = share(intensity) { $0 > intensityHighRail }
            let levels = frames.map { level[$0] }
            let perUnit = Statistics.pearson(levels, intensity) == nil ? nil : Statistics.slope(levels, intensity)
            movement.intensitySlopePer10Db = perUnit.map { $0 * 10 / ReferenceEnvelope.rangeDb }
        }
        (movement.envelope, movement.envelopeLag) = envelope(played: played, level: level)
        movement.peakIntensity = max(loudest, playback.transients.map(\.intensity).max() ?? 0)
        movement.meanBodySharpness = weights > 0 ? weighted / weights : nil
        return movement
    }

    /// The envelope measure of two frame series: Pearson correlation of `played[k + lag]` with
    /// `level[k]` over the frames where either exceeds `envelopeThreshold`, for each lag up to
    /// `envelopeMaxLag` frames either way.
    /// - Parameters:
    ///   - played: the played intensity per frame, 0…1.
    ///   - level: the mapped level per frame, 0…1, as many.
    /// - Returns: the best correlation (nil when undefined at every lag) and its lag in frames
    ///   (positive: the played intensity trails; the smallest |lag| among equals).
    public static func envelope(played: [Double], level: [Double]) -> (r: Double?, lag: Int) {
        var best: (r: Double?, lag: Int) = (nil, 0)
        for lag in [0] + (0..<envelopeMaxLag).flatMap({ [-($0 + 1), $0 + 1] }) {
            var x: [Double] = [], y: [Double] = []
            for k in level.indices where k + lag >= 0 && k + lag < played.count {
                let p = played[k + lag], l = level[k]
                if p > envelopeThreshold || l > envelopeThreshold {
                    x.append(p)
                    y.append(l)
                }
            }
            if let r = Statistics.pearson(x, y), r > (best.r ?? -2) + 1e-12 { best = (r, lag) }
        }
        return best
    }

    /// p90 − p10 (nearest rank), 0 for no values.
    static func spread(_ values: [Double]) -> Double {
        Statistics.percentile(values, 0.9) - Statistics.percentile(values, 0.1)
    }

    /// The share of `values` that `test` accepts, 0…1 (0 for no values).
    static func share(_ values: [Double], _ test: (Double) -> Bool) -> Double {
        values.isEmpty ? 0 : Double(values.filter(test).count) / Double(values.count)
    }
}
