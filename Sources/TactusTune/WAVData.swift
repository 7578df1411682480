import TactusCore
import TactusPlatform

/// A mono 16-bit PCM WAV file in memory, for the page to play (`AudioContext.decodeAudioData`).
/// Samples are clipped to −1…1 and rounded to the nearest step.
enum WAVData {
    static func mono16(_ samples: [Float], sampleRate: Int) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(44 + 2 * samples.count)
        func append(_ text: String) { bytes += Array(text.utf8) }
        func append32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        func append16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        let dataBytes = UInt32(2 * samples.count)
        append("RIFF"); append32(36 + dataBytes); append("WAVE")
        append("fmt "); append32(16); append16(1); append16(1)
        append32(UInt32(sampleRate)); append32(UInt32(sampleRate * 2)); append16(2); append16(16)
        append("data"); append32(dataBytes)
        for sample in samples {
            let clipped = min(max(sample.isFinite ? sample : 0, -1), 1)
            append16(UInt16(bitPattern: Int16((clipped * 32767).rounded())))
        }
        return Data(bytes)
    }
}
