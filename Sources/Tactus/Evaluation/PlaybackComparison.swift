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
///   `transientMask` of a transient of either track and those within `edgeMask` of a region's
///   start or end in either track; `envelopeRMS` is the root mean square of the difference
///   there, `envelopeWorst` its largest absolute value. (Tactus's AHAPs lift the continuous
///   body towards its region's peak for the few milliseconds around each transient, so that
///   the transient itself plays unscaled: a mask of `AHAPFormat`'s ramp measures the body
///   apart from that. An edge mask of a few µs leaves out the instants where one file's region
///   starts or ends a rounding before the other's.)
/// - The continuous sharpness is compared on the same instants, but only where both tracks
///   play a region (sharpness is not defined outside one): `sharpnessWorst` is its largest
///   absolute difference, over `sharpnessSamples` instants.
public struct PlaybackComparison: Equatable, Sendable {
    /// Largest time between paired transients for them to count as the same one, seconds.
    public static let matchWindow = 0.05
    /// Grid of the envelope comparison, seconds: every millisecond, or coarser where the spans
    /// compared add up to more than `maxSamples` of them (about 2.8 hours), so any file
    /// compares in bounded time.
    public static let step = 0.001
    /// The most grid points one comparison takes.
    public static let maxSamples = 10_000_000

    /// Transients the reference plays.
    public var referenceTransients: Int
    /// Transients the candidate plays.
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
    /// Instants of the envelope grid where both tracks play a region: those where the
    /// continuous sharpness is compared.
    public var sharpnessSamples: Int
    /// Largest absolute continuous sharpness difference (0…1 scale) over `sharpnessSamples`
    /// (0 without any).
    public var sharpnessWorst: Double
    /// Continuous regions the reference plays.
    public var referenceRegions: Int
    /// Continuous regions the candidate plays.
    public var candidateRegions: Int

    /// Every transient kept (no extra, none lost).
    public var keepsEveryTransient: Bool {
        pairedTransients == referenceTransients && pairedTransients == candidateTransients
    }

    /// - Parameters:
    ///   - reference: what the original plays.
    ///   - candidate: what the file compared with it plays (a translation, a round trip).
    ///   - transientMask: seconds either side of each transient left out of the envelope and
    ///     sharpness comparisons (0: none).
    ///   - edgeMask: seconds either side of each region's start and end, in either track,
    ///     left out of the envelope and sharpness comparisons (0: none).
    public init(reference: HapticTrack, candidate: HapticTrack, transientMask: Double = 0, edgeMask: Double = 0) {
        referenceTransients = reference.transients.count
        candidateTransients = candidate.transients.count
        referenceRegions = reference.regions.count
        candidateRegions = candidate.regions.count
        (pairedTransients, worstTimeError, worstIntensityError, worstSharpnessError) = (0, 0, 0, 0)
        // Both lists sorted by time. The nearest unpaired candidate is the first unpaired one
        // at or after the transient's time or the last before it (the earliest of its equals,
        // as the lower index wins a tie), each found past the paired ones in near-constant
        // time: transients crowded into one window pair in n log n, not n².
        let candidates = candidate.transients.sorted { $0.time < $1.time }
        var unpaired = UnusedIndices(count: candidates.count)
        for transient in reference.transients.sorted(by: { $0.time < $1.time }) {
            let t = transient.time
            let first = candidates.partitioningIndex { $0.time >= t - Self.matchWindow }
            let end = candidates.partitioningIndex { $0.time > t + Self.matchWindow }
            let at = candidates.partitioningIndex { $0.time >= t }
            var nearest = unpaired.first(atOrAfter: at).flatMap { $0 < end ? $0 : nil }
            if let before = unpaired.last(before: at), before >= first {
                let earliest = unpaired.first(atOrAfter: candidates.partitioningIndex { $0.time >= candidates[before].time })!
                if nearest.map({ abs(candidates[earliest].time - t) <= abs(candidates[$0].time - t) }) ?? true {
                    nearest = earliest
                }
            }
            guard let nearest else { continue }
            unpaired.use(nearest)
            let match = candidates[nearest]
            pairedTransients += 1
            worstTimeError = max(worstTimeError, abs(match.time - transient.time))
            worstIntensityError = max(worstIntensityError, abs(match.intensity - transient.intensity))
            worstSharpnessError = max(worstSharpnessError, abs(match.sharpness - transient.sharpness))
        }

        let aroundTransients = transientMask > 0
            ? (reference.transients + candidate.transients).map { ($0.time - transientMask)...($0.time + transientMask) } : []
        let aroundEdges = edgeMask > 0
            ? (reference.regions + candidate.regions).flatMap { [$0.start, $0.end] }.map { ($0 - edgeMask)...($0 + edgeMask) } : []
        let masked = Self.union(aroundTransients + aroundEdges)
        func isMasked(_ t: Double) -> Bool {
            let after = masked.partitioningIndex { $0.lowerBound > t }
            return after > 0 && masked[after - 1].contains(t)
        }
        let played = Self.union((reference.regions + candidate.regions).filter { $0.end > $0.start }.map { $0.start...$0.end })
        let total = played.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) }
        let step = max(Self.step, total / Double(Self.maxSamples))
        var (samples, squares, worst) = (0, 0.0, 0.0)
        var (sharpSamples, sharpWorst) = (0, 0.0)
        for span in played {
            let count = Int(((span.upperBound - span.lowerBound) / step).rounded(.down))
            for k in 0...count {
                let t = span.lowerBound + Double(k) * step
                if isMasked(t) { continue }
                let difference = reference.continuousIntensity(at: t) - candidate.continuousIntensity(at: t)
                samples += 1
                squares += difference * difference
                worst = max(worst, abs(difference))
                if let a = reference.region(at: t), let b = candidate.region(at: t) {
                    sharpSamples += 1
                    sharpWorst = max(sharpWorst, abs(Polyline.value(of: a.sharpness, at: t) - Polyline.value(of: b.sharpness, at: t)))
                }
            }
        }
        envelopeSamples = samples
        envelopeStep = step
        envelopeRMS = samples > 0 ? (squares / Double(samples)).squareRoot() : 0
        envelopeWorst = worst
        sharpnessSamples = sharpSamples
        sharpnessWorst = sharpWorst
    }

    /// Indices `0..<count`, each taken once: the first untaken one at or after an index and the
    /// last before one, in near-constant amortised time (each taken index points past itself,
    /// and the pointers are shortened as they are followed).
    struct UnusedIndices {
        /// `after[i]`: an index ≥ i no smaller than the first untaken one (`count`: none).
        private var after: [Int]
        /// `before[i]`: one more than an index < i no larger than the last untaken one (0: none).
        private var before: [Int]

        init(count: Int) {
            after = Array(0...count)
            before = Array(0...count)
        }

        mutating func first(atOrAfter index: Int) -> Int? {
            var root = index
            while after[root] != root { root = after[root] }
            var i = index
            while after[i] != root { (i, after[i]) = (after[i], root) }
            return root < after.count - 1 ? root : nil
        }

        mutating func last(before index: Int) -> Int? {
            var root = index
            while before[root] != root { root = before[root] }
            var i = index
            while before[i] != root { (i, before[i]) = (before[i], root) }
            return root > 0 ? root - 1 : nil
        }

        mutating func use(_ index: Int) {
            after[index] = index + 1
            before[index + 1] = index
        }
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
