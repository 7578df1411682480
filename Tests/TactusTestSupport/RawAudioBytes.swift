import Foundation

/// Byte-level builders for files libsndfile will not write: broken or unusual headers,
/// extra chunks, float samples that are not numbers, tags and non-audio data. Tests
/// generate these instead of committing binaries, so each case says what it contains.
public enum RawAudioBytes {
    /// A RIFF chunk: 4-character id, little-endian size (the body's, unless a header is to
    /// lie), body, pad byte when the body's size is odd.
    public static func chunk(_ id: String, _ body: Data, declaredSize: UInt32? = nil) -> Data {
        var out = Data(id.utf8)
        out += le32(declaredSize ?? UInt32(body.count))
        out += body
        if body.count % 2 == 1 { out.append(0) }
        return out
    }

    /// A WAV file. Every field a corrupt header might get wrong can be set on its own.
    public struct WAV {
        /// 1 = integer PCM, 3 = IEEE float.
        public var formatTag: UInt16 = 1
        public var channels: UInt16 = 1
        public var sampleRate: UInt32 = 44_100
        public var bitsPerSample: UInt16 = 16
        /// The sample bytes, interleaved.
        public var data = Data()
        /// Size written in the `data` chunk header; nil writes the true size.
        public var declaredDataSize: UInt32?
        /// Chunks placed between `fmt ` and `data`, and after `data`.
        public var chunksBeforeData: [Data] = []
        public var chunksAfterData: [Data] = []

        public init() {}

        public var bytes: Data {
            let blockAlign = channels &* (bitsPerSample / 8)
            var fmt = le16(formatTag) + le16(channels) + le32(sampleRate)
            fmt += le32(sampleRate &* UInt32(blockAlign)) + le16(blockAlign) + le16(bitsPerSample)
            let body = Data("WAVE".utf8) + chunk("fmt ", fmt) + chunksBeforeData.reduce(Data(), +)
                + chunk("data", data, declaredSize: declaredDataSize) + chunksAfterData.reduce(Data(), +)
            return Data("RIFF".utf8) + le32(UInt32(body.count)) + body
        }
    }

    /// A mono 32-bit float WAV holding exactly these values (NaN and infinities included).
    public static func floatWAV(_ samples: [Float], sampleRate: UInt32 = 44_100) -> Data {
        var wav = WAV()
        wav.formatTag = 3
        wav.bitsPerSample = 32
        wav.sampleRate = sampleRate
        wav.data = samples.reduce(into: Data()) { $0 += le32($1.bitPattern) }
        return wav.bytes
    }

    /// 16-bit PCM bytes of samples in -1…1.
    public static func pcm16(_ samples: [Float]) -> Data {
        samples.reduce(into: Data()) { out, x in
            out += le16(UInt16(bitPattern: Int16(max(-1, min(1, x)) * 32767)))
        }
    }

    /// An ID3v2.3 tag with a title and a front-cover picture (APIC) of `picture` bytes, as
    /// music software writes in front of an MP3.
    public static func id3v2(title: String, picture: Data, mimeType: String = "image/png") -> Data {
        func frame(_ id: String, _ body: Data) -> Data {
            Data(id.utf8) + be32(UInt32(body.count)) + Data([0, 0]) + body
        }
        let text = frame("TIT2", Data([3]) + Data(title.utf8))  // 3 = UTF-8
        let apic = frame("APIC", Data([3]) + Data(mimeType.utf8) + Data([0, 3]) + Data("cover".utf8) + Data([0]) + picture)
        let frames = text + apic
        return Data("ID3".utf8) + Data([3, 0, 0]) + synchsafe(UInt32(frames.count)) + frames
    }

    /// A small but complete PNG image (a flat-colour square), the kind of cover art that
    /// ends up renamed to `.mp3` or `.wav`.
    public static func png(side: UInt32 = 16) -> Data {
        let row = Data([0]) + Data(repeating: 0x80, count: Int(side) * 3)
        let pixels = Data((0..<side).flatMap { _ in row })
        let header = be32(side) + be32(side) + Data([8, 2, 0, 0, 0])
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            + pngChunk("IHDR", header) + pngChunk("IDAT", zlibStored(pixels)) + pngChunk("IEND", Data())
    }

    /// Deterministic noise bytes.
    public static func randomBytes(_ count: Int, seed: UInt64) -> Data {
        var rng = SeededGenerator(seed: seed)
        return Data((0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
    }

    // MARK: Encoding helpers

    public static func le16(_ v: UInt16) -> Data { Data([UInt8(v & 0xFF), UInt8(v >> 8)]) }
    public static func le32(_ v: UInt32) -> Data { Data((0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) }) }
    public static func be32(_ v: UInt32) -> Data { Data((0..<4).reversed().map { UInt8((v >> (8 * $0)) & 0xFF) }) }

    static func synchsafe(_ v: UInt32) -> Data {
        Data([UInt8((v >> 21) & 0x7F), UInt8((v >> 14) & 0x7F), UInt8((v >> 7) & 0x7F), UInt8(v & 0x7F)])
    }

    static func pngChunk(_ type: String, _ body: Data) -> Data {
        let typed = Data(type.utf8) + body
        return be32(UInt32(body.count)) + typed + be32(crc32(typed))
    }

    /// zlib stream with one stored (uncompressed) block: valid without a compressor.
    static func zlibStored(_ data: Data) -> Data {
        let length = UInt16(data.count)
        var out = Data([0x78, 0x01, 0x01]) + le16(length) + le16(~length) + data
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        out += be32(b << 16 | a)
        return out
    }

    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
