import TactusAHAP
import TactusAndroid
import TactusCore
import TactusHaptic
import TactusRender

/// Which haptic formats are written, and how the paired audio is.
public enum OutputSettings: TunablePart {
    public static let id = "output"
    public static let summary = "Formats written, AudioCustom event settings and audio pairing."
    public static let formats = ParameterDescriptor.text("formats", pattern: "[a-z0-9.-]+(,[a-z0-9.-]+)*", default: "ahap",
              help: "Haptic formats written when the command names none (--format), comma-separated ids: "
                  + BuiltInFormats.all.map { $0.id }.joined(separator: ", ") + ", or one a library user registered.")
    public static let pairAudio = ParameterDescriptor.flag("pairAudio", default: true,
              help: "Write an AudioCustom event and the paired audio file, so sound and touch start together (only when a selected format plays paired audio: ahap).")
    public static let audioVolume = ParameterDescriptor.number("audioVolume", 0...1, default: 1, help: "AudioVolume of the AudioCustom event.")
    public static let useVolumeEnvelope = ParameterDescriptor.flag("useVolumeEnvelope", default: false,
              help: "EventWaveformUseVolumeEnvelope: Core Haptics' fade in/out of the audio. Off by default: a fade softens the very attack the haptics match.")
    public static let parameters: [ParameterDescriptor] = [formats, pairAudio, audioVolume, useVolumeEnvelope]
}

/// The haptic formats Tactus ships, in the order `--format` lists them. Presets tune the ones
/// that declare parameters, each in its own section `format.<id>` (`--set format.android.stepMs=5`).
public enum BuiltInFormats {
    /// The built-in formats in `--format` order; ids, endings, help texts and completions are
    /// made from this list (a new built-in format is one line here).
    public static let all: [any HapticFormat.Type] = [AHAPFormat.self, HapticFileFormat.self, AndroidFormat.self,
                                                      PCMFormat.self, DualSenseFormat.self, RumbleFormat.self,
                                                      AndroidOggFormat.self]

    /// The preset section holding `format`'s parameters.
    /// - Parameter format: a format type.
    /// - Returns: `format.<id>`.
    public static func sectionPath(_ format: any HapticFormat.Type) -> String { "format." + format.id }
}
