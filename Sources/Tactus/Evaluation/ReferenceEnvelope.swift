import TactusCore
import TactusAnalysis
import TactusAudio
import TactusSpectrum
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
/// loudest block. A block in which a sound starts (`SoundActivity.starts`: the first audible
/// sample after silence) is measured from that sample on (`spanStart`), so its level is the
/// sound's and not the sound's diluted by the silence before it. Brightness: log2 of the
/// spectral centroid (20 Hz…20 kHz) of a 20 ms Hann frame centred on each block's start.
///
/// Frames, for `Movement`: the RMS of the 20 ms centred on each block's start (the centroid
/// frame's span; samples before the audio count as silence), in dB, and mapped 0…1 over the
/// `rangeDb` below the loudest frame.
public struct ReferenceEnvelope {
    /// Block length and grid step, in seconds.
    public static let hopSeconds = 0.01
    /// The span of levels below the loudest block that `loudness` maps onto 0…1, in dB.
    public static let rangeDb = 60.0

    /// Per block, 0…1: the level over the `rangeDb` below the loudest block.
    public var loudness: [Double] = []
    /// Per block, the RMS level in dBFS.
    public var levelDb: [Double] = []
    /// Per frame (centred on block k's start), the RMS level of its 20 ms in dBFS.
    public var frameLevelDb: [Double] = []
    /// Per frame, 0…1: `frameLevelDb` over the `rangeDb` below the loudest frame.
    public var frameLoudness: [Double] = []
    /// Per block, log2 of the spectral centroid in Hz.
    public var logCentroid: [Double] = []
    /// Per block, in seconds, where the span its level measures begins: the block's start, or
    /// the first audible sample of a sound that starts inside it. The span ends with the block
    /// (at `duration` for the last one).
    public var spanStart: [Double] = []
    /// The audio's length in seconds.
    public var duration = 0.0

    /// An envelope from its measurements: `levelDb` and `logCentroid` per 10 ms block (the
    /// shorter list decides the count), the audio's length in seconds.
    /// - Parameters:
    ///   - levelDb: RMS level per block, in dBFS, each over its span.
    ///   - logCentroid: log2 of the centroid in Hz, per block.
    ///   - spanStart: where each block's span begins, in seconds; nil for every block's start.
    ///   - frameLevelDb: the RMS level of the 20 ms centred on each block's start, in dBFS (as
    ///     many); nil to take each block's `levelDb`.
    ///   - duration: the audio's length in seconds.
    public init(levelDb: [Double], logCentroid: [Double], spanStart: [Double]? = nil, frameLevelDb: [Double]? = nil,
                duration: Double) {
        let count = min(levelDb.count, logCentroid.count)
        self.levelDb = Array(levelDb.prefix(count))
        self.logCentroid = Array(logCentroid.prefix(count))
        self.spanStart = (0..<count).map { k in spanStart.flatMap { k < $0.count ? $0[k] : nil } ?? Double(k) * Self.hopSeconds }
        self.duration = duration
        let loudest = self.levelDb.max() ?? -140
        loudness = self.levelDb.map { clampUnit(($0 - loudest + Self.rangeDb) / Self.rangeDb) }
        self.frameLevelDb = (0..<count).map { k in frameLevelDb.flatMap { k < $0.count ? $0[k] : nil } ?? self.levelDb[k] }
        let loudestFrame = self.frameLevelDb.max() ?? -140
        frameLoudness = self.frameLevelDb.map { clampUnit(($0 - loudestFrame + Self.rangeDb) / Self.rangeDb) }
    }

    /// Where block `k`'s span ends, in seconds: the block's end, or the audio's.
    /// - Parameter k: a block index.
    /// - Returns: the end of the span, in seconds.
    public func spanEnd(_ k: Int) -> Double { min(Double(k + 1) * Self.hopSeconds, duration) }

    /// Measures an audio file in one streaming pass.
    /// - Parameters:
    ///   - url: the audio file.
    ///   - sound: where its sounds start (`SoundActivity.measure` of the same file).
    /// - Returns: the envelope on the 10 ms grid.
    /// - Throws: an `AudioError` when the file cannot be opened or decoded.
    public static func measure(_ url: URL, sound: SoundActivity) throws -> ReferenceEnvelope {
        let reader = try AudioFileReader(url: url)
        let sr = reader.format.sampleRate
        let hop = max(1, Int((hopSeconds * sr).rounded()))
        let stft = STFT(geometry: FrameGeometry(sampleRate: sr, windowMs: 20, hopMs: hopSeconds * 1000), transform: FFTWRealFFT.self)
        // The sample each sound starts on; a block holding one is measured from it.
        var starts = sound.starts.map { Int(($0.time * sr).rounded()) }[...]
        var levels = BlockLevelMeter(blockFrames: hop)
        // Whole blocks, no spans: two make a frame's 20 ms.
        var blocks10 = BlockLevelMeter(blockFrames: hop)
        var logCentroid: [Double] = []
        let blocks = MonoBlockReader<Float>(reader, blockFrames: 4096)
        var total = 0
        func frame(_ f: SpectralFrame) {
            let c = Double(CentroidAnalyzer.centroid(of: f, minHz: 20, maxHz: 20000))
            logCentroid.append(c > 0 ? log2(c) : 0)
        }
        while try blocks.next({ _, mono in
            var from = 0
            while let start = starts.first, start < total + mono.count {
                let at = max(from, start - total)
                levels.push(UnsafeBufferPointer(rebasing: mono[from..<at]))
                levels.startSpan()
                from = at
                starts.removeFirst()
            }
            levels.push(UnsafeBufferPointer(rebasing: mono[from...]))
            blocks10.push(mono)
            total += mono.count
            stft.push(mono, frame)
        }) {}
        stft.finish(frame)
        let levelDb = levels.finish()
        let power = blocks10.finish().map { pow(10, $0 / 10) }
        let frameLevelDb = power.indices.map { k in 10 * log10(max(((k > 0 ? power[k - 1] : 0) + power[k]) / 2, 1e-14)) }
        return ReferenceEnvelope(levelDb: levelDb, logCentroid: logCentroid, spanStart: levels.spanStart.map { Double($0) / sr },
                                 frameLevelDb: frameLevelDb, duration: Double(total) / sr)
    }
}
