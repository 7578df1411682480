import TactusCore
import TactusPlatform

/// Core Haptics' AHAP as a format: `AHAPWriter` lays the track out, `AHAPEncoder` writes the
/// text, and the paired audio becomes the `AudioCustom` event. Files from any tool are read
/// through `AHAPImport` (what they play) and checked by `AHAPValidator`.
///
/// Split (`split`), the track is written as two patterns, as Meta Haptics Studio and Lofelt
/// Studio export for engines that play each with a player of its own:
/// `<stem>.continuous.ahap` (the continuous regions and the `AudioCustom` event: its controls
/// follow the designed envelope exactly, with no lift or notch at a transient, since it holds
/// none) and `<stem>.transients.ahap` (the transients alone). Played together they give what
/// the single file plays, except that the body keeps playing as designed under a transient
/// stronger than it, where the single file lifts it for the ramps around the transient.
public struct AHAPFormat: HapticReadableFormat {
    public static let id = "ahap"
    public static let fileExtension = "ahap"
    public static let pairsAudio = true
    public static let summary = "Apple Haptic and Audio Pattern for Core Haptics (iOS, iPadOS, macOS, visionOS)."
    public static let readingSummary = "through the pattern evaluator (event intensity times its controls; its AudioCustom sound found relative to it)"
    public static let rulesSummary = "Core Haptics' rules (errors: what it refuses or plays other than written, such as values out of range, a continuous event without a duration or over 30 s, a transient scaled by a control; warnings: what plays but probably not as meant; AHAPValidator)"
    public static let rampMs = ParameterDescriptor.number("rampMs", 1...1000, default: AHAPWriter.Options.defaultRampDuration * 1000, unit: "ms",
                help: "Length of the control ramps around a transient and of the return to neutral after a continuous region. The sharpness control is neutral at each transient; the intensity control is lifted only where a transient needs it (the body's events are split at transients so it rarely does), and the body then rises for the ramps at most to its peak over them × the transient's intensity.")
    public static let split = ParameterDescriptor.flag("split", default: false,
                help: "Write two patterns, <stem>.continuous.ahap (the body, its envelope exact, with the paired audio) and <stem>.transients.ahap, as Meta and Lofelt export, instead of one <stem>.ahap.")
    public static let parameters: [ParameterDescriptor] = [rampMs, split]

    /// The endings of the two files of a split pattern.
    public static let continuousEnding = "continuous.ahap", transientsEnding = "transients.ahap"

    /// Length of the control ramps, in seconds.
    public let rampDuration: Double
    /// Whether the track is written as two patterns (`split`).
    public let isSplit: Bool

    public init(parameters: ParameterSet) {
        rampDuration = parameters.number(Self.rampMs) / 1000
        isSplit = parameters.flag(Self.split)
    }

    public var fileEndings: [String] {
        isSplit ? [Self.continuousEnding, Self.transientsEnding] : [Self.fileExtension]
    }

    public func write(_ track: HapticTrack, context: HapticWriteContext, to emit: (String) throws -> Void) throws {
        let options = AHAPWriter.Options(pairedAudio: context.pairedAudio, metadata: context.metadata,
                                         rampDuration: rampDuration)
        try AHAPEncoder().write(try AHAPWriter(options: options).document(for: track), to: emit)
    }

    /// The single pattern, or one half of a split one: the continuous file holds the regions
    /// and the paired audio, the transients file the transients alone.
    public func write(_ track: HapticTrack, context: HapticWriteContext, file ending: String,
                      bytes emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        var part = track, partContext = context
        switch ending {
        case Self.continuousEnding: part.transients = []
        case Self.transientsEnding:
            part.regions = []
            partContext.pairedAudio = nil
        default: break
        }
        try write(part, context: partContext) { try $0.withUTF8Bytes(emit) }
    }

    /// What an AHAP plays. Read leniently, as Core Haptics plays what it can, except for
    /// times no pattern plays (`unplayableTimes`), which would come out of a translation as a
    /// file its own format's readers refuse.
    public func read(_ data: Data) throws -> ImportedHaptics {
        let (report, document) = AHAPValidator(baseDirectory: nil).inspect(data)
        let unplayable = report.diagnostics.first { Self.unplayableTimes.contains($0.kind) }
        guard let document, unplayable == nil else {
            let error = unplayable ?? report.diagnostics.first { $0.severity == .error }
            throw FormatReadError(location: error?.location ?? "", message: error?.message ?? "not an AHAP pattern")
        }
        let imported = AHAPImport.imported(from: document)
        // Each time and duration may be in range and an event still end past it.
        guard imported.track.duration <= AHAPWriter.maxTime else {
            throw FormatReadError(location: "", message: AHAPValidator.tooLate("the pattern's end", imported.track.duration))
        }
        return imported
    }

    /// The `Metadata` object's text entries, read up to it (Tactus writes it before `Pattern`).
    public func metadata(fromStart start: Data) throws -> [MetadataEntry] {
        try MetadataEntry.jsonHeader("Metadata", in: start)
    }

    /// Validation errors that make a pattern unreadable: a time before 0 s, or a time or
    /// duration past `AHAPWriter.maxTime`.
    static let unplayableTimes: Set<AHAPDiagnostic.Kind> = [.negativeTime, .timeTooLate]

    public func validate(_ data: consuming Data, baseDirectory: URL?) -> [FormatDiagnostic] {
        AHAPValidator(baseDirectory: baseDirectory).validate(consume data).diagnostics.map(\.formatDiagnostic)
    }
}
