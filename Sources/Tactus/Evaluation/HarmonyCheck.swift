import TactusCore
import TactusPlatform

/// Checks that haptics fit the sound they play with — the one check behind `convert
/// --check-harmony`, `validate --audio`, `preview` and the batch gallery. It reads what plays
/// (a `HapticTrack`, from any format) against where the sound is audible (`SoundActivity`).
///
/// Findings (each a warning, `kind` in parentheses):
/// - the haptics run past the end of the sound (`patternLongerThanAudio`);
/// - haptics start more than `leadTolerance` (and less than `leadWindow`) before the first
///   audible sample of a sound, at the file's start or after a silence inside it
///   (`hapticsBeforeSound`);
/// - continuous haptics (intensity above `buzzIntensity`) play for 50 ms or more while the
///   sound is silent, no sample of a 10 ms block audible (`continuousUnderSilence`);
/// - a transient has no audible attack within 30 ms: the sound does not rise by `attackRiseDb`
///   to an audible level there (`transientWithoutAttack`). Before the file starts there is
///   silence, so a sound that begins at its first sample is an attack.
public enum HarmonyCheck {
    /// The stable names of the findings (`FormatDiagnostic.kind`).
    public enum Kind: String, CaseIterable, Sendable {
        /// The four findings, as listed above.
        case patternLongerThanAudio, hapticsBeforeSound, continuousUnderSilence, transientWithoutAttack
    }

    /// A transient needs the sound to rise by this much (dB) around it to count as heard.
    public static let attackRiseDb = 6.0
    /// How long (seconds) haptics may start before the first audible sample of their sound.
    public static let leadTolerance = 0.001
    /// How far ahead of a sound (seconds) haptics count as leading it; earlier ones play under
    /// silence and are reported as such, or as transients without an attack.
    public static let leadWindow = 0.05
    /// Continuous intensity above which haptics under silence are reported.
    public static let buzzIntensity = 0.05
    /// Consecutive silent 10 ms blocks with continuous haptics that make a finding.
    static let buzzBlocks = 5

    /// The findings for `track` played with the sound measured in `sound`, in this order:
    /// overlong haptics, leads, continuous haptics under silence, transients without attack.
    /// - Parameters:
    ///   - track: what the haptics play.
    ///   - sound: where the sound is audible.
    /// - Returns: the findings, each a warning.
    public static func check(_ track: HapticTrack, sound: SoundActivity) -> [FormatDiagnostic] {
        var findings: [FormatDiagnostic] = []
        let end = hapticEndTime(of: track)
        if end > sound.duration + SoundActivity.blockSeconds {
            findings.append(warning(.patternLongerThanAudio, String(
                printf: "haptics run until %.3f s but the audio ends at %.3f s", end, sound.duration)))
        }
        for (start, onset) in leads(of: track, sound: sound) {
            findings.append(warning(.hapticsBeforeSound, String(
                printf: "haptics start at %.3f s, %.1f ms before the sound's first audible sample at %.3f s",
                onset, (start - onset) * 1000, start)))
        }
        let hop = SoundActivity.blockSeconds
        var run = 0
        for k in sound.peakDb.indices {
            let buzzing = !sound.isAudible(block: k) && track.continuousIntensity(at: (Double(k) + 0.5) * hop) > buzzIntensity
            run = buzzing ? run + 1 : 0
            if run == buzzBlocks {
                findings.append(warning(.continuousUnderSilence, String(
                    printf: "continuous haptics play under silent audio from %.2f s", Double(k - buzzBlocks + 1) * hop)))
            }
        }
        for transient in track.transients where transient.intensity > 0 && !audibleAttack(near: transient.time, sound) {
            findings.append(warning(.transientWithoutAttack, String(
                printf: "transient at %.3f s has no audible attack within 30 ms", transient.time)))
        }
        return findings
    }

    /// `check(_:sound:)` against the audio file at `url`.
    /// - Throws: `AudioError` when the file cannot be opened or decoded.
    /// - Parameters:
    ///   - track: what the haptics play.
    ///   - url: the sound file.
    /// - Returns: the findings, each a warning.
    public static func check(_ track: HapticTrack, soundAt url: URL) throws -> [FormatDiagnostic] {
        check(track, sound: try SoundActivity.measure(url))
    }

    /// When the last haptic ends: the last region's end or the last transient's time.
    static func hapticEndTime(of track: HapticTrack) -> Double {
        max(track.regions.map(\.end).max() ?? 0, track.transients.map(\.time).max() ?? 0)
    }

    /// Each sound whose haptics start early: its first audible sample's time and the earliest
    /// haptic onset (see `onsets(of:)`) in the silence before it (for the first sound, from the
    /// file's start), less than `leadWindow` and more than `leadTolerance` ahead of it.
    static func leads(of track: HapticTrack, sound: SoundActivity) -> [(start: Double, onset: Double)] {
        let onsets = onsets(of: track)
        return sound.starts.enumerated().compactMap { index, start in
            let from = max(index == 0 ? -Double.infinity : start.silenceStart, start.time - leadWindow)
            let first = onsets.first { $0 >= from && $0 < start.time - leadTolerance }
            return first.map { (start.time, $0) }
        }
    }

    /// The instants, sorted, at which the track starts playing after playing nothing: each
    /// transient with intensity above 0, each region whose intensity starts above 0 (unless it
    /// continues a region that ends there still playing), and each instant a region's intensity
    /// curve rises from 0.
    static func onsets(of track: HapticTrack) -> [Double] {
        var onsets = track.transients.filter { $0.intensity > 0 }.map(\.time)
        var previous: HapticTrack.ContinuousRegion?
        for region in track.regions {
            let points = HapticTrack.clipped(region.intensity, from: region.start, to: region.end)
            let continues = previous.map { $0.end == region.start && Polyline.value(of: $0.intensity, before: $0.end) > 0 } ?? false
            if let first = points.first, first.value > 0, !continues { onsets.append(region.start) }
            for (a, b) in zip(points, points.dropFirst()) where a.value <= 0 && b.value > 0 && a.time < region.end {
                onsets.append(a.time)
            }
            previous = region
        }
        return onsets.sorted()
    }

    /// Whether the sound rises by `attackRiseDb` to an audible level within 30 ms of `time`:
    /// its loudest block (RMS) from 10 ms before to 40 ms after, against its quietest in the 60 ms
    /// before (blocks before the file's start are silence), with an audible sample among the
    /// blocks after. A time outside the audio (negative, past its end, or not finite) has no attack.
    static func audibleAttack(near time: Double, _ sound: SoundActivity) -> Bool {
        let levels = sound.levelDb
        guard !levels.isEmpty, time.isFinite, time >= 0 else { return false }
        let frame = time / SoundActivity.blockSeconds
        guard frame < Double(levels.count) else { return false }
        let k = Int(frame)
        let window = max(0, k - 1)...min(levels.count - 1, k + 3)
        let after = levels[window].max()!
        let before = k < 6 ? -Double.infinity : levels[(k - 6)...(k - 1)].min()!
        return window.contains { sound.isAudible(block: $0) } && after - before >= attackRiseDb
    }

    private static func warning(_ kind: Kind, _ message: String) -> FormatDiagnostic {
        FormatDiagnostic(severity: .warning, kind: kind.rawValue, location: "", message: message)
    }
}
