import TactusCore
import TactusPlatform

/// Android haptics as one JSON file per sound (`<stem>.android.json`, specified in
/// `Integrations/Android/FORMAT.md`) holding the same haptics in every form Android plays, so
/// an app picks the best its device supports (`TactusHaptics.java` does):
/// - `waveform`: `VibrationEffect.createWaveform(timings, amplitudes, -1)`, amplitude 255 ×
///   intensity² (the √ law between amplitude and felt intensity, as for `.haptic`), continuous
///   haptics held on a `stepMs` grid, each transient a `transientMs` pulse at its intensity;
/// - `onOff`: the same, on where the amplitude reaches `onOffIntensity`, for devices without
///   amplitude control (`createWaveform(timings, -1)`);
/// - `composition`: each transient as a primitive (THUD/LOW_TICK below sharpness 0.5, CLICK/TICK
///   from it; the light ones below intensity 0.4; scale = intensity), slow swells opened by
///   SLOW_RISE, primitives at least `primitiveGapMs` apart; `complete` says whether that is
///   the whole pattern;
/// - `envelope`: an Android 16 `BasicEnvelopeBuilder` envelope of the continuous intensity and
///   sharpness, each transient a rise to its peak within `envelopeMinMs`.
/// What is lost: on the waveform, sharpness (Android amplitudes carry none) and timing finer
/// than 1 ms; in the composition, the continuous body; in the envelope, detail finer than
/// `envelopeMinMs`, and transients peak `envelopeMinMs / 2` after their onset.
///
/// Files are validated against the specification (`AndroidFileReader`) and read back from
/// their waveform (`AndroidImport`), so they can be checked, previewed and translated.
public struct AndroidFormat: HapticReadableFormat {
    public static let id = "android"
    public static let fileExtension = "android.json"
    public static let summary = "Android: VibrationEffect waveform, on/off fallback, primitive composition and Android 16 envelope in one JSON file (with a Java player in Integrations/Android)."
    public static let readingSummary = "from its waveform (intensity the square root of amplitude / 255; Android amplitudes carry no sharpness)"
    public static let rulesSummary = "their specification (Integrations/Android/FORMAT.md) and the Android APIs they feed"
    public static let stepMs = ParameterDescriptor.number("stepMs", 1...100, default: 10, unit: "ms",
                help: "Time grid of the waveform's continuous part.")
    public static let transientMs = ParameterDescriptor.number("transientMs", 1...100, default: 20, unit: "ms",
                help: "Length of a transient's pulse in the waveform.")
    public static let onOffIntensity = ParameterDescriptor.number("onOffIntensity", 0...1, default: 0.3,
                help: "Felt intensity from which the on/off fallback vibrates.")
    public static let primitiveGapMs = ParameterDescriptor.number("primitiveGapMs", 0...1000, default: 50, unit: "ms",
                help: "Shortest time between two primitives of the composition (later ones are dropped).")
    public static let envelopeMinMs = ParameterDescriptor.number("envelopeMinMs", 20...1000, default: 20, unit: "ms",
                help: "Shortest control-point duration of the envelope (20 ms: what every envelope-capable device supports).")
    public static let parameters = [stepMs, transientMs, onOffIntensity, primitiveGapMs, envelopeMinMs]

    /// Longest envelope control-point duration every envelope-capable device supports, ms.
    static let envelopeMaxMs = 1000

    let settings: (step: Int, transient: Int, onOff: Double, gap: Int, envelopeMin: Int)

    public init(parameters: ParameterSet) {
        settings = (Int(parameters.number(Self.stepMs)), Int(parameters.number(Self.transientMs)),
                    parameters.number(Self.onOffIntensity), Int(parameters.number(Self.primitiveGapMs)),
                    Int(parameters.number(Self.envelopeMinMs)))
    }

    public func write(_ track: HapticTrack, context: HapticWriteContext, to emit: (String) throws -> Void) throws {
        try track.checkFinite(below: Self.maxSeconds)
        let end = ([track.duration] + track.transients.map(\.time) + track.regions.map(\.end)).max() ?? 0
        let durationMs = max(0, Int((end * 1000).rounded(.up)) + settings.transient)
        let levels = AndroidWaveform.levels(track, durationMs: durationMs, stepMs: settings.step, transientMs: settings.transient)
        let waveform = AndroidWaveform(levels: levels)
        let onOff = AndroidOnOff(levels: levels, threshold: max(1, AndroidWaveform.amplitude(settings.onOff)))
        let composition = AndroidComposition(track, minGapMs: settings.gap)
        let envelope = AndroidEnvelope(track, minMs: settings.envelopeMin, maxMs: Self.envelopeMaxMs)

        try JSONWriter.stream(to: emit) { json in
            json.beginTactusDocument(format: "tactus-android", version: 1, metadata: context.metadata)
            json.member("durationMs", durationMs)
            json.key("waveform")
            json.beginObject(Style.document)
            json.key("timings")
            json.numbers(waveform.timings, layout: Style.series)
            json.key("amplitudes")
            json.numbers(waveform.amplitudes, layout: Style.series)
            json.endObject()
            json.key("onOff")
            json.beginObject(Style.document)
            json.key("timings")
            json.numbers(onOff.timings, layout: Style.series)
            json.endObject()
            json.key("composition")
            json.beginObject(Style.document)
            json.member("complete", composition.complete)
            json.key("primitives")
            json.beginArray(Style.document)
            for primitive in composition.primitives {
                json.beginObject(Style.entry)
                json.member("primitive", primitive.name)
                json.member("scale", primitive.scale, Style.number)
                json.member("startMs", primitive.startMs)
                json.endObject()
            }
            json.endArray()
            json.endObject()
            json.key("envelope")
            json.beginObject(Style.document)
            json.member("initialSharpness", envelope.initialSharpness, Style.number)
            json.key("controlPoints")
            json.beginArray(Style.document)
            for point in envelope.controlPoints {
                json.beginObject(Style.entry)
                json.member("intensity", point.intensity, Style.number)
                json.member("sharpness", point.sharpness, Style.number)
                json.member("durationMs", point.durationMs)
                json.endObject()
            }
            json.endArray()
            json.endObject()
            json.endObject()
        }
    }

    /// The file's declared style: one member a line, except the waveform's and on/off's series
    /// and each primitive and control point on one line; fractions to 3 decimals.
    enum Style {
        static let document = JSONLayout.lines
        static let series = JSONLayout.inline
        static let entry = JSONLayout.inline
        static let number = JSONNumberFormat.fixed(digits: 3)
    }

    public func read(_ data: Data) throws -> ImportedHaptics {
        let (document, diagnostics) = AndroidFileReader.inspect(data)
        guard let document else {
            let first = diagnostics.first { $0.severity == .error }
            throw FormatReadError(location: first?.location ?? "", message: first?.message ?? "cannot be read")
        }
        return AndroidImport.imported(from: document)
    }

    /// The `metadata` object's entries, read up to it (`beginTactusDocument` writes it third).
    public func metadata(fromStart start: Data) throws -> [MetadataEntry] {
        try MetadataEntry.jsonHeader("metadata", in: start)
    }

    public func validate(_ data: Data, baseDirectory: URL?) -> [FormatDiagnostic] {
        AndroidFileReader.inspect(data).1
    }

    /// Longest track written, in seconds (a day: the per-millisecond waveform stays bounded).
    static let maxSeconds = 86_400.0
}
