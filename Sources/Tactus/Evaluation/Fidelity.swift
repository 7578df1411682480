import TactusCore
import TactusFiles
import TactusPlatform

/// How well one haptic file of any readable format plays its audio, measured on what it plays
/// (`HapticPlayback` over the track its format's reader makes; docs/ARCHITECTURE.md, "How
/// Tactus is measured").
public struct Fidelity {
    /// Pearson correlation of the continuous intensity played with the reference loudness;
    /// nil when the file has no continuous haptics or no loudness variation.
    public var intensityCorrelation: Double?
    /// Pearson correlation of everything felt (continuous intensity, and each transient's
    /// intensity over the 10 ms it starts in) with the reference loudness.
    public var playedCorrelation: Double?
    /// Spearman correlation of the continuous sharpness played with the log centroid, over
    /// frames where continuous haptics play and the audio is within 40 dB of its loudest.
    public var sharpnessCorrelation: Double?
    /// The (sharpness, log centroid) pairs behind `sharpnessCorrelation`, for pooling files.
    public var sharpnessPairs: [(sharpness: Double, logCentroid: Double)]
    /// The file's size per second of audio, bytes.
    public var bytesPerSecond: Double
    /// Points of the intensity and sharpness curves it plays (`HapticPlayback.curvePointCount`)
    /// per second of audio: the continuous part's cost in any format.
    public var curvePointsPerSecond: Double
    /// Errors among the file's format's validator findings.
    public var validatorErrors: Int
    /// Warnings among the validator's findings (AHAP's include transients a control scales).
    public var validatorWarnings: Int
    /// Findings of `HarmonyCheck` against the source audio.
    public var harmonyWarnings: Int

    /// - Parameters:
    ///   - file: the haptic file; its paired audio is looked for beside it (the validator's check).
    ///   - format: the readable format it is in.
    ///   - reference: the sound's loudness and brightness.
    ///   - sound: where the sound is audible, for `HarmonyCheck`.
    /// - Throws: `FileError` naming the file when it cannot be read in its format.
    /// - Returns: the file's correlations with the sound, its size and its findings.
    public static func measure(file: URL, format: any HapticReadableFormat, reference: ReferenceEnvelope,
                               sound: SoundActivity) throws -> Fidelity {
        let (data, imported) = try format.contents(of: file)
        let playback = HapticPlayback(imported.track)
        let findings = format.validate(data, baseDirectory: file.deletingLastPathComponent())
        let hop = ReferenceEnvelope.hopSeconds
        var played: [Double] = [], sharpness: [Double] = [], centroid: [Double] = []
        let loudest = reference.levelDb.max() ?? 0
        for k in reference.loudness.indices {
            // Loudness blocks are centred half a hop in; centroid frames on the hop itself.
            played.append(playback.continuousIntensity(at: (Double(k) + 0.5) * hop))
            if let s = playback.continuousSharpness(at: Double(k) * hop), reference.levelDb[k] > loudest - 40 {
                sharpness.append(s)
                centroid.append(reference.logCentroid[k])
            }
        }
        var felt = played
        for transient in playback.transients {
            let k = Int(transient.time / hop)
            if k < felt.count { felt[k] = max(felt[k], transient.intensity) }
        }
        let seconds = max(reference.duration, 1e-3)
        return Fidelity(intensityCorrelation: Statistics.pearson(played, reference.loudness),
                        playedCorrelation: Statistics.pearson(felt, reference.loudness),
                        sharpnessCorrelation: Statistics.spearman(sharpness, centroid),
                        sharpnessPairs: Array(zip(sharpness, centroid)),
                        bytesPerSecond: Double(data.count) / seconds,
                        curvePointsPerSecond: Double(playback.curvePointCount) / seconds,
                        validatorErrors: findings.filter { $0.severity == .error }.count,
                        validatorWarnings: findings.filter { $0.severity == .warning }.count,
                        harmonyWarnings: HarmonyCheck.check(imported.track, sound: sound).count)
    }
}
