import TactusCore
import TactusPlatform

/// A sound file as a `SoundSource`: opened read-only again and decoded from its start each time
/// a format asks (DualSense's WAV carries the sound itself), one block in memory at a time.
public struct DecodedSound: SoundSource {
    public let url: URL
    public let sampleRate: Double
    public let channels: Int
    /// Frames per decoded block.
    static let blockFrames = 4096

    /// - Parameter format: the file's format, as its reader found it when it was analysed.
    public init(url: URL, format: AudioFormat) {
        self.url = url
        sampleRate = format.sampleRate
        channels = format.channels
    }

    /// - Throws: an `AudioError` when the file cannot be opened or decoded again.
    public func decode(_ body: (UnsafeBufferPointer<Float>) throws -> Void) throws {
        let blocks = MonoBlockReader<Float>(try AudioFileReader(url: url), blockFrames: Self.blockFrames)
        while try blocks.next({ interleaved, _ in try body(interleaved) }) {}
    }
}
