/// Parameter IDs Core Haptics knows, with their value ranges.
///
/// Source of every range: the comments in `CoreHaptics.framework/Headers/CHHapticParameter.h`
/// (iOS 13 SDK onwards), which Apple's online pages for each `CHHapticEvent.ParameterID` and
/// `CHHapticDynamicParameter.ID` repeat. One table serves the writer, the evaluator (neutral
/// values) and the validator (ranges), so they cannot disagree.
public enum AHAPParameterID {
    // Event parameters (`EventParameters`).
    /// Strength of a haptic event, 0…1.
    public static let hapticIntensity = "HapticIntensity"
    /// Feel of a haptic event from round (0) to crisp (1).
    public static let hapticSharpness = "HapticSharpness"
    /// Haptic envelope's attack, 0…1 (relative; Core Haptics gives no unit).
    public static let attackTime = "AttackTime"
    /// Haptic envelope's decay, 0…1.
    public static let decayTime = "DecayTime"
    /// Haptic envelope's release, 0…1.
    public static let releaseTime = "ReleaseTime"
    /// Whether a continuous event holds its level for its whole duration (0 or 1).
    public static let sustained = "Sustained"
    /// Volume of an audio event, 0…1.
    public static let audioVolume = "AudioVolume"
    /// Pitch of an audio event, −1…1.
    public static let audioPitch = "AudioPitch"
    /// Stereo position of an audio event, −1 (left)…1 (right).
    public static let audioPan = "AudioPan"
    /// Brightness of an audio event, 0…1.
    public static let audioBrightness = "AudioBrightness"

    // Dynamic parameters (`Parameter` and `ParameterCurve`).
    /// Multiplies the intensity of every haptic event while set, 0…1 (neutral 1).
    public static let hapticIntensityControl = "HapticIntensityControl"
    /// Added to the sharpness of haptic events while set, −1…1 (neutral 0).
    public static let hapticSharpnessControl = "HapticSharpnessControl"
    /// Added to haptic events' `AttackTime`, −1…1.
    public static let hapticAttackTimeControl = "HapticAttackTimeControl"
    /// Added to haptic events' `DecayTime`, −1…1.
    public static let hapticDecayTimeControl = "HapticDecayTimeControl"
    /// Added to haptic events' `ReleaseTime`, −1…1.
    public static let hapticReleaseTimeControl = "HapticReleaseTimeControl"
    /// Multiplies audio events' volume, 0…1 (neutral 1).
    public static let audioVolumeControl = "AudioVolumeControl"
    /// Added to audio events' pan, −1…1.
    public static let audioPanControl = "AudioPanControl"
    /// Added to audio events' pitch, −1…1.
    public static let audioPitchControl = "AudioPitchControl"
    /// Added to audio events' brightness, −1…1.
    public static let audioBrightnessControl = "AudioBrightnessControl"
    /// Added to audio events' attack, −1…1.
    public static let audioAttackTimeControl = "AudioAttackTimeControl"
    /// Added to audio events' decay, −1…1.
    public static let audioDecayTimeControl = "AudioDecayTimeControl"
    /// Added to audio events' release, −1…1.
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
        /// Values Core Haptics accepts (it clamps others).
        public var range: ClosedRange<Double>
        /// The value with no effect: 1 for the multiplying controls, 0 for the others.
        public var neutral: Double
        /// True for the `Haptic…Control` parameters, false for the `Audio…Control` ones.
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
    /// - Parameter id: a dynamic parameter ID.
    /// - Returns: its `Dynamic.neutral`, or 0.
    public static func neutralValue(of id: String) -> Double {
        dynamic[id]?.neutral ?? 0
    }
}
