import TactusCore
import TactusAnalysis
import TactusAudio
import TactusPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The audio's own loudness and brightness on a 10 ms grid, measured independently of any
/// preset, as the yardstick the haptics are compared with.
///
/// Loudness: RMS of each 10 ms block in dB, mapped to 0…1 over the 60 dB below the file's
/// loudest block. Brightness: log2 of the spectral centroid (20 Hz…20 kHz) of a 20 ms Hann
/// frame centred on each block.
public struct ReferenceEnvelope {
    /// Block length and grid step, in seconds.
    public static let hopSeconds = 0.01
    /// The span of levels below the loudest block that `loudness` maps onto 0…1, in dB.
    public static let rangeDb = 60.0

    /// Per block, 0…1: the level over the `rangeDb` below the loudest block.
    public var loudness: [Double] = []
    /// Per block, the RMS level in dBFS.
    public var levelDb: [Double] = []
    /// Per block, log2 of the spectral centroid in Hz.
    public var logCentroid: [Double] = []
    /// The audio's length in seconds.
    public var duration = 0.0

    /// An envelope from its measurements: `levelDb` and `logCentroid` per 10 ms block (the
    /// shorter list decides the count), the audio's length in seconds.
    /// - Parameters:
    ///   - levelDb: RMS level per block, in dBFS.
    ///   - logCentroid: log2 of the centroid in Hz, per block.
    ///   - duration: the audio's length in seconds.
    public init(levelDb: [Double], logCentroid: [Double], duration: Double) {
        let count = min(levelDb.count, logCentroid.count)
        self.levelDb = Array(levelDb.prefix(count))
        self.logCentroid = Array(logCentroid.prefix(count))
        self.duration = duration
        let loudest = self.levelDb.max() ?? -140
        loudness = self.levelDb.map { clampUnit(($0 - loudest + Self.rangeDb) / Self.rangeDb) }
    }

    /// Measures an audio file in one streaming pass.
    /// - Parameter url: the audio file.
    /// - Returns: the envelope on the 10 ms grid.
    /// - Throws: an `AudioError` when the file cannot be opened or decoded.
    public static func measure(_ url: URL) throws -> ReferenceEnvelope {
        let reader = try AudioFileReader(url: url)
        let sr = reader.format.sampleRate
        let hop = max(1, Int((hopSeconds * sr).rounded()))
        let stft = STFT(geometry: FrameGeometry(sampleRate: sr, windowMs: 20, hopMs: hopSeconds * 1000))
        var levels = BlockLevelMeter(blockFrames: hop)
        var logCentroid: [Double] = []
        let blocks = MonoBlockReader<Float>(reader, blockFrames: 4096)
        var total = 0
        func frame(_ f: SpectralFrame) {
            let c = Double(CentroidAnalyzer.centroid(of: f, minHz: 20, maxHz: 20000))
            logCentroid.append(c > 0 ? log2(c) : 0)
        }
        while try blocks.next({ _, mono in
            levels.push(mono)
            total += mono.count
            stft.push(mono, frame)
        }) {}
        stft.finish(frame)
        return ReferenceEnvelope(levelDb: levels.finish(), logCentroid: logCentroid, duration: Double(total) / sr)
    }
}
