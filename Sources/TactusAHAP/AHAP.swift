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
    case event(AHAPEvent)
    case parameter(AHAPDynamicParameter)
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
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let hapticTransient = AHAPEventType(rawValue: "HapticTransient")
    public static let hapticContinuous = AHAPEventType(rawValue: "HapticContinuous")
    public static let audioContinuous = AHAPEventType(rawValue: "AudioContinuous")
    public static let audioCustom = AHAPEventType(rawValue: "AudioCustom")

    /// The four types Core Haptics accepts in a file.
    public static let known: Set<AHAPEventType> = [.hapticTransient, .hapticContinuous, .audioContinuous, .audioCustom]

    /// Haptic events are the ones `Haptic…Control` dynamic parameters act on.
    public var isHaptic: Bool { self == .hapticTransient || self == .hapticContinuous }
    /// Continuous events need an `EventDuration` (and we keep it ≤ 30 s).
    public var isContinuous: Bool { self == .hapticContinuous || self == .audioContinuous }

    public var description: String { rawValue }
}

/// An `Event`.
public struct AHAPEvent: Equatable, Sendable {
    /// One entry of `EventParameters`.
    public struct Parameter: Equatable, Sendable {
        public var id: String
        public var value: Double

        public init(id: String, value: Double) {
            self.id = id
            self.value = value
        }
    }

    public var time: Double
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
    public func parameter(_ id: String) -> Double? {
        parameters.last(where: { $0.id == id })?.value
    }
}

/// A `Parameter` element: sets a dynamic parameter to a value at `time` (a step).
public struct AHAPDynamicParameter: Equatable, Sendable {
    public var parameterID: String
    public var time: Double
    public var value: Double

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
        public var time: Double
        public var value: Double

        public init(time: Double, value: Double) {
            self.time = time
            self.value = value
        }
    }

    public var parameterID: String
    /// Start of the curve in pattern time; control-point times count from here.
    public var time: Double
    public var controlPoints: [ControlPoint]

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
