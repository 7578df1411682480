import TactusCore

/// The upper median (the element at index count / 2 of the sorted window; the median itself
/// for an odd count) of a window sliding one frame at a time along a growing series, kept as
/// a sorted window so each step costs a couple of binary searches instead of a sort. A
/// selection rather than `TactusCore.median`'s mean of the two middle values: the peak
/// picker's threshold is one of the window's own novelty values.
///
/// The window at frame m spans `m - before ... m + after` (clipped at the series' end);
/// values before the series' start count as zero, the novelty of the silence before a sound.
struct MovingMedian {
    let before: Int
    let after: Int
    private var sorted: [Float]
    private var added = -1
    private var centre = -1

    init(before: Int, after: Int) {
        self.before = before
        self.after = after
        sorted = Array(repeating: 0, count: before)
        sorted.reserveCapacity(before + after + 1)
    }

    /// The median of the window at `m`, which must be one past the previous call's.
    mutating func median(at m: Int, of series: [Float]) -> Float {
        precondition(m == centre + 1, "frames are judged in order")
        if m > 0 {
            let outgoing = m - 1 - before
            remove(outgoing < 0 ? 0 : series[outgoing])
        }
        while added < min(series.count - 1, m + after) {
            added += 1
            insert(series[added])
        }
        centre = m
        return sorted[sorted.count / 2]
    }

    /// Follows the series when its first `k` values are dropped (a live stream's bounded
    /// history): index i then names what was i + k. The window must not reach back past them.
    mutating func dropFirst(_ k: Int) {
        precondition(centre - k >= before, "the window still reads a dropped value")
        added -= k
        centre -= k
    }

    private mutating func insert(_ value: Float) {
        sorted.insert(value, at: firstIndex(notBelow: value))
    }

    private mutating func remove(_ value: Float) {
        sorted.remove(at: firstIndex(notBelow: value))
    }

    /// The first position whose value is not below `value`.
    private func firstIndex(notBelow value: Float) -> Int {
        sorted.partitioningIndex { $0 >= value }
    }
}
