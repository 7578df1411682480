/// Averages interleaved channels into mono for analysis, replacing non-finite samples
/// (NaN or ±Inf from broken plugins) with silence so they cannot poison the analysis.
public enum Mixdown {
    public static func mono(_ interleaved: UnsafeBufferPointer<Float>, frames: Int, channels: Int,
                            into mono: UnsafeMutableBufferPointer<Float>) {
        precondition(mono.count >= frames && interleaved.count >= frames * channels)
        if channels == 1 {
            for i in 0..<frames { mono[i] = finite(interleaved[i]) }
            return
        }
        if channels == 2 {  // the common case, without the inner loop
            for i in 0..<frames { mono[i] = (finite(interleaved[2 * i]) + finite(interleaved[2 * i + 1])) * 0.5 }
            return
        }
        let scale = 1 / Float(channels)
        for i in 0..<frames {
            var sum: Float = 0
            let base = i * channels
            for c in 0..<channels { sum += finite(interleaved[base + c]) }
            mono[i] = sum * scale
        }
    }

    @inline(__always) static func finite(_ x: Float) -> Float { x.isFinite ? x : 0 }
}
