import TactusCore
import TactusPlatform

/// A sound file as a `SoundSource`: opened read-only again and decoded from its start each time
/// a format asks (DualSense's WAV carries the sound itself), one block in memory at a time.
public struct DecodedSound: SoundSource {
    /// The sound file, decoded again at each `decode(_:)`.
    public let url: URL
    /// The file's sample rate, in Hz.
    public let sampleRate: Double
    /// The file's channels; `decode(_:)` hands them interleaved.
    public let channels: Int
    /// Frames per decoded block.
    static let blockFrames = 4096

    /// - Parameter format: the file's format, as its reader found it when it was analysed.
    /// - Parameter url: the sound file; it is not opened until `decode(_:)`.
    public init(url: URL, format: AudioFormat) {
        self.url = url
        sampleRate = format.sampleRate
        channels = format.channels
    }

    /// - Throws: an `AudioError` when the file cannot be opened or decoded again.
    /// - Parameter body: called with each block of interleaved samples in −1…1, in order,
    ///   valid only during the call; an error it throws ends decoding and is rethrown.
    public func decode(_ body: (UnsafeBufferPointer<Float>) throws -> Void) throws {
        let blocks = MonoBlockReader<Float>(try AudioFileReader(url: url), blockFrames: Self.blockFrames)
        while try blocks.next({ interleaved, _ in try body(interleaved) }) {}
    }
}
