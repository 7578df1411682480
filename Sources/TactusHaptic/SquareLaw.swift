/// The √ law between `.haptic` amplitude and felt intensity (intensity = √amplitude, as Meta's
/// converter has it), applied to piecewise-linear envelopes.
///
/// A `.haptic` player interpolates amplitude linearly between breakpoints; a track (and AHAP)
/// interpolates intensity linearly. Between two points the two lines differ by at most
/// (i₁ − i₀)² / (4 (i₀ + i₁)) in intensity (the square root of a linear ramp against its chord),
/// 0.25 for a ramp from 0 to 1. So segments are split at their midpoint, recursively, until
/// that difference is at most `tolerance`: then either reading of the file is within
/// `tolerance` of the other, and a translation both ways keeps what plays.
enum SquareLaw {
    /// Largest difference, in intensity, allowed between a segment as a track plays it and as
    /// a `.haptic` player plays it.
    static let tolerance = 0.01
    /// Segments shorter than this (seconds) are not split further.
    static let shortestSegment = 0.001

    /// Intensity points → amplitude points that a `.haptic` player follows within `tolerance`
    /// of the linear intensity between the given points (new points lie on that line).
    static func amplitudes(fromIntensities points: [(time: Double, value: Double)]) -> [(time: Double, value: Double)] {
        refine(points, midpoint: { ($0 + $1) / 2 }).map { ($0.time, $0.value * $0.value) }
    }

    /// Amplitude points → intensity points whose linear interpolation stays within `tolerance`
    /// of what a `.haptic` player plays (new points lie on the played amplitude line).
    static func intensities(fromAmplitudes points: [(time: Double, value: Double)]) -> [(time: Double, value: Double)] {
        let intensities = points.map { ($0.time, $0.value.squareRoot()) }
        return refine(intensities, midpoint: { (($0 * $0 + $1 * $1) / 2).squareRoot() })
    }

    /// `points` with midpoints inserted into every segment whose two readings differ by more
    /// than `tolerance`; `midpoint` gives the intensity at a segment's middle time.
    private static func refine(_ points: [(time: Double, value: Double)],
                               midpoint: (Double, Double) -> Double) -> [(time: Double, value: Double)] {
        guard var previous = points.first else { return [] }
        var out = [previous]
        func split(_ a: (time: Double, value: Double), _ b: (time: Double, value: Double), depth: Int) {
            let (i0, i1) = (a.value, b.value)
            let gap = i0 + i1 > 0 ? (i1 - i0) * (i1 - i0) / (4 * (i0 + i1)) : 0
            guard gap > tolerance, b.time - a.time >= 2 * shortestSegment, depth < 12 else { return }
            let middle = (time: (a.time + b.time) / 2, value: midpoint(i0, i1))
            split(a, middle, depth: depth + 1)
            out.append(middle)
            split(middle, b, depth: depth + 1)
        }
        for point in points.dropFirst() {
            split(previous, point, depth: 0)
            out.append(point)
            previous = point
        }
        return out
    }
}
