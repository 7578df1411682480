import CSndFile
import Foundation

/// Writes test audio with libsndfile in any format it can write, so decoding tests run on
/// real files of each container and encoding rather than on committed binaries.
public enum AudioFixture {
    public struct Format {
        public let code: Int32
        public let fileExtension: String

        public static let wav16 = Format(code: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16), fileExtension: "wav")
        public static let wav24 = Format(code: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_24), fileExtension: "wav")
        public static let wav32 = Format(code: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_32), fileExtension: "wav")
        public static let wavU8 = Format(code: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_U8), fileExtension: "wav")
        public static let wavFloat = Format(code: Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT), fileExtension: "wav")
        public static let wavDouble = Format(code: Int32(SF_FORMAT_WAV | SF_FORMAT_DOUBLE), fileExtension: "wav")
        public static let wavUlaw = Format(code: Int32(SF_FORMAT_WAV | SF_FORMAT_ULAW), fileExtension: "wav")
        public static let wavAlaw = Format(code: Int32(SF_FORMAT_WAV | SF_FORMAT_ALAW), fileExtension: "wav")
        public static let wavImaAdpcm = Format(code: Int32(SF_FORMAT_WAV | SF_FORMAT_IMA_ADPCM), fileExtension: "wav")
        public static let aiff16 = Format(code: Int32(SF_FORMAT_AIFF | SF_FORMAT_PCM_16), fileExtension: "aiff")
        public static let caf16 = Format(code: Int32(SF_FORMAT_CAF | SF_FORMAT_PCM_16), fileExtension: "caf")
        public static let flac16 = Format(code: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16), fileExtension: "flac")
        public static let flac24 = Format(code: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_24), fileExtension: "flac")
        public static let oggVorbis = Format(code: Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS), fileExtension: "ogg")
        public static let oggOpus = Format(code: Int32(SF_FORMAT_OGG | SF_FORMAT_OPUS), fileExtension: "opus")
        public static let mp3 = Format(code: Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III), fileExtension: "mp3")
        public static let w64 = Format(code: Int32(SF_FORMAT_W64 | SF_FORMAT_PCM_16), fileExtension: "w64")
        public static let rf64 = Format(code: Int32(SF_FORMAT_RF64 | SF_FORMAT_PCM_16), fileExtension: "wav")
    }

    /// Writes `channels` copies of `mono` (or interleaved data when `interleaved` is true).
    @discardableResult
    public static func write(_ samples: [Float], to url: URL, sampleRate: Int, channels: Int = 1,
                             format: Format = .wav16, interleaved: Bool = false) throws -> URL {
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        info.format = format.code
        guard let handle = sf_open(url.path, Int32(SFM_WRITE), &info) else {
            throw NSError(domain: "AudioFixture", code: 1,
                          userInfo: [NSLocalizedDescriptionKey: String(cString: sf_strerror(nil))])
        }
        defer { sf_close(handle) }
        let data: [Float] = interleaved || channels == 1 ? samples : samples.flatMap { Array(repeating: $0, count: channels) }
        let frames = data.count / channels
        guard sf_writef_float(handle, data, sf_count_t(frames)) == frames else {
            throw NSError(domain: "AudioFixture", code: 2,
                          userInfo: [NSLocalizedDescriptionKey: String(cString: sf_strerror(handle))])
        }
        return url
    }

    /// A fresh temporary folder, removed by the caller's `tearDown` or left for inspection.
    public static func temporaryDirectory(_ name: String = #function) -> URL {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("tactus-tests-\(safe)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
