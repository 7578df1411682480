import CEBUR128
import TactusCore

/// How loud a sound is against an absolute reference: the loudest momentary loudness
/// (ITU-R BS.1770 / EBU R128: K-weighted power over 400 ms) of the mono signal, in LUFS,
/// measured by libebur128 as the samples stream past.
///
/// The momentary loudness is read every 100 ms (the 75 % overlap of BS.1770's gating blocks),
/// so its cost is the K-weighting filter per sample plus one 400 ms sum per 100 ms. A sound
/// shorter than 400 ms is measured over 400 ms with the silence around it, as a listener's
/// loudness integrates a short sound over time.
public final class LoudnessMeter {
    /// How often the momentary loudness is read, in seconds.
    public static let readInterval = 0.1
    /// Reported for a signal with no measurable loudness (silence).
    public static let silentLufs = -200.0

    private var state: UnsafeMutablePointer<ebur128_state>?
    private let samplesPerRead: Int
    private var untilRead: Int
    private var loudest = LoudnessMeter.silentLufs
    private var pendingRead = false

    /// A meter for one mono signal at `sampleRate` Hz; measures nothing (reports
    /// `silentLufs`) if libebur128 refuses the rate.
    /// - Parameter sampleRate: the signal's sample rate, in Hz.
    public init(sampleRate: Double) {
        state = ebur128_init(1, UInt(max(1, sampleRate.rounded())), Int32(EBUR128_MODE_M.rawValue))
        samplesPerRead = max(1, Int((sampleRate * Self.readInterval).rounded()))
        untilRead = samplesPerRead
    }

    deinit {
        if state != nil { ebur128_destroy(&state) }
    }

    /// Measures the next raw mono samples (−1…1, before any DC blocking).
    /// - Parameter samples: the next samples of the signal, in order.
    public func push(_ samples: UnsafeBufferPointer<Float>) {
        guard state != nil, let base = samples.baseAddress else { return }
        var offset = 0
        while offset < samples.count {
            let count = min(untilRead, samples.count - offset)
            ebur128_add_frames_float(state, base + offset, count)
            offset += count
            untilRead -= count
            pendingRead = true
            if untilRead == 0 {
                read()
                untilRead = samplesPerRead
            }
        }
    }

    /// The loudest momentary loudness so far, in LUFS (`silentLufs` for silence), including
    /// the samples since the last 100 ms read.
    /// - Returns: the loudest 400 ms momentary loudness, in LUFS.
    public func loudestLufs() -> Double {
        if pendingRead { read() }
        return loudest
    }

    private func read() {
        pendingRead = false
        var value = 0.0
        guard ebur128_loudness_momentary(state, &value) == Int32(EBUR128_SUCCESS.rawValue), value.isFinite else { return }
        loudest = max(loudest, value)
    }
}
