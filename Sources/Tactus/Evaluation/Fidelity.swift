import TactusCore
import TactusAHAP

/// How well one AHAP plays its audio, measured with the pattern evaluator the way Core
/// Haptics would play it (docs/ARCHITECTURE.md, "How Tactus is measured").
public struct Fidelity {
    /// Pearson correlation of evaluated continuous intensity with the reference loudness;
    /// nil when the file has no continuous haptics or no loudness variation.
    public var intensityCorrelation: Double?
    /// Pearson correlation of everything felt (continuous intensity, and each transient's
    /// intensity over the 10 ms it starts in) with the reference loudness.
    public var playedCorrelation: Double?
    /// Spearman correlation of evaluated continuous sharpness with the log centroid, over
    /// frames where a continuous event plays and the audio is within 40 dB of its loudest.
    public var sharpnessCorrelation: Double?
    /// The (sharpness, log centroid) pairs behind `sharpnessCorrelation`, for pooling files.
    public var sharpnessPairs: [(sharpness: Double, logCentroid: Double)]
    /// Control points written, per second of audio.
    public var controlPointsPerSecond: Double
    /// Encoded AHAP size per second of audio.
    public var bytesPerSecond: Double
    /// Transients that play (intensity, or sharpness under either reading) more than 0.01
    /// away from the track's: those a control scales. Transients are paired with the track's
    /// in time order; a count that differs counts every transient.
    public var scaledTransients: Int
    public var validatorErrors: Int
    public var validatorWarnings: Int
    /// Findings of `HarmonyCheck` against the source audio.
    public var harmonyWarnings: Int

    /// - Parameters:
    ///   - ahap: the AHAP file's bytes.
    ///   - baseDirectory: where its paired audio is looked for (the validator's check).
    ///   - reference: the sound's loudness and brightness.
    ///   - sound: where the sound is audible, for `HarmonyCheck`.
    ///   - track: the track the AHAP was written from (what each transient should play).
    public static func measure(ahap: Data, baseDirectory: URL, reference: ReferenceEnvelope,
                               sound: SoundActivity, track: HapticTrack) throws -> Fidelity {
        let document = try AHAPDecoder().decode(ahap)
        let evaluator = PatternEvaluator(document)
        let validation = AHAPValidator(baseDirectory: baseDirectory).validate(ahap)
        let hop = ReferenceEnvelope.hopSeconds
        var played: [Double] = [], sharpness: [Double] = [], centroid: [Double] = []
        let loudest = reference.levelDb.max() ?? 0
        for k in reference.loudness.indices {
            // Loudness blocks are centred half a hop in; centroid frames on the hop itself.
            played.append(evaluator.continuousIntensity(at: (Double(k) + 0.5) * hop))
            if let s = evaluator.continuousSharpness(at: Double(k) * hop), reference.levelDb[k] > loudest - 40 {
                sharpness.append(s)
                centroid.append(reference.logCentroid[k])
            }
        }
        var felt = played
        for transient in evaluator.transients {
            let k = Int(transient.time / hop)
            if k < felt.count { felt[k] = max(felt[k], transient.effectiveIntensity) }
        }
        let wanted = track.transients.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
        let scaled = wanted.count != evaluator.transients.count ? max(wanted.count, evaluator.transients.count)
            : zip(evaluator.transients, wanted).filter { played, wanted in
                abs(played.effectiveIntensity - wanted.intensity) > 0.01
                    || PatternEvaluator.SharpnessReading.allCases.contains { abs(played.effectiveSharpness($0) - wanted.sharpness) > 0.01 }
            }.count
        let seconds = max(reference.duration, 1e-3)
        return Fidelity(intensityCorrelation: Statistics.pearson(played, reference.loudness),
                        playedCorrelation: Statistics.pearson(felt, reference.loudness),
                        sharpnessCorrelation: Statistics.spearman(sharpness, centroid),
                        sharpnessPairs: Array(zip(sharpness, centroid)),
                        controlPointsPerSecond: Double(document.controlPointCount) / seconds, bytesPerSecond: Double(ahap.count) / seconds,
                        scaledTransients: scaled, validatorErrors: validation.errorCount,
                        validatorWarnings: validation.warningCount,
                        harmonyWarnings: HarmonyCheck.check(AHAPImport.imported(from: document).track, sound: sound).count)
    }
}
