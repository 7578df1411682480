import TactusAnalysis
import TactusCore

/// What `HapticMapper` maps: per-frame features at one frame rate (frame k centred at
/// `k * hopSeconds`), the onsets and the file's loudness and sound starts. Made from an
/// analysis (`init(_:)`), or built directly from arrays, as the mapper's tests do.
public struct MappingInput: Sendable {
    /// Seconds between frames.
    public var hopSeconds: Double
    /// The sound's length, seconds; no region ends after it.
    public var duration: Double
    /// Each frame's RMS level, dBFS (`LevelAnalyzer.output`).
    public var levelsDb: [Float]
    /// Each frame's magnitude centroid, Hz; 0 for a silent frame (`CentroidAnalyzer.output`).
    public var centroidsHz: [Float]
    /// Each frame's power centroid less its weight in the lows, log2 Hz; 0 for a silent frame
    /// (`CentroidAnalyzer.weightedOutput`).
    public var weightedOctaves: [Float]
    /// Onset times, seconds, increasing: one transient each.
    public var onsets: [Double]
    /// The loudest momentary loudness (BS.1770), LUFS: the sound's strength under
    /// normalization `loudness`.
    public var loudestMomentaryLufs: Double
    /// Where each sound begins after a silence: no region plays in the silence before one.
    public var soundStarts: [SoundStarts.Start]

    /// The input from its parts; the three per-frame arrays have one value per frame each
    /// (a precondition).
    /// - Parameters:
    ///   - hopSeconds: seconds between frames (> 0).
    ///   - duration: the sound's length, seconds.
    ///   - levelsDb: each frame's RMS level, dBFS.
    ///   - centroidsHz: each frame's magnitude centroid, Hz (0 when silent).
    ///   - weightedOctaves: each frame's weighted centroid, log2 Hz (0 when silent).
    ///   - onsets: onset times, seconds, increasing.
    ///   - loudestMomentaryLufs: the sound's loudest momentary loudness, LUFS.
    ///   - soundStarts: where each sound begins after a silence.
    public init(hopSeconds: Double, duration: Double, levelsDb: [Float], centroidsHz: [Float], weightedOctaves: [Float],
                onsets: [Double], loudestMomentaryLufs: Double, soundStarts: [SoundStarts.Start] = []) {
        precondition(centroidsHz.count == levelsDb.count && weightedOctaves.count == levelsDb.count,
                     "one value per frame in every feature")
        self.hopSeconds = hopSeconds
        self.duration = duration
        self.levelsDb = levelsDb
        self.centroidsHz = centroidsHz
        self.weightedOctaves = weightedOctaves
        self.onsets = onsets
        self.loudestMomentaryLufs = loudestMomentaryLufs
        self.soundStarts = soundStarts
    }

    /// The features `HapticMapper.inputs` names, taken from `analysis`.
    /// - Parameter analysis: the analysis of one sound.
    /// - Throws: `AnalysisResult.MissingFeature` when one of them is not in it.
    public init(_ analysis: AnalysisResult) throws {
        try self.init(hopSeconds: analysis.hopSeconds, duration: analysis.duration,
                      levelsDb: analysis.feature(LevelAnalyzer.output),
                      centroidsHz: analysis.feature(CentroidAnalyzer.output),
                      weightedOctaves: analysis.feature(CentroidAnalyzer.weightedOutput),
                      onsets: analysis.onsets.map(\.time), loudestMomentaryLufs: analysis.loudestMomentaryLufs,
                      soundStarts: analysis.soundStarts)
    }
}
