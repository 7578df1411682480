import TactusPlatform

/// Error-bounded piecewise-linear simplification with the fewest points: keeps the first and
/// last points and as few others as possible such that every dropped point lies within
/// `tolerance` (in value units) of the straight line between the kept points either side of it.
///
/// Two passes over points made on demand, so a long curve is never held whole:
/// 1. A linear walk keeps a cone of slopes from the last kept point that satisfy every point
///    seen since; when the next point leaves the cone, the previous one is kept. An hour-long
///    steady envelope collapses to a handful of points here.
/// 2. Between those points, the fewest-point subset is found exactly as a shortest path (a
///    segment from point i to point j is allowed when every point between lies within the
///    tolerance of it), in blocks of at most `blockLength` points that start and end at
///    points of the first pass. The walk's segments longer than `longSegment` points are kept
///    as they are. A segment of the path spans at most `longestReach` points. Among subsets
///    of the fewest points, the one with the least squared error. Work is linear in the
///    curve's length; the result never has more points than the first pass, and on noisy
///    envelopes about a sixth fewer.
public enum CurveSimplifier {
    /// Points of one shortest-path block, at most.
    static let blockLength = 4_096
    /// First-pass segments longer than this (in points) are kept without a search.
    static let longSegment = 128
    /// The longest segment the search tries, in points.
    static let longestReach = 512

    /// - Parameters:
    ///   - points: the curve, times nondecreasing.
    ///   - tolerance: how far in value (0…1 for intensity and sharpness) a dropped point may
    ///     lie from the line between the kept points either side of it.
    /// - Returns: a subset of `points`, the first and last always kept.
    public static func simplify(_ points: [HapticTrack.Point], tolerance: Double) -> [HapticTrack.Point] {
        simplify(count: points.count, tolerance: tolerance) { points[$0] }
    }

    /// The same over points made on demand: `point(i)` for `i` in `0..<count`, times
    /// nondecreasing.
    /// - Parameters:
    ///   - count: the number of points.
    ///   - tolerance: how far in value a dropped point may lie from the simplified curve.
    ///   - point: the point at an index; called more than once per index.
    /// - Returns: the points kept, the first and last always among them.
    public static func simplify(count: Int, tolerance: Double,
                                point: (Int) -> HapticTrack.Point) -> [HapticTrack.Point] {
        guard count > 2 else { return (0..<count).map(point) }
        let walk = coneWalk(count: count, tolerance: tolerance, point: point)
        var kept = [point(0)]
        var blockStart = 0, blockSegments = 0
        // Ends the current block at `end`: a block of one first-pass segment is that segment.
        func flush(to end: Int) {
            guard end > blockStart else { return }
            kept += blockSegments == 1 ? [point(end)] : fewestPoints(from: blockStart, to: end, tolerance: tolerance, point: point)
            blockStart = end
            blockSegments = 0
        }
        for (previous, vertex) in zip(walk, walk.dropFirst()) {
            if vertex - previous > longSegment {
                flush(to: previous)
                blockSegments = 1
                flush(to: vertex)
                continue
            }
            if vertex - blockStart > blockLength { flush(to: previous) }
            blockSegments += 1
        }
        flush(to: count - 1)
        return kept
    }

    /// The first pass: indices of the points the cone walk keeps, first and last included.
    private static func coneWalk(count: Int, tolerance: Double, point: (Int) -> HapticTrack.Point) -> [Int] {
        var kept = [0]
        var cone = SlopeCone(from: point(0), tolerance: tolerance)
        var previous = point(0)
        for index in 1..<count {
            let point = point(index)
            defer { previous = point }
            if let slope = cone.slope(to: point), !cone.contains(slope) {
                kept.append(index - 1)
                cone = SlopeCone(from: previous, tolerance: tolerance)
            }
            cone.narrow(to: point)
        }
        if kept.last != count - 1 { kept.append(count - 1) }
        return kept
    }

    /// The kept points after `first` up to and including `last`, fewest possible, by a
    /// shortest path over the points between. Among equally short paths, the one whose dropped
    /// points lie closest to it (least sum of squared vertical distances), so the spare
    /// tolerance goes to fidelity.
    private static func fewestPoints(from first: Int, to last: Int, tolerance: Double,
                                     point: (Int) -> HapticTrack.Point) -> [HapticTrack.Point] {
        let points = (first...last).map(point)
        let (time, value) = (points.map(\.time), points.map(\.value))
        let parent = time.withUnsafeBufferPointer { time in
            value.withUnsafeBufferPointer { value in shortestPath(time: time, value: value, tolerance: tolerance) }
        }
        var path: [HapticTrack.Point] = []
        var j = points.count - 1
        while j > 0 { path.append(points[j]); j = Int(parent[j]) }
        return path.reversed()
    }

    /// `fewestPoints`' search over the points' times and values (same count, at least two):
    /// for each point, the one before it on the chosen path from the first. The arithmetic is
    /// `SlopeCone`'s, term for term, on flat arrays: the search visits up to `longestReach`
    /// pairs per point, so its loop is most of the simplifier's time.
    private static func shortestPath(time: UnsafeBufferPointer<Double>, value: UnsafeBufferPointer<Double>,
                                     tolerance: Double) -> [Int32] {
        let n = time.count
        var parent = [Int32](repeating: 0, count: n)
        let fewest = UnsafeMutableBufferPointer<Int32>.allocate(capacity: n)
        let cost = UnsafeMutableBufferPointer<Double>.allocate(capacity: n)
        defer {
            fewest.deallocate()
            cost.deallocate()
        }
        fewest.initialize(repeating: .max)
        cost.initialize(repeating: 0)
        fewest[0] = 0
        parent.withUnsafeMutableBufferPointer { parent in
            for i in 0..<(n - 1) {
                let steps = fewest[i] &+ 1, (ti, vi, base) = (time[i], value[i], cost[i])
                // The cone of slopes from point i that pass within the tolerance of every point so far.
                var (low, high) = (-Double.infinity, Double.infinity)
                // Sums over the points strictly between i and j, relative to point i (u: time,
                // w: value), from which a segment's squared error is Σw² − 2sΣwu + s²Σu².
                var sww = 0.0, swu = 0.0, suu = 0.0
                var j = i &+ 1
                let end = min(n, i &+ 1 &+ longestReach)
                while j < end {
                    if j > i &+ 1 {
                        let u = time[j &- 1] - ti, w = value[j &- 1] - vi
                        sww += w * w; swu += w * u; suu += u * u
                    }
                    let dt = time[j] - ti
                    if steps <= fewest[j] {
                        // A point at the anchor's time has no slope and stays within the cone
                        // (slope 0 in the error). A segment to the next point drops nothing, so
                        // it is always allowed (even where a non-finite value leaves every cone).
                        var (s, allowed) = (0.0, true)
                        if dt > 0 {
                            s = (value[j] - vi) / dt
                            allowed = j == i &+ 1 || (s >= low && s <= high)
                        }
                        if allowed {
                            let error = base + max(0, sww - 2 * s * swu + s * s * suu)
                            if steps < fewest[j] || error < cost[j] {
                                fewest[j] = steps; parent[j] = Int32(truncatingIfNeeded: i); cost[j] = error
                            }
                        }
                    }
                    if dt > 0 {
                        low = max(low, (value[j] - tolerance - vi) / dt)
                        high = min(high, (value[j] + tolerance - vi) / dt)
                        if low > high { break }
                    }
                    j &+= 1
                }
            }
        }
        return parent
    }
}

/// The slopes of the lines from `anchor` that pass within `tolerance` of every point it was
/// narrowed to. Points at the anchor's time neither narrow the cone nor leave it.
private struct SlopeCone {
    let anchor: HapticTrack.Point
    let tolerance: Double
    private var low = -Double.infinity, high = Double.infinity

    init(from anchor: HapticTrack.Point, tolerance: Double) {
        self.anchor = anchor
        self.tolerance = tolerance
    }

    /// The slope of the line from the anchor to `point`; nil at the anchor's time.
    func slope(to point: HapticTrack.Point) -> Double? {
        let dt = point.time - anchor.time
        return dt > 0 ? (point.value - anchor.value) / dt : nil
    }

    /// Whether a line of this slope from the anchor lies within the cone.
    func contains(_ slope: Double) -> Bool {
        slope >= low && slope <= high
    }

    /// Keeps only the slopes whose lines pass within the tolerance of `point`.
    mutating func narrow(to point: HapticTrack.Point) {
        let dt = point.time - anchor.time
        guard dt > 0 else { return }
        low = max(low, (point.value - tolerance - anchor.value) / dt)
        high = min(high, (point.value + tolerance - anchor.value) / dt)
    }

    /// No line from the anchor passes within the tolerance of every point so far.
    var isEmpty: Bool { low > high }
}
