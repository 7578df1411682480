/// One haptic event of a live stream.
public struct LiveEvent: Equatable, Sendable {
    /// What the event is.
    public enum Kind: String, Sendable {
        /// A transient: a short tap at `time`.
        case transient
        /// The body's intensity and sharpness from `time` on (intensity 0: the body stops).
        case continuous
    }

    /// A transient or a value of the body.
    public var kind: Kind
    /// Where in the audio the event belongs, seconds from the stream's first sample: a
    /// transient's attack, or the centre of the frame a body value describes.
    public var time: Double
    /// 0…1.
    public var intensity: Double
    /// 0…1.
    public var sharpness: Double
    /// The stream position, seconds of audio pushed, from which the event is known: the end of
    /// the last frame it depends on (the end of the stream for what only `finish` releases).
    /// It depends on the signal alone, not on the blocks it came in; a caller receives the
    /// event from the `push` whose block holds that position. `emittedAt − time` is the
    /// event's latency.
    public var emittedAt: Double

    /// - Parameters:
    ///   - kind: transient or continuous.
    ///   - time: the event's place in the audio, seconds.
    ///   - intensity: 0…1.
    ///   - sharpness: 0…1.
    ///   - emittedAt: the stream position from which it is known, seconds.
    public init(kind: Kind, time: Double, intensity: Double, sharpness: Double, emittedAt: Double) {
        self.kind = kind
        self.time = time
        self.intensity = intensity
        self.sharpness = sharpness
        self.emittedAt = emittedAt
    }
}
