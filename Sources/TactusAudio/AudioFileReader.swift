import CSndFile
import TactusCore
import TactusFiles
import TactusPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a file's header says about its audio.
public struct AudioFormat: Equatable, Sendable {
    /// Frames per second, in Hz (1 kHz…768 kHz once `AudioFileReader` accepted the file).
    public var sampleRate: Double
    /// Interleaved channels per frame (1…`AudioFileReader.maxChannels`).
    public var channels: Int
    /// Frame count from the header (libsndfile's; for some compressed formats an estimate).
    public var frames: Int64
    /// Container, e.g. "WAV", "FLAC", "OGG", "MP3" (libsndfile's major format name).
    public var container: String
    /// Sample encoding, e.g. "PCM_16", "FLOAT", "VORBIS".
    public var encoding: String
    /// Raw libsndfile format word, for writers that want to mirror it.
    public var formatCode: Int32

    /// Length in seconds, from the header's frame count.
    public var duration: Double { Double(frames) / sampleRate }
}

/// Streams interleaved float frames from any file libsndfile reads, block by block.
///
/// Opens read-only: the source is never modified. Every failure becomes an `AudioError`.
public final class AudioFileReader {
    /// The file being read.
    public let url: URL
    /// The header's sample rate, channels, frame count, container and encoding.
    public let format: AudioFormat
    private let handle: OpaquePointer
    /// Frames delivered so far, to say where a damaged stream stopped decoding.
    private var framesRead = 0

    /// Sample rates and channel counts outside these are refused as absurd (a corrupt header).
    public static let sampleRates: ClosedRange<Double> = 1_000...768_000
    /// The most channels a file may have (more is refused as a corrupt header).
    public static let maxChannels = 64

    /// libsndfile's refusals that name its own internals or send the user looking for the
    /// wrong fault, matched by prefix, and what they mean for a regular file with data in it.
    static let libsndfileRewordings: [(said: String, meaning: String)] = [
        // Said of a stream it cannot start reading: an MP3 cut after a few hundred bytes.
        ("File does not exist or is not a regular file", "too short or damaged to start reading"),
        // Said when the header leaves the sample rate at 0 (no channels has a message of its own).
        ("Internal error : SF_INFO struct incomplete", "its header gives a sample rate of 0 Hz"),
    ]

    /// Opens `url` and reads its header.
    ///
    /// - Parameter exclusive: open while no other exclusive open runs, so that a refusal
    ///   gives this file's reason. libsndfile keeps the reason an open failed in one slot for
    ///   the whole process, which every open on any thread rewrites (a success to "No
    ///   Error."). Pass false only to open many files at once while nothing else opens any,
    ///   and open each one refused again, exclusively, for its reason.
    /// - Parameter url: the file; opened read-only, and only when it is a regular file.
    /// - Throws: an `AudioError`: `.notFound`, `.isDirectory`, `.unreadable`, `.empty`, `.notAudio`
    ///   (libsndfile's reason, reworded where it misleads) or `.unsupported` (sample rate outside
    ///   `sampleRates`, channels outside 1…`maxChannels`).
    public init(url: URL, exclusive: Bool = true) throws {
        self.url = url
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw AudioError(.notFound, "no such file", hint: "check the path")
        }
        guard !isDirectory else {
            throw AudioError(.isDirectory, "is a directory, not an audio file", hint: "tactus batch converts a folder")
        }
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw AudioError(.unreadable, "cannot be read (permission denied)")
        }
        // Opened by descriptor, libsndfile recognises formats by content only. By path it
        // falls back on the extension and hands any unrecognised `.mp3` to libmpg123,
        // which prints resync notes on standard error while it fails. Only regular files:
        // a FIFO or a device would block or never end.
        let descriptor: Int32
        do { descriptor = try InputFile.openRegular(url) } catch let error as FileError {
            throw AudioError(.unreadable, error.reason, hint: error.hint)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 0 else {
            close(descriptor)
            throw AudioError(.empty, "is empty (0 bytes)")
        }
        var info = SF_INFO()
        let (opened, said) = exclusive ? Self.openLock.withLock { Self.open(descriptor, &info) } : Self.open(descriptor, &info)
        guard let handle = opened else {
            let message = Self.libsndfileRewordings.first { said.hasPrefix($0.said) }?.meaning ?? said
            throw AudioError(.notAudio, "is not audio libsndfile can read: \(message)",
                             hint: "supported: WAV, AIFF, CAF, FLAC, OGG Vorbis/Opus, MP3, W64, RF64 and more")
        }
        self.handle = handle
        // Float reads of integer files come back in -1…1; clip float-to-int on write.
        sf_command(handle, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        format = AudioFormat(sampleRate: Double(info.samplerate), channels: Int(info.channels), frames: info.frames,
                             container: Self.name(ofMajor: info.format & Int32(SF_FORMAT_TYPEMASK)),
                             encoding: Self.name(ofSubtype: info.format & Int32(SF_FORMAT_SUBMASK)),
                             formatCode: info.format)
        // Fully initialised from here on: a throw runs deinit, which closes the handle (and
        // with it the descriptor).
        guard Self.sampleRates.contains(format.sampleRate) else {
            throw AudioError(.unsupported, "has an implausible sample rate of \(info.samplerate) Hz",
                             hint: "expected 1 kHz…768 kHz")
        }
        guard (1...Self.maxChannels).contains(format.channels) else {
            throw AudioError(.unsupported, "has \(info.channels) channels",
                             hint: "Tactus reads 1…\(Self.maxChannels) channels")
        }
        guard info.frames > 0 else {
            throw AudioError(.empty, "holds no audio frames", hint: "the header says the file has no samples")
        }
    }

    deinit {
        sf_close(handle)
    }

    /// Held around exclusive opens (see `init(url:exclusive:)`).
    private static let openLock = Lock()

    /// libsndfile's handle for `descriptor`, or nil and the reason it gave. The descriptor is
    /// libsndfile's from here: `sf_close` closes it, and so does a failed open (libsndfile
    /// 1.2 does even when told not to, so closing it again here could close a file another
    /// thread has just opened under the same number).
    private static func open(_ descriptor: Int32, _ info: inout SF_INFO) -> (OpaquePointer?, String) {
        let handle = sf_open_fd(descriptor, Int32(SFM_READ), &info, Int32(SF_TRUE))
        return (handle, handle == nil ? String(cString: sf_strerror(nil)) : "")
    }

    /// Reads up to `buffer.count / channels` interleaved frames; returns frames read (0 at the end).
    /// Samples come back in −1…1 for integer files, as stored for float files.
    /// - Parameter buffer: room for interleaved samples; a whole number of frames is filled.
    /// - Returns: the frames read; fewer than asked only at the end of the file.
    /// - Throws: `AudioError.Kind.decodeFailed` where the stream is damaged, naming the time in
    ///   seconds where decoding stopped.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        try checked(wanted: buffer.count / format.channels) { sf_readf_float(handle, buffer.baseAddress, $0) }
    }

    /// Whether `read(into:)` with 16-bit integers loses nothing: the file holds 16-bit PCM.
    public var isSixteenBit: Bool { format.encoding == "PCM_16" }

    /// Reads 16-bit integer frames, as stored in a 16-bit file: libsndfile then only copies,
    /// where float reads convert every sample.
    /// Meant for files where `isSixteenBit` is true (others are converted by libsndfile).
    /// - Parameter buffer: room for interleaved samples; a whole number of frames is filled.
    /// - Returns: the frames read (0 at the end of the file).
    /// - Throws: `AudioError.Kind.decodeFailed` where the stream is damaged.
    public func read(into buffer: UnsafeMutableBufferPointer<Int16>) throws -> Int {
        try checked(wanted: buffer.count / format.channels) { sf_readf_short(handle, buffer.baseAddress, $0) }
    }

    private func checked(wanted: Int, _ read: (sf_count_t) -> sf_count_t) throws -> Int {
        let got = Int(read(sf_count_t(wanted)))
        if got < wanted, sf_error(handle) != 0 {
            let stopped = Double(framesRead + max(0, got)) / format.sampleRate
            throw AudioError(.decodeFailed, String(printf: "could not be decoded past %.2f s of %.2f s: the file is damaged there",
                                                   stopped, format.duration)
                                 + " (libsndfile: \(String(cString: sf_strerror(handle))))")
        }
        framesRead += got
        return got
    }

    /// Whether Apple platforms play this container/encoding as it is, so it can be paired unchanged.
    public var isApplePlayable: Bool {
        let containers: Set<String> = ["WAV", "AIFF", "CAF"]
        let encodings: Set<String> = ["PCM_S8", "PCM_U8", "PCM_16", "PCM_24", "PCM_32", "FLOAT", "DOUBLE",
                                      "ULAW", "ALAW", "IMA_ADPCM"]
        return containers.contains(format.container) && encodings.contains(format.encoding)
    }

    static func name(ofMajor code: Int32) -> String {
        switch code {
        case Int32(SF_FORMAT_WAV): return "WAV"
        case Int32(SF_FORMAT_WAVEX): return "WAV"
        case Int32(SF_FORMAT_AIFF): return "AIFF"
        case Int32(SF_FORMAT_CAF): return "CAF"
        case Int32(SF_FORMAT_FLAC): return "FLAC"
        case Int32(SF_FORMAT_OGG): return "OGG"
        case Int32(SF_FORMAT_MPEG): return "MP3"
        case Int32(SF_FORMAT_W64): return "W64"
        case Int32(SF_FORMAT_RF64): return "RF64"
        case Int32(SF_FORMAT_AU): return "AU"
        case Int32(SF_FORMAT_RAW): return "RAW"
        default: return String(printf: "0x%06X", code)
        }
    }

    static func name(ofSubtype code: Int32) -> String {
        switch code {
        case Int32(SF_FORMAT_PCM_S8): return "PCM_S8"
        case Int32(SF_FORMAT_PCM_U8): return "PCM_U8"
        case Int32(SF_FORMAT_PCM_16): return "PCM_16"
        case Int32(SF_FORMAT_PCM_24): return "PCM_24"
        case Int32(SF_FORMAT_PCM_32): return "PCM_32"
        case Int32(SF_FORMAT_FLOAT): return "FLOAT"
        case Int32(SF_FORMAT_DOUBLE): return "DOUBLE"
        case Int32(SF_FORMAT_ULAW): return "ULAW"
        case Int32(SF_FORMAT_ALAW): return "ALAW"
        case Int32(SF_FORMAT_IMA_ADPCM): return "IMA_ADPCM"
        case Int32(SF_FORMAT_MS_ADPCM): return "MS_ADPCM"
        case Int32(SF_FORMAT_VORBIS): return "VORBIS"
        case Int32(SF_FORMAT_OPUS): return "OPUS"
        case Int32(SF_FORMAT_MPEG_LAYER_III): return "MPEG_LAYER_III"
        case Int32(SF_FORMAT_MPEG_LAYER_II): return "MPEG_LAYER_II"
        case Int32(SF_FORMAT_MPEG_LAYER_I): return "MPEG_LAYER_I"
        default: return String(printf: "0x%04X", code)
        }
    }
}
