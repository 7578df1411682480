import CSndFile
import TactusCore
import TactusFiles
import TactusPlatform

/// Writes interleaved float frames to a WAV file through libsndfile, block by block.
public final class WAVWriter {
    /// How samples are stored in the WAV file.
    public enum SampleFormat: Sendable {
        /// Integer PCM of 16, 24 or 32 bits, or 32-bit float.
        case pcm16, pcm24, pcm32, float

        var code: Int32 {
            switch self {
            case .pcm16: return Int32(SF_FORMAT_PCM_16)
            case .pcm24: return Int32(SF_FORMAT_PCM_24)
            case .pcm32: return Int32(SF_FORMAT_PCM_32)
            case .float: return Int32(SF_FORMAT_FLOAT)
            }
        }

        /// The WAV encoding that holds a source encoding without losing resolution it has.
        /// Lossy codecs decode to float but carry no more than 16 bits of meaning.
        /// - Parameter encoding: the source's encoding as `AudioFormat.encoding` names it (e.g. "PCM_24").
        /// - Returns: `.pcm24`, `.pcm32` or `.float` for those encodings, `.pcm16` for any other.
        public static func preserving(_ encoding: String) -> SampleFormat {
            switch encoding {
            case "PCM_24": return .pcm24
            case "PCM_32": return .pcm32
            case "FLOAT", "DOUBLE": return .float
            default: return .pcm16
            }
        }
    }

    /// Interleaved channels per frame, as given to `init`.
    public let channels: Int
    private let format: SampleFormat
    private let handle: OpaquePointer
    private var closed = false
    /// Integer PCM: each block converted here (CSndFile's shim) into one of these.
    private var shorts: [Int16] = []
    private var integers: [Int32] = []

    /// Creates (or truncates) a WAV file; RF64 only when it grows past 4 GB.
    /// - Parameters:
    ///   - url: the file to write, usually a `StagedFile`'s temporary path.
    ///   - sampleRate: frames per second, in Hz.
    ///   - channels: channels per frame.
    ///   - format: how samples are stored.
    /// - Throws: `AudioError.Kind.writeFailed` when libsndfile cannot create the file.
    public init(url: URL, sampleRate: Int, channels: Int, format: SampleFormat) throws {
        self.channels = channels
        self.format = format
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        // RF64 lifts WAV's 4 GB limit; with auto-downgrade the file is a plain WAV when it fits.
        info.format = Int32(SF_FORMAT_RF64) | format.code
        guard let handle = sf_open(url.path, Int32(SFM_WRITE), &info) else {
            throw AudioError(.writeFailed, "cannot write audio: \(String(cString: sf_strerror(nil)))")
        }
        self.handle = handle
        sf_command(handle, Int32(SFC_RF64_AUTO_DOWNGRADE), nil, Int32(SF_TRUE))
        sf_command(handle, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
    }

    deinit {
        if !closed { sf_close(handle) }
    }

    /// Writes interleaved frames, normalised to −1…1 and clipped there. Integer PCM is
    /// converted here, several samples at a time, to the integers libsndfile's own clipping
    /// conversion makes one sample at a time (16-bit samples, which libsndfile then only
    /// copies, or 32-bit ones whose top bits it keeps): the same bytes.
    /// - Parameter frames: interleaved samples, `channels` per frame (a trailing partial frame is dropped).
    /// - Throws: `AudioError.Kind.writeFailed` when fewer frames were written (e.g. disk full).
    public func write(_ frames: UnsafeBufferPointer<Float>) throws {
        let count = frames.count / channels
        let written: sf_count_t
        switch format {
        case .float:
            written = sf_writef_float(handle, frames.baseAddress, sf_count_t(count))
        case .pcm16:
            if shorts.count < frames.count { shorts = [Int16](repeating: 0, count: frames.count) }
            written = shorts.withUnsafeMutableBufferPointer { buffer in
                tactus_full_scale_shorts(frames.baseAddress, buffer.baseAddress, frames.count)
                return sf_writef_short(handle, buffer.baseAddress, sf_count_t(count))
            }
        case .pcm24, .pcm32:
            if integers.count < frames.count { integers = [Int32](repeating: 0, count: frames.count) }
            written = integers.withUnsafeMutableBufferPointer { buffer in
                tactus_full_scale_integers(frames.baseAddress, buffer.baseAddress, frames.count)
                return sf_writef_int(handle, buffer.baseAddress, sf_count_t(count))
            }
        }
        guard written == count else {
            throw AudioError(.writeFailed, "cannot write audio: \(String(cString: sf_strerror(handle)))",
                             hint: FileErrorReason.writeHint)
        }
    }

    /// Writes the header and closes; errors here mean the file is incomplete (e.g. disk
    /// full). Syncing to disk is left to the run's `CommittedFiles` log.
    /// - Throws: `AudioError.Kind.writeFailed` when the header cannot be finished.
    public func close() throws {
        guard !closed else { return }
        closed = true
        if sf_close(handle) != 0 {
            throw AudioError(.writeFailed, "cannot finish writing audio (disk full?)")
        }
    }
}
