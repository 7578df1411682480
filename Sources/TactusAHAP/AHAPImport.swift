import TactusCore

/// Reads what an AHAP plays into the format-free `HapticTrack`, so patterns from any tool can
/// be previewed and translated into other formats.
///
/// The track holds what Core Haptics plays (as `PatternEvaluator` computes it), not how the
/// file spells it:
/// - each `HapticTransient` becomes a transient at its `Time`, with intensity = event intensity
///   × `HapticIntensityControl` at that instant and sharpness = its event sharpness (Apple's
///   AHAP article's reading: the sharpness control acts on continuous haptics);
/// - each span where `HapticContinuous` events play (merged where they overlap or touch)
///   becomes a continuous region whose intensity and sharpness are sampled at every instant
///   they can bend or step (event boundaries, control-curve knots), and just before each step,
///   so linear interpolation between the points reproduces what plays exactly;
/// - the first `AudioCustom` event at time 0 becomes the paired audio.
/// What the model cannot hold is reported as warnings with the element's place: other audio
/// events, audio starting later than 0 s, and attack/decay/release shaping.
public enum AHAPImport {
    /// The track, paired audio, metadata and warnings of `document`.
    /// - Parameter document: a decoded AHAP, from any tool (values are clamped as Core Haptics clamps them).
    /// - Returns: the track of felt values (0…1, times in seconds), the paired audio, the
    ///   metadata and a warning for each element the track cannot hold.
    public static func imported(from document: AHAPDocument) -> ImportedHaptics {
        let evaluator = PatternEvaluator(document)
        var warnings: [FormatDiagnostic] = []
        func warn(_ kind: String, _ index: Int, _ message: String) {
            warnings.append(FormatDiagnostic(severity: .warning, kind: kind, location: "Pattern[\(index)]", message: message))
        }

        var pairedAudio: PairedAudio?
        for (index, element) in document.pattern.enumerated() {
            guard case .event(let event) = element else { continue }
            switch event.type {
            case .audioCustom where pairedAudio == nil && event.time == 0 && event.waveformPath != nil:
                pairedAudio = PairedAudio(fileName: event.waveformPath!,
                                          volume: clampUnit(event.parameter(AHAPParameterID.audioVolume) ?? 1),
                                          useVolumeEnvelope: event.useVolumeEnvelope ?? true)
            case .audioCustom, .audioContinuous:
                warn("audioNotCarried", index, "\(event.type) at \(event.time) s is not carried over: only one sound starting at 0 s pairs with the haptics")
            case .hapticTransient, .hapticContinuous:
                let shaping = [AHAPParameterID.attackTime, AHAPParameterID.decayTime, AHAPParameterID.releaseTime,
                               AHAPParameterID.sustained].filter { event.parameter($0) != nil }
                if !shaping.isEmpty {
                    warn("shapingNotCarried", index, "\(shaping.joined(separator: ", ")) not carried over: the track holds intensity and sharpness only")
                }
            default:
                break
            }
        }

        let transients = evaluator.transients.map {
            HapticTrack.Transient(time: $0.time, intensity: $0.effectiveIntensity,
                                  sharpness: $0.effectiveSharpness(.continuousOnly))
        }
        let breakpoints = evaluator.continuousBreakpoints
        let regions = evaluator.continuousSpans.map { span in
            region(span, breakpoints: breakpoints, evaluator: evaluator)
        }
        let track = HapticTrack(duration: evaluator.hapticEndTime, transients: transients, regions: regions)
        return ImportedHaptics(track: track, pairedAudio: pairedAudio, metadata: document.metadata, warnings: warnings)
    }

    /// The continuous region over `span`, sampled at each breakpoint inside it and just before
    /// each breakpoint where the value steps.
    private static func region(_ span: ClosedRange<Double>, breakpoints: [Double],
                               evaluator: PatternEvaluator) -> HapticTrack.ContinuousRegion {
        let first = breakpoints.partitioningIndex { $0 >= span.lowerBound }
        let last = breakpoints.partitioningIndex { $0 > span.upperBound }
        var intensity: [HapticTrack.Point] = []
        var sharpness: [HapticTrack.Point] = []
        for t in breakpoints[first..<last] {
            // The span is half-open: at its end, what played just before.
            let at = t < span.upperBound ? t : t.nextDown
            let before = t.nextDown
            let (i, s) = (evaluator.continuousIntensity(at: at), evaluator.continuousSharpness(at: at) ?? 0)
            if t > span.lowerBound && t < span.upperBound {
                let (iBefore, sBefore) = (evaluator.continuousIntensity(at: before), evaluator.continuousSharpness(at: before) ?? 0)
                if abs(iBefore - i) > 1e-9 || abs(sBefore - s) > 1e-9 {
                    intensity.append(HapticTrack.Point(time: t, value: iBefore))
                    sharpness.append(HapticTrack.Point(time: t, value: sBefore))
                }
            }
            intensity.append(HapticTrack.Point(time: t, value: i))
            sharpness.append(HapticTrack.Point(time: t, value: s))
        }
        return HapticTrack.ContinuousRegion(start: span.lowerBound, end: span.upperBound,
                                            intensity: intensity, sharpness: sharpness)
    }
}
