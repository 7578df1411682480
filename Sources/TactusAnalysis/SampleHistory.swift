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
        var position = end % n
        buffer.withUnsafeMutableBufferPointer { ring in
            for x in samples {
                ring[position] = x
                position += 1
                if position == n { position = 0 }
            }
        }
        end += samples.count
    }

    /// Samples `from..<to` clipped to what is held; also returns the absolute start used.
    func window(from: Int, to: Int) -> (start: Int, samples: [Float]) {
        let lo = max(from, start), hi = min(to, end)
        guard hi > lo else { return (lo, []) }
        let n = buffer.count
        return (lo, (lo..<hi).map { buffer[$0 % n] })
    }
}
