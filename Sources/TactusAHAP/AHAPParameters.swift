/// Parameter IDs Core Haptics knows, with their value ranges.
///
/// Source of every range: the comments in `CoreHaptics.framework/Headers/CHHapticParameter.h`
/// (iOS 13 SDK onwards), which Apple's online pages for each `CHHapticEvent.ParameterID` and
/// `CHHapticDynamicParameter.ID` repeat. One table serves the writer, the evaluator (neutral
/// values) and the validator (ranges), so they cannot disagree.
public enum AHAPParameterID {
    // Event parameters (`EventParameters`).
    public static let hapticIntensity = "HapticIntensity"
    public static let hapticSharpness = "HapticSharpness"
    public static let attackTime = "AttackTime"
    public static let decayTime = "DecayTime"
    public static let releaseTime = "ReleaseTime"
    public static let sustained = "Sustained"
    public static let audioVolume = "AudioVolume"
    public static let audioPitch = "AudioPitch"
    public static let audioPan = "AudioPan"
    public static let audioBrightness = "AudioBrightness"

    // Dynamic parameters (`Parameter` and `ParameterCurve`).
    public static let hapticIntensityControl = "HapticIntensityControl"
    public static let hapticSharpnessControl = "HapticSharpnessControl"
    public static let hapticAttackTimeControl = "HapticAttackTimeControl"
    public static let hapticDecayTimeControl = "HapticDecayTimeControl"
    public static let hapticReleaseTimeControl = "HapticReleaseTimeControl"
    public static let audioVolumeControl = "AudioVolumeControl"
    public static let audioPanControl = "AudioPanControl"
    public static let audioPitchControl = "AudioPitchControl"
    public static let audioBrightnessControl = "AudioBrightnessControl"
    public static let audioAttackTimeControl = "AudioAttackTimeControl"
    public static let audioDecayTimeControl = "AudioDecayTimeControl"
    public static let audioReleaseTimeControl = "AudioReleaseTimeControl"

    /// Valid range of each event parameter. `Sustained` is a boolean written as 0 or 1.
    public static let eventRanges: [String: ClosedRange<Double>] = [
        hapticIntensity: 0...1, hapticSharpness: 0...1,
        attackTime: 0...1, decayTime: 0...1, releaseTime: 0...1, sustained: 0...1,
        audioVolume: 0...1, audioPitch: -1...1, audioPan: -1...1, audioBrightness: 0...1,
    ]

    /// What a dynamic parameter does: its range, its neutral ("no effect") value, and
    /// whether it acts on haptic or on audio events.
    public struct Dynamic: Equatable, Sendable {
        public var range: ClosedRange<Double>
        public var neutral: Double
        public var actsOnHaptics: Bool
    }

    /// Every dynamic parameter. Only the two volume-like controls multiply (neutral 1);
    /// all others offset (neutral 0, range −1…1).
    public static let dynamic: [String: Dynamic] = {
        let offset = -1.0...1.0
        var table: [String: Dynamic] = [
            hapticIntensityControl: Dynamic(range: 0...1, neutral: 1, actsOnHaptics: true),
            audioVolumeControl: Dynamic(range: 0...1, neutral: 1, actsOnHaptics: false),
        ]
        for id in [hapticSharpnessControl, hapticAttackTimeControl, hapticDecayTimeControl, hapticReleaseTimeControl] {
            table[id] = Dynamic(range: offset, neutral: 0, actsOnHaptics: true)
        }
        for id in [audioPanControl, audioPitchControl, audioBrightnessControl,
                   audioAttackTimeControl, audioDecayTimeControl, audioReleaseTimeControl] {
            table[id] = Dynamic(range: offset, neutral: 0, actsOnHaptics: false)
        }
        return table
    }()

    /// The value a dynamic parameter has before anything sets it (0 for unknown IDs).
    public static func neutralValue(of id: String) -> Double {
        dynamic[id]?.neutral ?? 0
    }
}
