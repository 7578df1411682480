import TactusCore
import TactusPlatform

/// A 16-bit PCM WAV file written as bytes, header first, then interleaved frames block by block:
/// deterministic (no date, no chunk but `fmt ` and `data`) and streaming (the frame count is
/// known before the first sample). Read back by `PCMWAVReader`. The one 16-bit WAV writer
/// of Foundation only: the rendered formats and `tactus tune`'s page audio (`file(_:sampleRate:)`);
/// paired audio in the source's own encoding goes through libsndfile (`TactusAudio.WAVWriter`).
public struct PCMWAVWriter {
    let sampleRate: Int, channels: Int, frames: Int

    /// Largest data chunk a plain WAV's 32-bit sizes hold.
    static let maxDataBytes = Int(UInt32.max) - 36

    /// - Throws: `FormatWriteError` when the samples would not fit a WAV's 32-bit sizes.
    init(sampleRate: Int, channels: Int, frames: Int) throws {
        guard frames * channels * 2 <= Self.maxDataBytes else {
            throw FormatWriteError("\(frames) frames of \(channels) channels exceed a WAV file's 4 GB")
        }
        (self.sampleRate, self.channels, self.frames) = (sampleRate, channels, frames)
    }

    /// The 44-byte RIFF/WAVE header of a PCM file of these frames.
    var header: [UInt8] {
        let dataBytes = frames * channels * 2
        var bytes: [UInt8] = []
        func text(_ s: String) { bytes += Array(s.utf8) }
        func u32(_ v: Int) { bytes += (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        func u16(_ v: Int) { bytes += (0..<2).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        text("RIFF"); u32(36 + dataBytes); text("WAVE")
        text("fmt "); u32(16); u16(1); u16(channels); u32(sampleRate); u32(sampleRate * channels * 2)
        u16(channels * 2); u16(16)
        text("data"); u32(dataBytes)
        return bytes
    }

    /// A sample −1…1 as 16-bit PCM: scaled by 32767, rounded half away from zero, clipped.
    static func pcm16(_ x: Float) -> Int16 {
        let scaled = (Double(x) * 32767).rounded()
        return scaled >= 32767 ? 32767 : scaled <= -32768 ? -32768 : Int16(scaled.isNaN ? 0 : scaled)
    }

    /// A whole mono file in memory, for a caller that holds every sample.
    /// - Parameters:
    ///   - samples: the samples, −1…1 (clipped beyond it).
    ///   - sampleRate: samples per second.
    /// - Returns: the file's bytes, header first.
    /// - Throws: `FormatWriteError` when the samples would not fit a WAV's 32-bit sizes.
    public static func file(_ samples: [Float], sampleRate: Int) throws -> [UInt8] {
        var bytes = try PCMWAVWriter(sampleRate: sampleRate, channels: 1, frames: samples.count).header
        var scratch: [UInt8] = []
        samples.withUnsafeBufferPointer { emit($0, into: &scratch) { bytes += $0 } }
        return bytes
    }

    /// Hands `emit` the little-endian bytes of interleaved samples.
    static func emit(_ samples: UnsafeBufferPointer<Float>, into scratch: inout [UInt8],
                     _ emit: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        scratch.removeAll(keepingCapacity: true)
        for x in samples {
            let v = UInt16(bitPattern: pcm16(x))
            scratch.append(UInt8(truncatingIfNeeded: v))
            scratch.append(UInt8(truncatingIfNeeded: v >> 8))
        }
        try scratch.withUnsafeBytes { try emit($0) }
    }
}

/// A 16-bit PCM WAV's samples, read from untrusted bytes: only the `fmt ` and `data` chunks
/// are read (others skipped), the sizes checked against the file's length. Samples are read
/// from the bytes as asked for (`sample(_:channel:)`), not converted all at once.
struct PCMWAVReader {
    let sampleRate: Int, channels: Int
    /// Whole frames the data chunk holds.
    let frames: Int
    /// Bytes the data chunk holds past its last whole frame (0 in a well-formed file).
    let partialFrameBytes: Int
    private let bytes: [UInt8]
    private let dataStart: Int

    /// Interleaved samples, −1…1.
    var samples: [Float] { (0..<(frames * channels)).map { sample($0 / channels, channel: $0 % channels) } }

    /// Sample `frame` of `channel` (from 0), −1…1 (−32768 reads −1).
    func sample(_ frame: Int, channel: Int) -> Float {
        let at = dataStart + 2 * (frame * channels + channel)
        return Float(Int16(bitPattern: UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8)) / 32768
    }

    /// Sample `frame` of `channel` as the 16-bit integer stored.
    func integer(_ frame: Int, channel: Int) -> Int16 {
        let at = dataStart + 2 * (frame * channels + channel)
        return Int16(bitPattern: UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8)
    }

    /// - Throws: `FormatReadError` naming what is wrong (not RIFF/WAVE, not 16-bit PCM, a
    ///   chunk running past the end, no data).
    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8) else {
            throw FormatReadError(location: "", message: "not a RIFF/WAVE file")
        }
        var at = 12
        var format: (rate: Int, channels: Int)?
        var data: Range<Int>?
        while at + 8 <= bytes.count, data == nil {
            let size = u32(at + 4), body = at + 8
            guard size <= bytes.count - body else {
                throw FormatReadError(location: "byte \(at)", message: "chunk runs past the end of the file")
            }
            switch String(decoding: bytes[at..<(at + 4)], as: UTF8.self) {
            case "fmt ":
                guard size >= 16, u16(body) == 1, u16(body + 14) == 16 else {
                    throw FormatReadError(location: "byte \(at)", message: "not 16-bit integer PCM")
                }
                let channels = u16(body + 2), rate = u32(body + 4)
                guard (1...64).contains(channels), (1_000...768_000).contains(rate) else {
                    throw FormatReadError(location: "byte \(at)", message: "\(channels) channels at \(rate) Hz is not a sound")
                }
                format = (rate, channels)
            case "data": data = body..<(body + size)
            default: break
            }
            at = body + size + size % 2
        }
        guard let format else { throw FormatReadError(location: "", message: "no fmt chunk before the data") }
        guard let data else { throw FormatReadError(location: "", message: "no data chunk") }
        (sampleRate, channels) = format
        frames = data.count / (2 * format.channels)
        partialFrameBytes = data.count - frames * 2 * format.channels
        (self.bytes, dataStart) = (bytes, data.lowerBound)
    }
}
