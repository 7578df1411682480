/// What a track plays, moment by moment: the format-neutral "what plays" evaluator that
/// previews, fidelity, `evaluate`, `compare` and the harmony check read every format through.
///
/// A format's reader (`HapticReadableFormat.read`) resolves its own encoding into the track
/// (AHAP's controls through `PatternEvaluator`, `.haptic`'s square law, Android's waveform
/// steps, a rendered drive signal's envelope), so what a track holds is already what is felt;
/// this evaluator adds only the model's own rules:
/// - a transient plays at its time with its intensity and sharpness, clamped to 0…1;
/// - a continuous region plays its intensity and sharpness curves (`Polyline`, linear between
///   points, flat outside them) on `[start, end)`, clamped to 0…1; where one region ends as
///   the next starts, the next plays from that instant; outside every region nothing
///   continuous plays (intensity 0, no sharpness);
/// - the haptics end at the later of the last region's end and the last transient's time.
public struct HapticPlayback: Sendable {
    /// The track evaluated.
    public let track: HapticTrack
    /// Every transient as it plays (values clamped to 0…1), in time order.
    public let transients: [HapticTrack.Transient]
    /// When the last haptic plays: the last region's end or the last transient's time, 0 for
    /// a track with neither.
    public let endTime: Double
    private let regions: [HapticTrack.ContinuousRegion]

    /// - Parameter track: any track; values are clamped to 0…1, empty regions dropped.
    public init(_ track: HapticTrack) {
        self.track = track
        transients = track.transients.enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map { HapticTrack.Transient(time: $0.element.time, intensity: clampUnit($0.element.intensity),
                                         sharpness: clampUnit($0.element.sharpness)) }
        regions = track.regions.filter { $0.end > $0.start }.sorted { $0.start < $1.start }
        endTime = max(regions.map(\.end).max() ?? 0, transients.last?.time ?? 0)
    }

    /// The region playing at `t`: the latest to start at or before `t` that has not ended.
    private func region(at t: Double) -> HapticTrack.ContinuousRegion? {
        let after = regions.partitioningIndex { $0.start > t }
        guard after > 0, t < regions[after - 1].end else { return nil }
        return regions[after - 1]
    }

    /// Continuous intensity felt at `t`, seconds (0 when no region plays).
    /// - Parameter t: the time, in seconds.
    /// - Returns: the intensity, 0…1.
    public func continuousIntensity(at t: Double) -> Double {
        region(at: t).map { clampUnit(Polyline.value(of: $0.intensity, at: t)) } ?? 0
    }

    /// Continuous sharpness felt at `t`, seconds (nil when no region plays).
    /// - Parameter t: the time, in seconds.
    /// - Returns: the sharpness, 0…1, or nil.
    public func continuousSharpness(at t: Double) -> Double? {
        region(at: t).map { clampUnit(Polyline.value(of: $0.sharpness, at: t)) }
    }

    /// The spans where a continuous region plays, merged where they touch or overlap, in time
    /// order.
    public var continuousSpans: [ClosedRange<Double>] { Self.merged(regions.map { $0.start...$0.end }) }

    /// `spans` sorted by start, merged where they touch or overlap.
    /// - Parameter spans: time spans, in any order.
    /// - Returns: disjoint spans, sorted.
    public static func merged(_ spans: [ClosedRange<Double>]) -> [ClosedRange<Double>] {
        var merged: [ClosedRange<Double>] = []
        for span in spans {
            if let last = merged.last, span.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, span.upperBound)
            } else {
                merged.append(span)
            }
        }
        return merged
    }

    /// Points of the played intensity and sharpness curves, over every region: what a
    /// preview reports as the size of the continuous part.
    public var curvePointCount: Int {
        regions.reduce(0) { $0 + $1.intensity.count + $1.sharpness.count }
    }
}

/// Clamps to 0…1, the range of felt intensity and sharpness: the one clamp every part uses.
/// - Parameter x: any value.
/// - Returns: `x` clamped to 0…1; 0 for NaN.
public func clampUnit(_ x: Double) -> Double { min(1, max(0, x)) }
