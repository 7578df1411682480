/// Averages interleaved channels into mono for analysis, replacing non-finite samples
/// (NaN or ±Inf from broken plugins) with silence and holding wild ones at ±`sampleLimit`, so
/// that neither can poison the analysis (a square or a filter state that overflows to ±Inf
/// would silence everything after it, and a live stream for good).
public enum Mixdown {
    /// The largest magnitude a sample is analysed at: 8 (+18 dB over full scale). Floating-point
    /// files may legally exceed 1, and hot masters do by a few dB, which stays as it is; a wild
    /// value (3e38 from a broken plugin) held here stays within the transients' 40 dB relative
    /// gate of the sound around it instead of hiding it, and its square is far inside Float's range.
    public static let sampleLimit: Float = 8

    /// The mean of the channels of each frame, non-finite samples counted as 0 and the others
    /// held within ±`sampleLimit`.
    /// - Parameters:
    ///   - interleaved: at least `frames × channels` samples.
    ///   - frames: the frames to mix.
    ///   - channels: channels per frame, at least 1.
    ///   - mono: receives `frames` samples; must hold at least that many.
    public static func mono(_ interleaved: UnsafeBufferPointer<Float>, frames: Int, channels: Int,
                            into mono: UnsafeMutableBufferPointer<Float>) {
        precondition(mono.count >= frames && interleaved.count >= frames * channels)
        mix(frames: frames, channels: channels, into: mono) { interleaved[$0 * channels + $1] }
    }

    /// The same mix from planar channels (one buffer per channel, as `AVAudioPCMBuffer`'s
    /// `floatChannelData`), bit for bit what the interleaved mix gives.
    /// - Parameters:
    ///   - planar: `channels` pointers, each to at least `offset + frames` samples.
    ///   - channels: channels, at least 1.
    ///   - offset: the first frame to mix.
    ///   - frames: the frames to mix.
    ///   - mono: receives `frames` samples; must hold at least that many.
    public static func mono(planar: UnsafePointer<UnsafeMutablePointer<Float>>, channels: Int, offset: Int, frames: Int,
                            into mono: UnsafeMutableBufferPointer<Float>) {
        precondition(mono.count >= frames && channels >= 1)
        mix(frames: frames, channels: channels, into: mono) { planar[$1][offset + $0] }
    }

    /// The mean of `channels` samples per frame (`sample(frame, channel)`), non-finite ones
    /// counted as 0 and the others held within ±`sampleLimit`: halved for two channels, summed in channel order and scaled otherwise.
    @inline(__always)
    private static func mix(frames: Int, channels: Int, into mono: UnsafeMutableBufferPointer<Float>,
                            _ sample: (Int, Int) -> Float) {
        switch channels {
        case 1:
            for i in 0..<frames { mono[i] = bounded(sample(i, 0)) }
        case 2:  // the common case, without the inner loop
            for i in 0..<frames { mono[i] = (bounded(sample(i, 0)) + bounded(sample(i, 1))) * 0.5 }
        default:
            let scale = 1 / Float(channels)
            for i in 0..<frames {
                var sum: Float = 0
                for c in 0..<channels { sum += bounded(sample(i, c)) }
                mono[i] = sum * scale
            }
        }
    }

    @inline(__always) static func bounded(_ x: Float) -> Float {
        x.isFinite ? min(max(x, -sampleLimit), sampleLimit) : 0
    }

    /// The same mix from 16-bit samples, scaled as libsndfile scales them to float
    /// (÷ 32768): the channels are summed as integers, so the result is bit for bit what
    /// the float mix gives, without a conversion pass in the decoder.
    /// - Parameters:
    ///   - interleaved: at least `frames × channels` 16-bit samples.
    ///   - frames: the frames to mix.
    ///   - channels: channels per frame, at least 1.
    ///   - mono: receives `frames` samples in −1…1; must hold at least that many.
    public static func mono(_ interleaved: UnsafeBufferPointer<Int16>, frames: Int, channels: Int,
                            into mono: UnsafeMutableBufferPointer<Float>) {
        precondition(mono.count >= frames && interleaved.count >= frames * channels)
        let unit: Float = 1 / 32768
        if channels == 1 {
            for i in 0..<frames { mono[i] = Float(interleaved[i]) * unit }
            return
        }
        if channels == 2 {
            for i in 0..<frames {
                mono[i] = Float(Int32(interleaved[2 * i]) + Int32(interleaved[2 * i + 1])) * (unit * 0.5)
            }
            return
        }
        let scale = 1 / Float(channels)
        for i in 0..<frames {
            var sum: Int32 = 0
            let base = i * channels
            for c in 0..<channels { sum += Int32(interleaved[base + c]) }
            mono[i] = Float(sum) * unit * scale
        }
    }
}
