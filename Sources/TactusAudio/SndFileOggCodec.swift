import CSndFile
import TactusCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ogg Vorbis encoded and Ogg Vorbis or Opus decoded in memory through libsndfile (its
/// virtual I/O: no file is touched), interleaved float frames in and out (−1…1): the codec the
/// `Tactus` library installs (`OggVorbis.install`).
public enum SndFileOggCodec: OggVorbisCodec {
    /// Bytes libsndfile reads from or writes into, with its position.
    private final class Memory {
        var bytes: [UInt8]
        var position = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    /// libsndfile's virtual I/O over a `Memory` (seeks clamp to 0…its length); each open takes
    /// its own copy, as libsndfile asks for a mutable pointer.
    private static let callbacks = SF_VIRTUAL_IO(
        get_filelen: { user in Int64(memory(user).bytes.count) },
        seek: { offset, whence, user in
            let m = memory(user)
            let base = whence == SEEK_CUR ? m.position : whence == SEEK_END ? m.bytes.count : 0
            m.position = Int(max(0, min(Int64(m.bytes.count), Int64(base) + offset)))
            return Int64(m.position)
        },
        read: { pointer, count, user in
            let m = memory(user)
            let n = max(0, min(Int(count), m.bytes.count - m.position))
            if n > 0, let pointer {
                m.bytes.withUnsafeBytes { pointer.copyMemory(from: $0.baseAddress! + m.position, byteCount: n) }
            }
            m.position += n
            return Int64(n)
        },
        write: { pointer, count, user in
            let m = memory(user)
            guard let pointer, count > 0 else { return 0 }
            let source = UnsafeRawBufferPointer(start: pointer, count: Int(count))
            let end = m.position + Int(count)
            if end > m.bytes.count { m.bytes += [UInt8](repeating: 0, count: end - m.bytes.count) }
            m.bytes.replaceSubrange(m.position..<end, with: source)
            m.position = end
            return count
        },
        tell: { user in Int64(memory(user).position) })

    private static func memory(_ user: UnsafeMutableRawPointer?) -> Memory {
        Unmanaged<Memory>.fromOpaque(user!).takeUnretainedValue()
    }

    public static func encodeVorbis(channels: Int, sampleRate: Int, quality: Double,
                             _ produce: ((UnsafeBufferPointer<Float>) throws -> Void) throws -> Void) throws -> [UInt8] {
        let memory = Memory([])
        var io = callbacks
        var info = SF_INFO(frames: 0, samplerate: Int32(sampleRate), channels: Int32(channels),
                           format: Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS), sections: 0, seekable: 0)
        guard let handle = sf_open_virtual(&io, Int32(SFM_WRITE), &info, Unmanaged.passUnretained(memory).toOpaque()) else {
            throw FormatWriteError("libsndfile cannot write Ogg Vorbis with \(channels) channels at \(sampleRate) Hz")
        }
        var closed = false
        defer { if !closed { sf_close(handle) } }
        var q = quality
        guard sf_command(handle, Int32(SFC_SET_VBR_ENCODING_QUALITY), &q, Int32(MemoryLayout<Double>.size)) == SF_TRUE else {
            throw FormatWriteError("libsndfile refuses Vorbis quality \(quality)")
        }
        try produce { block in
            let frames = block.count / channels
            guard frames > 0 else { return }
            guard sf_writef_float(handle, block.baseAddress, Int64(frames)) == Int64(frames) else {
                throw FormatWriteError("libsndfile failed writing Vorbis frames")
            }
        }
        closed = true
        guard sf_close(handle) == 0 else { throw FormatWriteError("libsndfile failed finishing the Vorbis stream") }
        withExtendedLifetime(memory) {}
        return memory.bytes
    }

    @discardableResult
    public static func decode(_ bytes: [UInt8], maxFrames: Int,
                       _ body: (UnsafeBufferPointer<Float>) throws -> Void) throws -> (channels: Int, sampleRate: Int) {
        let memory = Memory(bytes)
        var io = callbacks
        var info = SF_INFO()
        // libsndfile's own reason is kept in one slot for the whole process (see
        // AudioFileReader): the message says what failed, not its words.
        guard let handle = sf_open_virtual(&io, Int32(SFM_READ), &info, Unmanaged.passUnretained(memory).toOpaque()) else {
            throw FormatReadError(location: "", message: "libsndfile cannot decode the Ogg stream")
        }
        defer { sf_close(handle) }
        let channels = Int(info.channels)
        guard channels > 0, info.samplerate > 0 else { throw FormatReadError(location: "", message: "the stream has no channels or no sample rate") }
        let blockFrames = 4096
        var block = [Float](repeating: 0, count: blockFrames * channels)
        var total = 0
        while true {
            let got = Int(block.withUnsafeMutableBufferPointer { sf_readf_float(handle, $0.baseAddress, Int64(blockFrames)) })
            guard got > 0 else { break }
            total += got
            guard total <= maxFrames else {
                throw FormatReadError(location: "", message: "decodes to more than \(maxFrames) frames")
            }
            try block.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<(got * channels)])) }
        }
        guard sf_error(handle) == 0 else { throw FormatReadError(location: "frame \(total)", message: "the audio data is damaged") }
        withExtendedLifetime(memory) {}
        return (channels, Int(info.samplerate))
    }
}
