import TactusCore

/// An Apple Haptic and Audio Pattern (AHAP) document, as plain values.
///
/// The model mirrors the file one to one (element order, parameter order, metadata
/// order) so that decoding and re-encoding a file changes nothing but number formatting.
/// It deliberately uses open strings for event types and parameter IDs: files from
/// other tools may hold values we do not know, and the validator, not the model,
/// is the place that judges them.
public struct AHAPDocument: Equatable, Sendable {
    /// `Version`; Core Haptics knows only 1.0.
    public var version: Double
    /// `Metadata` (Project, Created, Description, Source, Preset, ToolVersion…), in order;
    /// Core Haptics ignores it.
    public var metadata: [MetadataEntry]
    /// `Pattern`, in file order.
    public var pattern: [AHAPElement]

    /// - Parameters:
    ///   - version: `Version` (Core Haptics loads only 1.0).
    ///   - metadata: `Metadata` entries, in file order.
    ///   - pattern: `Pattern` elements, in file order.
    public init(version: Double = 1.0, metadata: [MetadataEntry] = [], pattern: [AHAPElement] = []) {
        self.version = version
        self.metadata = metadata
        self.pattern = pattern
    }
}

extension AHAPDocument {
    /// Control points of every `ParameterCurve` in the pattern (the compactness measure).
    public var controlPointCount: Int {
        pattern.reduce(0) { count, element in
            if case .curve(let curve) = element { return count + curve.controlPoints.count }
            return count
        }
    }
}

/// One element of `Pattern`: each holds exactly one of `Event`, `Parameter`, `ParameterCurve`.
public enum AHAPElement: Equatable, Sendable {
    /// An `Event` (haptic or audio).
    case event(AHAPEvent)
    /// A `Parameter`: a dynamic parameter set at one time.
    case parameter(AHAPDynamicParameter)
    /// A `ParameterCurve`: a dynamic parameter ramped through control points.
    case curve(AHAPParameterCurve)

    /// The element's `Time`, in seconds from the start of the pattern.
    public var time: Double {
        switch self {
        case .event(let event): return event.time
        case .parameter(let parameter): return parameter.time
        case .curve(let curve): return curve.time
        }
    }
}

/// `EventType`. An open set so that unknown types from other tools survive decoding.
public struct AHAPEventType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The `EventType` string as the file spells it.
    public var rawValue: String
    /// - Parameter rawValue: any `EventType` string; unknown ones are kept for the validator to judge.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A short tap with intensity and sharpness (no duration).
    public static let hapticTransient = AHAPEventType(rawValue: "HapticTransient")
    /// A sustained vibration for `EventDuration` seconds (at most 30).
    public static let hapticContinuous = AHAPEventType(rawValue: "HapticContinuous")
    /// A synthesized tone for `EventDuration` seconds.
    public static let audioContinuous = AHAPEventType(rawValue: "AudioContinuous")
    /// An audio file (`EventWaveformPath`) played from `Time`.
    public static let audioCustom = AHAPEventType(rawValue: "AudioCustom")

    /// The four types Core Haptics accepts in a file.
    public static let known: Set<AHAPEventType> = [.hapticTransient, .hapticContinuous, .audioContinuous, .audioCustom]

    /// Haptic events are the ones `Haptic…Control` dynamic parameters act on.
    public var isHaptic: Bool { self == .hapticTransient || self == .hapticContinuous }
    /// Continuous events need an `EventDuration` (and we keep it ≤ 30 s).
    public var isContinuous: Bool { self == .hapticContinuous || self == .audioContinuous }

    /// The `EventType` string.
    public var description: String { rawValue }
}

/// An `Event`.
public struct AHAPEvent: Equatable, Sendable {
    /// One entry of `EventParameters`.
    public struct Parameter: Equatable, Sendable {
        /// `ParameterID` (see `AHAPParameterID`).
        public var id: String
        /// `ParameterValue`, in the parameter's range (`AHAPParameterID.eventRanges`).
        public var value: Double

        /// - Parameters:
        ///   - id: the `ParameterID`.
        ///   - value: the `ParameterValue`.
        public init(id: String, value: Double) {
            self.id = id
            self.value = value
        }
    }

    /// `Time`, in seconds from the start of the pattern.
    public var time: Double
    /// `EventType`.
    public var type: AHAPEventType
    /// `EventDuration`, seconds; required for continuous events.
    public var duration: Double?
    /// `EventWaveformPath`, relative to the AHAP file or bundle (AudioCustom only).
    public var waveformPath: String?
    /// `EventWaveformUseVolumeEnvelope` (Core Haptics defaults to true when absent).
    public var useVolumeEnvelope: Bool?
    /// `EventWaveformLoopEnabled`.
    public var loopEnabled: Bool?
    /// `EventParameters`, in order.
    public var parameters: [Parameter]

    /// - Parameters:
    ///   - time: `Time`, in seconds.
    ///   - type: `EventType`.
    ///   - duration: `EventDuration`, in seconds; required for continuous events.
    ///   - waveformPath: `EventWaveformPath`, for `AudioCustom` events.
    ///   - useVolumeEnvelope: `EventWaveformUseVolumeEnvelope`, or nil to leave it out.
    ///   - loopEnabled: `EventWaveformLoopEnabled`, or nil to leave it out.
    ///   - parameters: `EventParameters`, in order.
    public init(time: Double, type: AHAPEventType, duration: Double? = nil, waveformPath: String? = nil,
                useVolumeEnvelope: Bool? = nil, loopEnabled: Bool? = nil, parameters: [Parameter] = []) {
        self.time = time
        self.type = type
        self.duration = duration
        self.waveformPath = waveformPath
        self.useVolumeEnvelope = useVolumeEnvelope
        self.loopEnabled = loopEnabled
        self.parameters = parameters
    }

    /// The value of the last parameter with this ID (the one a dictionary-based reader keeps).
    /// - Parameter id: a `ParameterID`, e.g. `AHAPParameterID.hapticIntensity`.
    /// - Returns: its value as written (not clamped), or nil when the event does not set it.
    public func parameter(_ id: String) -> Double? {
        parameters.last(where: { $0.id == id })?.value
    }
}

/// A `Parameter` element: sets a dynamic parameter to a value at `time` (a step).
public struct AHAPDynamicParameter: Equatable, Sendable {
    /// `ParameterID` of a dynamic parameter (e.g. `HapticIntensityControl`).
    public var parameterID: String
    /// `Time`, in seconds from the start of the pattern.
    public var time: Double
    /// `ParameterValue`: the value from `time` on, until another element sets it.
    public var value: Double

    /// - Parameters:
    ///   - parameterID: the dynamic parameter.
    ///   - time: `Time`, in seconds.
    ///   - value: the value set.
    public init(parameterID: String, time: Double, value: Double) {
        self.parameterID = parameterID
        self.time = time
        self.value = value
    }
}

/// A `ParameterCurve`: a dynamic parameter ramped linearly through control points.
public struct AHAPParameterCurve: Equatable, Sendable {
    /// One entry of `ParameterCurveControlPoints`. `time` is RELATIVE to the curve's `time`.
    public struct ControlPoint: Equatable, Sendable {
        /// Seconds after the curve's own `time`.
        public var time: Double
        /// The parameter's value at that point.
        public var value: Double

        /// - Parameters:
        ///   - time: seconds after the curve's start.
        ///   - value: the value there.
        public init(time: Double, value: Double) {
            self.time = time
            self.value = value
        }
    }

    /// `ParameterID` of the dynamic parameter the curve sets.
    public var parameterID: String
    /// Start of the curve in pattern time; control-point times count from here.
    public var time: Double
    /// `ParameterCurveControlPoints`, in time order; Core Haptics plays at most 16.
    public var controlPoints: [ControlPoint]

    /// - Parameters:
    ///   - parameterID: the dynamic parameter.
    ///   - time: the curve's start, in seconds.
    ///   - controlPoints: the points, times relative to `time`.
    public init(parameterID: String, time: Double, controlPoints: [ControlPoint]) {
        self.parameterID = parameterID
        self.time = time
        self.controlPoints = controlPoints
    }
}

/// Limits a file must respect to play as written (docs/ARCHITECTURE.md, "Core Haptics facts").
public enum AHAPLimits {
    /// Longest continuous event we write or accept, in seconds (Lofelt's converter splits at 30 s too).
    public static let maxContinuousDuration: Double = 30
    /// Most control points one `ParameterCurve` should hold (older iOS refused more).
    public static let maxControlPoints = 16
    /// Largest AHAP file Tactus reads, in bytes (the limit of every haptic file it reads).
    public static let maxFileBytes = AHAPFormat.maxFileBytes
}
