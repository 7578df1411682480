import TactusCore
import TactusFiles
import TactusPlatform

/// How well one haptic file of any readable format plays its audio, measured on what it plays
/// (`HapticPlayback` over the track its format's reader makes; docs/ARCHITECTURE.md, "How
/// Tactus is measured").
public struct Fidelity {
    /// Pearson correlation of the continuous intensity played with the reference loudness,
    /// block by block over the same span: each 10 ms block's loudness is the level of its span
    /// (`ReferenceEnvelope`: the block, or from the first audible sample of a sound starting
    /// inside it), and the intensity played there is the mean over that span (sampled every
    /// `1 / samplesPerBlock` of a block, the span's own midpoints). A body that starts on its
    /// sound's first sample is so compared with the sound, not with the silence before it.
    /// nil when the file has no continuous haptics or no loudness variation.
    public var intensityCorrelation: Double?
    /// Pearson correlation of everything felt (the continuous intensity as above, and each
    /// transient's intensity over the 10 ms it starts in) with the reference loudness.
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
    /// How far the played sharpness and intensity move, and the envelope measure
    /// (`Movement`).
    public var movement: Movement

    /// How many times the played intensity is read per block span, at the midpoints of equal
    /// parts (20: every 0.5 ms of a whole 10 ms block).
    public static let samplesPerBlock = 20

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
            let from = reference.spanStart[k], step = (reference.spanEnd(k) - from) / Double(Self.samplesPerBlock)
            let sum = (0..<Self.samplesPerBlock).reduce(0.0) { $0 + playback.continuousIntensity(at: from + (Double($1) + 0.5) * step) }
            played.append(sum / Double(Self.samplesPerBlock))
            // Centroid frames are centred on the hop itself.
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
                        harmonyWarnings: HarmonyCheck.check(imported.track, sound: sound).count,
                        movement: Movement.measure(playback, reference: reference))
    }
}
