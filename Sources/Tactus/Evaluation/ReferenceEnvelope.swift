import Foundation
import TactusAnalysis
import TactusAudio

/// The audio's own loudness and brightness on a 10 ms grid, measured independently of any
/// preset, as the yardstick the haptics are compared with.
///
/// Loudness: RMS of each 10 ms block in dB, mapped to 0…1 over the 60 dB below the file's
/// loudest block. Brightness: log2 of the spectral centroid (20 Hz…20 kHz) of a 20 ms Hann
/// frame centred on each block.
public struct ReferenceEnvelope {
    public static let hopSeconds = 0.01
    public static let rangeDb = 60.0

    public var loudness: [Double] = []
    public var levelDb: [Double] = []
    public var logCentroid: [Double] = []
    public var duration = 0.0

    public static func measure(_ url: URL) throws -> ReferenceEnvelope {
        let reader = try AudioFileReader(url: url)
        let sr = reader.format.sampleRate
        let channels = reader.format.channels
        let hop = max(1, Int((hopSeconds * sr).rounded()))
        let stft = STFT(geometry: FrameGeometry(sampleRate: sr, windowMs: 20, hopMs: hopSeconds * 1000))
        var envelope = ReferenceEnvelope()
        var block = [Float](repeating: 0, count: 4096 * channels)
        var mono = [Float](repeating: 0, count: 4096)
        var power = 0.0, filled = 0, total = 0
        func frame(_ f: SpectralFrame) {
            let c = Double(CentroidAnalyzer.centroid(of: f, minHz: 20, maxHz: 20000))
            envelope.logCentroid.append(c > 0 ? log2(c) : 0)
        }
        while true {
            let n = try block.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
            if n == 0 { break }
            block.withUnsafeBufferPointer { b in mono.withUnsafeMutableBufferPointer { Mixdown.mono(b, frames: n, channels: channels, into: $0) } }
            for i in 0..<n {
                power += Double(mono[i]) * Double(mono[i])
                filled += 1
                if filled == hop {
                    envelope.levelDb.append(10 * log10(max(power / Double(hop), 1e-14)))
                    power = 0
                    filled = 0
                }
            }
            total += n
            mono.withUnsafeBufferPointer { stft.push(UnsafeBufferPointer(rebasing: $0[0..<n]), frame) }
        }
        if filled > 0 { envelope.levelDb.append(10 * log10(max(power / Double(filled), 1e-14))) }
        stft.finish(frame)
        envelope.duration = Double(total) / sr
        let loudest = envelope.levelDb.max() ?? -140
        envelope.loudness = envelope.levelDb.map { min(1, max(0, ($0 - loudest + rangeDb) / rangeDb)) }
        let count = min(envelope.loudness.count, envelope.logCentroid.count)
        envelope.loudness = Array(envelope.loudness.prefix(count))
        envelope.levelDb = Array(envelope.levelDb.prefix(count))
        envelope.logCentroid = Array(envelope.logCentroid.prefix(count))
        return envelope
    }
}
