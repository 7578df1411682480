import TactusCore

/// How the AHAP and its paired audio are written.
public enum OutputSettings: TunablePart {
    public static let id = "output"
    public static let summary = "AudioCustom event settings and audio pairing."
    public static let pairAudio = ParameterDescriptor.flag("pairAudio", default: true,
              help: "Write an AudioCustom event and the paired audio file, so sound and touch start together.")
    public static let audioVolume = ParameterDescriptor.number("audioVolume", 0...1, default: 1, help: "AudioVolume of the AudioCustom event.")
    public static let useVolumeEnvelope = ParameterDescriptor.flag("useVolumeEnvelope", default: false,
              help: "EventWaveformUseVolumeEnvelope: Core Haptics' fade in/out of the audio. Off by default: a fade softens the very attack the haptics match.")
    public static let parameters: [ParameterDescriptor] = [pairAudio, audioVolume, useVolumeEnvelope]
}
