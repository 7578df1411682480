/// A piecewise-linear function of time through sorted knots, holding its first value
/// before the first knot and its last value after the last.
///
/// The one implementation of "linear between points, flat outside": the track's curves
/// (`HapticTrack.ContinuousRegion`), the writers that lay them out in a format, AHAP's
/// control curves (`PatternEvaluator`) and what a track plays (`HapticPlayback`) all evaluate
/// through it, so what is written is what is evaluated.
public struct Polyline: Equatable, Sendable {
    /// A knot is a track's curve point: seconds and a value.
    public typealias Knot = HapticTrack.Point

    /// Knots with non-decreasing times. Two knots at one time make a step; the later wins
    /// from that instant on.
    public private(set) var knots: [Knot]

    /// Knots in order; a time earlier than its predecessor's is moved up to it, so even a
    /// malformed curve from another tool evaluates to finite values.
    /// - Parameter knots: the curve's points.
    public init(_ knots: [Knot]) {
        var latest = -Double.infinity
        self.knots = knots.map { knot in
            latest = max(latest, knot.time)
            return Knot(time: latest, value: knot.value)
        }
    }

    /// Whether the curve has no knot (it is 0 everywhere).
    public var isEmpty: Bool { knots.isEmpty }

    /// The value at `t` (0 for an empty polyline).
    /// - Parameter t: the time, in seconds.
    /// - Returns: the value, linear between knots.
    public func value(at t: Double) -> Double { Self.value(of: knots, at: t) }

    /// The value the curve approaches just before `t`: `value(at:)`, except at a step, where
    /// it is the value stepped from.
    /// - Parameter t: the time, in seconds.
    /// - Returns: the value approached from the left.
    public func value(before t: Double) -> Double { Self.value(of: knots, before: t) }

    /// The value at `t` of the curve through `knots` (sorted by time; two knots at one time make
    /// a step, the later one holding from that instant): the first value before the first knot,
    /// the last after the last, 0 without knots.
    /// - Parameters:
    ///   - knots: the curve's points, sorted by time.
    ///   - t: the time, in seconds.
    /// - Returns: the value, linear between knots.
    public static func value(of knots: [Knot], at t: Double) -> Double {
        value(of: knots, at: t, after: knots.partitioningIndex { $0.time > t })
    }

    /// `value(of:at:)` given `after`, the index of the first knot strictly after `t`.
    private static func value(of knots: [Knot], at t: Double, after: Int) -> Double {
        if after == 0 { return knots.first?.value ?? 0 }
        if after == knots.count { return knots[after - 1].value }
        let a = knots[after - 1], b = knots[after]
        return a.value + (b.value - a.value) * ((t - a.time) / (b.time - a.time))
    }

    /// `value(of:at:)` just before `t`: at a step, the value stepped from.
    /// - Parameters:
    ///   - knots: the curve's points, sorted by time.
    ///   - t: the time, in seconds.
    /// - Returns: the value approached from the left.
    public static func value(of knots: [Knot], before t: Double) -> Double {
        let first = knots.partitioningIndex { $0.time >= t }
        return first < knots.count && knots[first].time == t ? knots[first].value : value(of: knots, at: t)
    }
}

extension Polyline {
    /// `Polyline.value(of:at:)` read at times that never decrease, in constant time per read
    /// on average: the index of the first knot after the last time read only moves forwards
    /// (no search per read), for renderers that walk a curve sample by sample.
    public struct Cursor: Sendable {
        /// The knots read, sorted by time (as `value(of:at:)` takes them).
        public let knots: [Knot]
        /// Index of the first knot strictly after the last time read.
        private var after = 0
        private var last = -Double.infinity

        /// A cursor at the start of `knots`.
        /// - Parameter knots: the curve's knots, sorted by time.
        public init(_ knots: [Knot]) {
            self.knots = knots
        }

        /// `Polyline.value(of: knots, at: t)`, bit for bit; `t` must not be earlier than the
        /// time of the previous read.
        /// - Parameter t: the time read, in the knots' unit (seconds in a track).
        /// - Returns: the curve's value at `t`.
        public mutating func value(at t: Double) -> Double {
            precondition(t >= last, "a Polyline.Cursor reads forwards")
            last = t
            while after < knots.count, knots[after].time <= t { after += 1 }
            return Polyline.value(of: knots, at: t, after: after)
        }
    }
}
