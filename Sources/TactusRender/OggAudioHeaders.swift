import TactusCore

/// The header packets of an Ogg Vorbis or Ogg Opus stream that say what it holds: the
/// identification header (codec, channels, rate) and the comment header (`KEY=value` entries,
/// Vorbis comments; Android reads `ANDROID_HAPTIC` there). Parsed from untrusted packets, every
/// length checked against the packet.
///
/// Vorbis (Vorbis I specification, §4.2 and §5): identification = type 1, `vorbis`, version 0
/// (32 bits), channels (8), rate (32), …; comment = type 3, `vorbis`, vendor length (32) and
/// vendor, entry count (32), each entry a length (32) and UTF-8, then a framing bit (1).
/// Opus (RFC 7845): `OpusHead`, version, channels (8), pre-skip (16), input rate (32), …
/// (decoded at 48 kHz whatever the input rate); `OpusTags`, then the same vendor and entries,
/// no framing bit. All numbers little-endian.
struct OggAudioHeaders: Equatable {
    /// The codec of the stream.
    enum Codec: String { case vorbis = "Vorbis", opus = "Opus" }

    /// Vorbis or Opus.
    var codec: Codec
    /// Channels of the stream, sound and haptic together (1…255).
    var channels: Int
    /// Frames per second the stream decodes at, Hz (Opus: always 48 000).
    var sampleRate: Int
    /// The comment header's vendor string.
    var vendor: String
    /// The comment entries, in order, as written (`KEY=value`; keys are case-insensitive).
    var comments: [String]

    /// Header packets a stream of `codec` has before its audio.
    static func headerCount(_ codec: Codec) -> Int { codec == .vorbis ? 3 : 2 }

    /// The codec a stream's first packet names.
    /// - Parameter first: the stream's first packet.
    /// - Returns: the codec, or nil for neither.
    static func codec(of first: [UInt8]) -> Codec? {
        if first.count >= 7, first[0] == 1, Array(first[1..<7]) == Array("vorbis".utf8) { return .vorbis }
        if first.count >= 8, Array(first[0..<8]) == Array("OpusHead".utf8) { return .opus }
        return nil
    }

    /// Parses the identification and comment packets.
    /// - Parameters:
    ///   - identification: the stream's first packet.
    ///   - comment: its second.
    /// - Throws: `FormatReadError` naming the packet and what is wrong in it.
    init(identification: [UInt8], comment: [UInt8]) throws {
        guard let codec = Self.codec(of: identification) else {
            throw FormatReadError(location: "identification header", message: "neither Vorbis nor Opus")
        }
        self.codec = codec
        var reader = PacketReader(bytes: identification, place: "identification header")
        switch codec {
        case .vorbis:
            reader.at = 7
            guard try reader.number(4) == 0 else { throw FormatReadError(location: reader.place, message: "Vorbis version other than 0") }
            channels = Int(try reader.number(1))
            sampleRate = Int(try reader.number(4))
        case .opus:
            reader.at = 9
            channels = Int(try reader.number(1))
            _ = try reader.number(2)
            _ = try reader.number(4)
            sampleRate = 48_000
        }
        guard channels > 0 else { throw FormatReadError(location: reader.place, message: "0 channels") }
        guard sampleRate > 0 else { throw FormatReadError(location: reader.place, message: "a sample rate of 0 Hz") }
        var tags = PacketReader(bytes: comment, place: "comment header")
        let magic: [UInt8] = codec == .vorbis ? [3] + Array("vorbis".utf8) : Array("OpusTags".utf8)
        guard comment.starts(with: magic) else {
            throw FormatReadError(location: tags.place, message: "not a \(codec.rawValue) comment header")
        }
        tags.at = magic.count
        vendor = try tags.string()
        let count = try tags.number(4)
        // Each entry takes at least its 4-byte length: a count beyond that is a lie.
        guard count <= UInt64((comment.count - tags.at) / 4) else {
            throw FormatReadError(location: tags.place, message: "\(count) entries cannot fit in \(comment.count) bytes")
        }
        comments = try (0..<count).map { _ in try tags.string() }
    }

    /// The value of the first entry with `key` (case-insensitive), if any.
    /// - Parameter key: an entry's key, e.g. `ANDROID_HAPTIC`.
    /// - Returns: the text after `=`.
    func value(of key: String) -> String? {
        let prefix = key.lowercased() + "="
        return comments.first { $0.lowercased().hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// A Vorbis comment header holding `vendor` and `comments`, with its framing bit.
    /// - Parameters:
    ///   - vendor: the vendor string (the encoder's).
    ///   - comments: `KEY=value` entries, in order.
    /// - Returns: the packet.
    static func vorbisComment(vendor: String, comments: [String]) -> [UInt8] {
        var packet: [UInt8] = [3] + Array("vorbis".utf8)
        func string(_ text: String) {
            packet += OggPages.bytes(UInt64(text.utf8.count), 4) + Array(text.utf8)
        }
        string(vendor)
        packet += OggPages.bytes(UInt64(comments.count), 4)
        comments.forEach(string)
        return packet + [1]
    }

    /// Reads little-endian numbers and length-prefixed strings from a packet, never past its end.
    private struct PacketReader {
        let bytes: [UInt8]
        let place: String
        var at = 0

        mutating func number(_ count: Int) throws -> UInt64 {
            guard bytes.count - at >= count else { throw FormatReadError(location: place, message: "cut short") }
            defer { at += count }
            return OggPages.littleEndian(bytes, at, count)
        }

        mutating func string() throws -> String {
            let length = try number(4)
            guard length <= UInt64(bytes.count - at) else {
                throw FormatReadError(location: place, message: "a string of \(length) bytes runs past the packet's end")
            }
            defer { at += Int(length) }
            return String(decoding: bytes[at..<(at + Int(length))], as: UTF8.self)
        }
    }
}
