import TactusAnalysis
import TactusCore
import TactusMapping
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Designer-level controls: five knobs in a designer's words (how strong, how much body, how
/// round or crisp, how many transients), each moving the detailed parameters of other
/// sections by one stated formula. Presets, `--set` and folder `tactus.json` set them like any
/// parameter; `effective(_:)` turns them into the values the analysis and the mapper run with.
///
/// At their defaults (all 0) every effective value equals its declared value exactly, so a
/// preset that does not use them writes the same bytes as before they existed.
///
/// The formulas (declared value → effective value; `gT`, `gB`, `s`, `f` defined below):
///
/// | control | changes | formula |
/// |---|---|---|
/// | `strengthDb`, `transientsDb` | `mapping.transients.minIntensity`, `maxIntensity` | `x' = min(1, gT·x)`, `gT = 10^((strengthDb + transientsDb)/20)` |
/// | `strengthDb`, `bodyDb` | `mapping.intensity.maxIntensity` | `x' = min(1, gB·x)`, `gB = 10^((strengthDb + bodyDb)/20)` |
/// | | `mapping.intensity.gate`, `tolerance` | `x' = r·x`, `r = maxIntensity'/maxIntensity` (the same regions and curve points, each intensity × r) |
/// | `crispness` | `mapping.transients.lowOctaves`, `highOctaves` | `x' = x − s`, `s = 2·crispness` octaves |
/// | | `mapping.sharpness.brightenOctaves` | `x' = x + b`, `b = 1·crispness` octaves for crispness ≥ 0, `2·crispness` below |
/// | | `mapping.sharpness.lowHz`, `highHz` (its `centroid` scale) | `x' = x·2^(−s)` |
/// | `density` | `peaks.delta`, `minRiseDb`, `weakRiseDb`, `jumpDb`, `bedJumpDb`, `bedRiseSpreads` | `x' = f·x`, `f = 4^(−density)` |
///
/// A crispness shift of `s` octaves raises transient sharpness by `s / (highOctaves − lowOctaves)`
/// in the linear middle of their scale (0.36 per unit on the default 5.5 octaves), less in its
/// soft ends; the body plays as if `b` octaves brighter on its `movePerOctave` curve (a step of
/// `4·movePerOctave·b` in logit units: +0.32 per unit at the middle of the default curve, less
/// towards 0 and 1, which it never reaches), so dark and bright bodies move too. Rounder takes
/// twice the octaves of crisper: most bodies sit in the lower half of the curve (the moving
/// sounds' median near 0.17 on the real-sound corpus), where the logistic curve squeezes a
/// step down, so one octave down lowered them by only about half what one octave up raised; on the
/// `centroid` scale by `s / log2(highHz / lowHz)` before clipping. Both move the same way, by
/// about as much in the middle. Effective values may leave the ranges a preset may write (a 6 kHz
/// `highHz` two octaves up is 24 kHz); the scales stay well defined.
public enum FeelSettings: TunablePart {
    public static let id = "feel"
    public static let summary = "Designer-level controls (strength, body, crispness, density), each moving detailed parameters by a stated formula; 0 changes nothing."
    public static let strengthDb = ParameterDescriptor.number("strengthDb", -40...12, default: 0, unit: "dB",
                help: "Overall strength: every transient's and the body's intensity × 10^(strengthDb/20), capped at 1 (scales mapping.transients.minIntensity/maxIntensity and mapping.intensity.maxIntensity; the body's gate and tolerance follow, so the same regions play, weaker or stronger).")
    public static let transientsDb = ParameterDescriptor.number("transientsDb", -40...12, default: 0, unit: "dB",
                help: "Transient strength on top of strengthDb: mapping.transients.minIntensity and maxIntensity × 10^(transientsDb/20), capped at 1.")
    public static let bodyDb = ParameterDescriptor.number("bodyDb", -40...12, default: 0, unit: "dB",
                help: "Body amount against the transients, on top of strengthDb: mapping.intensity.maxIntensity × 10^(bodyDb/20), capped at 1, with its gate and tolerance scaled alike (to remove the body, set mapping.intensity.enabled false).")
    public static let crispness = ParameterDescriptor.number("crispness", -1...1, default: 0,
                help: "Roundness (−1) to crispness (+1) of transients and body together, every sound alike: transients play as if their attack were 2 × crispness octaves brighter (mapping.transients lowOctaves/highOctaves − 2·crispness), the body as if its sound were crispness octaves brighter, or 2 × crispness octaves darker when crispness is negative (mapping.sharpness.brightenOctaves + crispness above 0, + 2 × crispness below: most bodies sit low on their curve, where a step down is squeezed, so rounding takes twice the octaves; with from = centroid, lowHz/highHz × 4^(−crispness)). +1 adds about 0.36 to a mid-scale transient and 0.32 to a mid-scale body, less near 0 and 1, which neither reaches; −1 takes about 0.36 off a mid-scale transient and more off a body (0.45 in the middle of the curve).")
    public static let density = ParameterDescriptor.number("density", -1...1, default: 0,
                help: "Transient density (analysis side: changes which onsets the analysis finds): the peak picker's thresholds (peaks.delta, minRiseDb, weakRiseDb, jumpDb, bedJumpDb, bedRiseSpreads) × 4^(−density); +1 quarters them (more, softer onsets), −1 quadruples them (only clear attacks).")
    public static let parameters: [ParameterDescriptor] = [strengthDb, transientsDb, bodyDb, crispness, density]

    /// Octaves the transients' scales (and the body's `centroid` scale) shift per unit of `crispness`.
    public static let octavesPerCrispness = 2.0
    /// Octaves the body plays brighter per unit of positive `crispness` (`mapping.sharpness.brightenOctaves`):
    /// on the body's steeper curve, about the transients' step in the middle of each.
    public static let bodyOctavesPerCrispness = 1.0
    /// Octaves the body plays darker per unit of negative `crispness`: twice the step up, since
    /// most bodies sit in the lower half of their curve, where a step down is squeezed.
    public static let bodyOctavesPerRoundness = 2.0

    /// The octaves `crispness` adds to `mapping.sharpness.brightenOctaves`.
    /// - Parameter crispness: the `feel.crispness` value, −1…1.
    /// - Returns: `crispness` octaves above 0, 2 × `crispness` below.
    public static func bodyOctaves(crispness: Double) -> Double {
        crispness * (crispness < 0 ? bodyOctavesPerRoundness : bodyOctavesPerCrispness)
    }

    /// Factor the peak thresholds are divided by per unit of `density`.
    public static let thresholdFactorPerDensity = 4.0
    /// The peak picker's thresholds `density` scales: each makes fewer onsets as it grows,
    /// and 0 stays 0 (off).
    public static let densityThresholds = [PeakPicker.delta, PeakPicker.minRiseDb, PeakPicker.weakRiseDb,
                                           PeakPicker.jumpDb, PeakPicker.bedJumpDb, PeakPicker.bedRiseSpreads]

    /// The values the parts run with: `declared` (by section path, as resolved from the
    /// preset chain) with the `feel` section's controls applied by the formulas above.
    /// - Parameter declared: every section's validated values, by section path.
    /// - Returns: the same sections with the values the `feel` controls move changed by the
    ///   formulas above; `declared` itself when it has no `feel` section.
    public static func effective(_ declared: [String: ParameterSet]) -> [String: ParameterSet] {
        guard let feel = declared[id] else { return declared }
        var sections = declared
        func gain(_ db: Double) -> Double { pow(10, db / 20) }
        let strength = feel.number(strengthDb)

        if var transients = sections[TransientSettings.id] {
            let g = gain(strength + feel.number(transientsDb))
            for d in [TransientSettings.minIntensity, TransientSettings.maxIntensity] {
                transients = transients.replacing(d, with: min(1, g * transients.number(d)))
            }
            let shift = octavesPerCrispness * feel.number(crispness)
            for d in [TransientSettings.lowOctaves, TransientSettings.highOctaves] {
                transients = transients.replacing(d, with: transients.number(d) - shift)
            }
            sections[TransientSettings.id] = transients
        }
        if var body = sections[IntensitySettings.id] {
            let declaredMax = body.number(IntensitySettings.maxIntensity)
            let playedMax = min(1, gain(strength + feel.number(bodyDb)) * declaredMax)
            let ratio = declaredMax > 0 ? playedMax / declaredMax : 1
            body = body.replacing(IntensitySettings.maxIntensity, with: playedMax)
            for d in [IntensitySettings.gate, IntensitySettings.tolerance] {
                body = body.replacing(d, with: ratio * body.number(d))
            }
            sections[IntensitySettings.id] = body
        }
        if var sharpness = sections[SharpnessSettings.id] {
            let shift = octavesPerCrispness * feel.number(crispness)
            let brighten = SharpnessSettings.brightenOctaves
            sharpness = sharpness.replacing(brighten, with: sharpness.number(brighten) + bodyOctaves(crispness: feel.number(crispness)))
            for d in [SharpnessSettings.lowHz, SharpnessSettings.highHz] {
                sharpness = sharpness.replacing(d, with: pow(2, -shift) * sharpness.number(d))
            }
            sections[SharpnessSettings.id] = sharpness
        }
        if var peaks = sections[PeakPicker.id] {
            let factor = pow(thresholdFactorPerDensity, -feel.number(density))
            for d in densityThresholds { peaks = peaks.replacing(d, with: factor * peaks.number(d)) }
            sections[PeakPicker.id] = peaks
        }
        return sections
    }
}
