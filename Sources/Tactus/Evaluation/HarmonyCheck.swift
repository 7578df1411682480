import TactusCore
import TactusAHAP

/// Checks that a pattern fits the audio it plays with (`tactus validate --audio`): haptics
/// that outlast the sound, a continuous buzz under silence, transients where nothing is heard.
public enum HarmonyCheck {
    /// Level (dB below the loudest 10 ms block) under which the audio counts as silent.
    static let silenceDb = 60.0
    /// A transient needs the audio to rise by this much around it to count as heard.
    static let attackRiseDb = 6.0

    public static func check(_ document: AHAPDocument, audio reference: ReferenceEnvelope) -> [AHAPDiagnostic] {
        let evaluator = PatternEvaluator(document)
        var problems: [AHAPDiagnostic] = []
        let hop = ReferenceEnvelope.hopSeconds
        if evaluator.hapticEndTime > reference.duration + hop {
            problems.append(warning(.patternLongerThanAudio, "Pattern",
                                    String(printf: "haptics run until %.3f s but the audio ends at %.3f s",
                                           evaluator.hapticEndTime, reference.duration)))
        }
        let loudest = reference.levelDb.max() ?? 0
        let silent = reference.levelDb.map { $0 < loudest - silenceDb }
        var run = 0
        for k in silent.indices {
            let buzzing = silent[k] && evaluator.continuousIntensity(at: (Double(k) + 0.5) * hop) > 0.05
            run = buzzing ? run + 1 : 0
            if run == 5 {
                problems.append(warning(.continuousUnderSilence, "Pattern",
                                        String(printf: "continuous haptics play under silent audio from %.2f s",
                                               Double(k - 4) * hop)))
            }
        }
        for transient in evaluator.transients where !audibleAttack(near: transient.time, reference) {
            problems.append(warning(.transientWithoutAttack, "Pattern[\(transient.patternIndex)].Event",
                                    String(printf: "transient at %.3f s has no audible attack within 30 ms", transient.time)))
        }
        return problems
    }

    /// Whether the audio rises by `attackRiseDb` to an audible level within 30 ms of `time`.
    /// A time outside the audio (negative, past its end, or not finite) has no attack.
    static func audibleAttack(near time: Double, _ reference: ReferenceEnvelope) -> Bool {
        let levels = reference.levelDb
        guard let loudest = levels.max(), time.isFinite, time >= 0 else { return false }
        let frame = time / ReferenceEnvelope.hopSeconds
        guard frame < Double(levels.count) else { return false }
        let k = Int(frame)
        let after = levels[max(0, k - 1)...min(levels.count - 1, k + 3)].max()!
        let before = levels[max(0, k - 6)...max(0, k - 1)].min()!
        return after > loudest - silenceDb && after - before >= attackRiseDb
    }

    private static func warning(_ kind: AHAPDiagnostic.Kind, _ location: String, _ message: String) -> AHAPDiagnostic {
        AHAPDiagnostic(severity: .warning, kind: kind, location: location, message: message)
    }
}
