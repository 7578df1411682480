/// The most recent mono samples, addressed by their absolute index in the signal, so the
/// attack locator can look back at the waveform without keeping the whole file.
struct SampleHistory {
    private var buffer: [Float]
    private(set) var end = 0  // absolute index one past the newest sample

    init(capacity: Int) {
        buffer = Array(repeating: 0, count: max(1, capacity))
    }

    var capacity: Int { buffer.count }
    /// Oldest absolute index still held.
    var start: Int { max(0, end - buffer.count) }

    mutating func append(_ samples: UnsafeBufferPointer<Float>) {
        let n = buffer.count
        var source = samples
        if source.count > n { source = UnsafeBufferPointer(rebasing: source[(source.count - n)...]) }
        let position = (end + samples.count - source.count) % n
        let first = min(source.count, n - position)
        buffer.withUnsafeMutableBufferPointer { ring in
            // At most two copies: up to the end of the ring, then from its start.
            (ring.baseAddress! + position).update(from: source.baseAddress!, count: first)
            if first < source.count {
                ring.baseAddress!.update(from: source.baseAddress! + first, count: source.count - first)
            }
        }
        end += samples.count
    }

    /// Σ x² over samples `from..<to`, all of which must be held, summed in fixed lanes (the
    /// same result on every run whatever the blocks the signal came in).
    func energy(from: Int, to: Int) -> Float {
        precondition(from >= start && to <= end && from <= to)
        let n = buffer.count, position = from % n, count = to - from
        let first = min(count, n - position)
        // At most two runs: up to the end of the ring, then from its start.
        return buffer.withUnsafeBufferPointer { ring in
            sumOfSquares(ring.baseAddress! + position, count: first) + sumOfSquares(ring.baseAddress!, count: count - first)
        }
    }

    /// Copies samples `from..<to`, clipped to what is held, to the start of `scratch` (which
    /// must hold at least `to - from`): no allocation, so an onset found on an audio thread
    /// is placed without one.
    /// - Returns: the absolute index of the first sample copied and how many were copied.
    func window(from: Int, to: Int, into scratch: UnsafeMutableBufferPointer<Float>) -> (start: Int, count: Int) {
        let lo = max(from, start), hi = min(to, end)
        guard hi > lo else { return (lo, 0) }
        precondition(scratch.count >= hi - lo)
        let n = buffer.count
        let position = lo % n, first = min(hi - lo, n - position)
        // At most two runs: up to the end of the ring, then from its start.
        buffer.withUnsafeBufferPointer { ring in
            scratch.baseAddress!.update(from: ring.baseAddress! + position, count: first)
            (scratch.baseAddress! + first).update(from: ring.baseAddress!, count: hi - lo - first)
        }
        return (lo, hi - lo)
    }
}
