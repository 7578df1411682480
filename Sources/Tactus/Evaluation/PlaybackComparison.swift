import TactusCore

/// What two haptic tracks play, compared: how much a translation between formats (or a
/// round trip through one) changed what a person feels.
///
/// Both tracks are read as played: tracks imported from AHAP hold what the pattern evaluator
/// computes (event intensity × controls), tracks read from `.haptic` the √ law's intensities.
/// - Transients are paired in time order, each reference transient with the nearest unpaired
///   candidate within `matchWindow`; the errors are taken over the pairs.
/// - The continuous intensity (0 outside every region) is compared on a grid of `step` seconds
///   over the instants where either track plays a continuous region, less those within
///   `transientMask` of a transient of either track; `envelopeRMS` is the root mean square of
///   the difference there, `envelopeWorst` its largest absolute value. (Tactus's AHAPs lift
///   the continuous body towards its region's peak for the few milliseconds around each
///   transient, so that the transient itself plays unscaled: a mask of `AHAPFormat`'s ramp
///   measures the body apart from that.)
public struct PlaybackComparison: Equatable, Sendable {
    /// Largest time between paired transients for them to count as the same one, seconds.
    public static let matchWindow = 0.05
    /// Grid of the envelope comparison, seconds: every millisecond, or coarser where the spans
    /// compared add up to more than `maxSamples` of them (about 2.8 hours), so any file
    /// compares in bounded time.
    public static let step = 0.001
    public static let maxSamples = 10_000_000

    public var referenceTransients: Int
    public var candidateTransients: Int
    /// Transients paired within `matchWindow`.
    public var pairedTransients: Int
    /// Largest |Δtime| over paired transients, seconds (0 without pairs).
    public var worstTimeError: Double
    /// Largest |Δintensity| over paired transients (0…1 scale).
    public var worstIntensityError: Double
    /// Largest |Δsharpness| over paired transients.
    public var worstSharpnessError: Double
    /// Instants compared on the envelope grid.
    public var envelopeSamples: Int
    /// Their spacing, seconds: `step`, or coarser for very long files.
    public var envelopeStep: Double
    /// Root mean square of the continuous intensity difference (0 when neither plays one).
    public var envelopeRMS: Double
    /// Largest absolute continuous intensity difference on the grid.
    public var envelopeWorst: Double

    /// Every transient kept (no extra, none lost).
    public var keepsEveryTransient: Bool {
        pairedTransients == referenceTransients && pairedTransients == candidateTransients
    }

    /// - Parameters:
    ///   - reference: what the original plays.
    ///   - candidate: what the file compared with it plays (a translation, a round trip).
    ///   - transientMask: seconds either side of each transient left out of the envelope
    ///     comparison (0: none).
    public init(reference: HapticTrack, candidate: HapticTrack, transientMask: Double = 0) {
        referenceTransients = reference.transients.count
        candidateTransients = candidate.transients.count
        (pairedTransients, worstTimeError, worstIntensityError, worstSharpnessError) = (0, 0, 0, 0)
        // Both lists sorted by time: each reference transient looks only at the candidates
        // within the window (a binary search away), so big patterns pair in n log n.
        let candidates = candidate.transients.sorted { $0.time < $1.time }
        var used = [Bool](repeating: false, count: candidates.count)
        for transient in reference.transients.sorted(by: { $0.time < $1.time }) {
            let first = candidates.partitioningIndex { $0.time >= transient.time - Self.matchWindow }
            let end = candidates.partitioningIndex { $0.time > transient.time + Self.matchWindow }
            let nearest = (first..<end).filter { !used[$0] }
                .min { abs(candidates[$0].time - transient.time) < abs(candidates[$1].time - transient.time) }
            guard let nearest else { continue }
            used[nearest] = true
            let match = candidates[nearest]
            pairedTransients += 1
            worstTimeError = max(worstTimeError, abs(match.time - transient.time))
            worstIntensityError = max(worstIntensityError, abs(match.intensity - transient.intensity))
            worstSharpnessError = max(worstSharpnessError, abs(match.sharpness - transient.sharpness))
        }

        let masked = Self.union((reference.transients + candidate.transients).map { ($0.time - transientMask)...($0.time + transientMask) })
        func isMasked(_ t: Double) -> Bool {
            let after = masked.partitioningIndex { $0.lowerBound > t }
            return transientMask > 0 && after > 0 && masked[after - 1].contains(t)
        }
        let played = Self.union((reference.regions + candidate.regions).filter { $0.end > $0.start }.map { $0.start...$0.end })
        let total = played.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) }
        let step = max(Self.step, total / Double(Self.maxSamples))
        var (samples, squares, worst) = (0, 0.0, 0.0)
        for span in played {
            let count = Int(((span.upperBound - span.lowerBound) / step).rounded(.down))
            for k in 0...count {
                let t = span.lowerBound + Double(k) * step
                if isMasked(t) { continue }
                let difference = reference.continuousIntensity(at: t) - candidate.continuousIntensity(at: t)
                samples += 1
                squares += difference * difference
                worst = max(worst, abs(difference))
            }
        }
        envelopeSamples = samples
        envelopeStep = step
        envelopeRMS = samples > 0 ? (squares / Double(samples)).squareRoot() : 0
        envelopeWorst = worst
    }

    /// `spans` merged where they overlap or touch, in time order.
    private static func union(_ spans: [ClosedRange<Double>]) -> [ClosedRange<Double>] {
        var merged: [ClosedRange<Double>] = []
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, span.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, span.upperBound)
            } else {
                merged.append(span)
            }
        }
        return merged
    }
}
