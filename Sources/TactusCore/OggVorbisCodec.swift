/// Ogg Vorbis in memory, for the formats that carry the sound in an Ogg file (`android-ogg`):
/// a seam, so that the modules those formats live in link no codec. The `Tactus` library
/// installs libsndfile's (`SndFileOggCodec`, TactusAudio, LGPL) the first time its format
/// registry is used; an app that writes or reads such files without `Tactus` installs one itself.
public protocol OggVorbisCodec {
    /// Encodes frames into an Ogg Vorbis stream.
    /// - Parameters:
    ///   - channels: interleaved channels per frame (1…255).
    ///   - sampleRate: frames per second, Hz.
    ///   - quality: Vorbis's variable-bitrate quality, 0…1 (libsndfile's scale; 0.4 is Vorbis's q3).
    ///   - produce: hands blocks of interleaved frames (−1…1) to the closure it is given, in order.
    /// - Throws: `FormatWriteError` when the codec refuses the layout or a write, or what
    ///   `produce` throws.
    /// - Returns: the stream's bytes.
    static func encodeVorbis(channels: Int, sampleRate: Int, quality: Double,
                             _ produce: ((UnsafeBufferPointer<Float>) throws -> Void) throws -> Void) throws -> [UInt8]

    /// Decodes an Ogg Vorbis or Opus stream block by block.
    /// - Parameters:
    ///   - bytes: the stream, untrusted.
    ///   - maxFrames: most frames decoded; more is an error, so a small file that decodes into
    ///     hours costs bounded time and memory.
    ///   - body: receives each block of interleaved frames, −1…1 (valid only during the call).
    /// - Throws: `FormatReadError` when the stream cannot be opened or decoded, or holds more
    ///   than `maxFrames`; what `body` throws.
    /// - Returns: the channels and sample rate decoded.
    @discardableResult
    static func decode(_ bytes: [UInt8], maxFrames: Int,
                       _ body: (UnsafeBufferPointer<Float>) throws -> Void) throws -> (channels: Int, sampleRate: Int)
}

/// The Ogg Vorbis codec in use, one per process.
public enum OggVorbis {
    private static let lock = Lock()
    private static var installedCodec: (any OggVorbisCodec.Type)?

    /// Makes `codec` the one `OggVorbis.codec()` returns from now on.
    /// - Parameter codec: the codec's type.
    public static func install(_ codec: any OggVorbisCodec.Type) { lock.withLock { installedCodec = codec } }

    /// The installed codec.
    /// - Throws: `FormatWriteError` when none is installed (writing and reading both report it).
    /// - Returns: the codec's type.
    public static func codec() throws -> any OggVorbisCodec.Type {
        guard let codec = lock.withLock({ installedCodec }) else {
            throw FormatWriteError("no Ogg Vorbis codec is installed (OggVorbis.install; the Tactus library installs libsndfile's)")
        }
        return codec
    }
}
