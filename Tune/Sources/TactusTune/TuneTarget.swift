import Tactus
import TactusCore
import TactusPresets
import TactusPlatform

/// What a device that takes one format plays of a track: the track written in that format as
/// an export writes it (the preset's format settings applied), read back from those bytes by
/// the format's own reader, with the format checker's findings. An Android device plays the
/// `.android.json` waveform (transients as pulses of the body), a gamepad its two motors, an
/// actuator the drive signal demodulated.
public enum TuneTarget {
    /// The formats the page auditions, as `--format` names them; the mapped track itself is
    /// `mapped`. DualSense is left out: its file carries the sound, which a page request does not.
    public static let ids = ["ahap", "haptic", "android", "rumble", "pcm"]
    /// The page's name for the mapped track, before any format.
    public static let mapped = "track"

    /// What `track` plays as the format `id` writes it with `preset`.
    /// - Parameters:
    ///   - track: the mapped track (values 0…1, times in seconds).
    ///   - id: one of `ids`.
    ///   - preset: the preset whose `format.*` settings configure the format.
    /// - Returns: the track read back from every file the format writes (split AHAP's two files
    ///   merged), and the findings of its checker, one line each (`warning: <place>: <message>`).
    /// - Throws: `TuneRequestError` for an id not in `ids`; the format's own error when the track
    ///   cannot be written or read back.
    static func played(_ track: HapticTrack, as id: String, preset: ResolvedPreset) throws -> (HapticTrack, [String]) {
        guard ids.contains(id), let format = try HapticFormats.select([id]).first.map({ HapticFormats.configured($0, for: preset) }),
              let reader = format as? any HapticReadableFormat else {
            throw TuneRequestError("target must be one of \(([mapped] + ids).joined(separator: ", "))")
        }
        var played = HapticTrack(duration: track.duration)
        var findings: [String] = []
        for ending in format.fileEndings {
            var bytes = Data()
            try format.write(track, context: HapticWriteContext(), file: ending) { bytes.append(contentsOf: $0) }
            let read = try reader.read(bytes).track
            played.duration = max(played.duration, read.duration)
            played.transients += read.transients
            played.regions += read.regions
            findings += reader.validate(bytes, baseDirectory: nil).map(\.description)
        }
        played.transients.sort { $0.time < $1.time }
        played.regions.sort { $0.start < $1.start }
        return (played, findings)
    }
}
