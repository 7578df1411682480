import TactusCore

/// A piecewise-linear function of time through sorted knots, holding its first value
/// before the first knot and its last value after the last.
///
/// The single implementation of "linear between points, flat outside" that both the
/// evaluator (to play a `ParameterCurve`) and the writer (to read a region's curves and
/// shape the control curves) use, so that what is written is what is evaluated.
struct Polyline: Equatable, Sendable {
    struct Knot: Equatable, Sendable {
        var time: Double
        var value: Double
    }

    /// Knots with non-decreasing times. Two knots at one time make a step; the later wins
    /// from that instant on.
    private(set) var knots: [Knot]

    /// Knots in order; a time earlier than its predecessor's is moved up to it, so even a
    /// malformed curve from another tool evaluates to finite values.
    init(_ knots: [Knot]) {
        var latest = -Double.infinity
        self.knots = knots.map { knot in
            latest = max(latest, knot.time)
            return Knot(time: latest, value: knot.value)
        }
    }

    var isEmpty: Bool { knots.isEmpty }

    /// The value at `t` (0 for an empty polyline).
    func value(at t: Double) -> Double {
        guard let first = knots.first, let last = knots.last else { return 0 }
        // Index of the first knot strictly after t.
        let low = knots.partitioningIndex { $0.time > t }
        if low == 0 { return first.value }
        if low == knots.count { return last.value }
        let a = knots[low - 1], b = knots[low]
        let fraction = (t - a.time) / (b.time - a.time)
        return a.value + (b.value - a.value) * fraction
    }

    /// The value the curve approaches just before `t`: `value(at:)`, except at a step, where
    /// it is the value stepped from.
    func value(before t: Double) -> Double {
        let first = knots.partitioningIndex { $0.time >= t }
        return first < knots.count && knots[first].time == t ? knots[first].value : value(at: t)
    }
}
