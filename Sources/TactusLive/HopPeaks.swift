/// The largest sample magnitude of the hop up to each frame's centre (frame k: samples
/// `(k−1)·hop + 1 … k·hop`, the centre included), whatever the pieces the samples come in:
/// where `SoundStarts` looks for the silence before a sound (a sound on the centre starts on it).
///
/// Keeps the last `capacity` frames' hops; nothing allocates after `init`.
struct HopPeaks {
    private let hop: Int
    private var peaks: [Float]
    /// The frame whose hop is being filled, its largest magnitude and samples so far.
    private var filling = 0
    private var current: Float = 0
    private var filled = 0

    /// - Parameters:
    ///   - hop: samples between frame centres (at least 1).
    ///   - capacity: frames kept (at least 1).
    init(hop: Int, capacity: Int) {
        self.hop = max(1, hop)
        peaks = Array(repeating: 0, count: max(1, capacity))
    }

    /// Reads the next samples of the signal, in order.
    mutating func push(_ samples: UnsafeBufferPointer<Float>) {
        for x in samples {
            current = max(current, abs(x))
            filled += 1
            // Frame 0's hop is sample 0 alone.
            if filled == (filling == 0 ? 1 : hop) {
                peaks[filling % peaks.count] = current
                filling += 1
                (current, filled) = (0, 0)
            }
        }
    }

    /// Frame `k`'s hop's largest magnitude: of the samples read of it so far, 0 past them.
    /// - Precondition: `k` is one of the last `capacity` frames or later.
    func peak(beforeFrame k: Int) -> Float {
        if k < 0 || k > filling { return 0 }
        if k == filling { return current }
        precondition(k >= filling - peaks.count, "frame \(k)'s hop is no longer kept")
        return peaks[k % peaks.count]
    }
}
