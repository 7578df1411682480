import TactusCore
import TactusPlatform

/// Meta / Lofelt `.haptic` (version 1 JSON) as an output format: one continuous amplitude and
/// frequency envelope, with each transient as an `emphasis` on an amplitude breakpoint.
///
/// Mapping, with the law Meta's converter uses between the two formats (AHAP intensity is the
/// square root of `.haptic` amplitude; sharpness and frequency are the same number):
/// - amplitude = intensity², at every point of each continuous region's intensity curve, 0
///   between regions (a 0 breakpoint at each region's start and end: equal consecutive times
///   make the steps, as Lofelt Studio's own exports do);
/// - frequency = sharpness, at every point of each region's sharpness curve (times clamped to
///   the amplitude envelope's span, as Meta's Strict reader requires);
/// - a transient becomes a breakpoint at its time carrying `emphasis` {amplitude: intensity²,
///   frequency: sharpness}; its own amplitude is the continuous envelope there, lowered to the
///   emphasis if above it (a reader refuses an emphasis below its breakpoint) for that instant
///   only: breakpoints 1 ms either side restore the body;
/// - where the √ law bends a segment by more than 0.01 in intensity, points are added on the
///   designed line (`SquareLaw`), so a player's linear amplitude follows the designed intensity.
/// What is lost: AHAP's separate curves (they become one envelope), the paired audio (a
/// `.haptic` carries none), and, for 2 ms, the continuous body under a transient weaker than it.
///
/// Written to what both readers accept: `version.major` 1, at least two amplitude breakpoints
/// spanning more than zero time, every value in 0…1, times non-decreasing, every frequency
/// breakpoint within the amplitude envelope's span. Layout and numbers as `Style` declares them.
public struct HapticFileFormat: HapticReadableFormat {
    public static let id = "haptic"
    public static let fileExtension = "haptic"
    public static let summary = "Meta/Lofelt .haptic (v1 JSON) for the Meta Haptics SDK and Nice Vibrations (iOS, Android, consoles, Quest)."
    public static let readingSummary = "through the square-root law between amplitude and felt intensity"
    public static let rulesSummary = "Meta's and Lofelt's readers (errors: what Meta's reader refuses in the legacy mode Haptics Studio uses; warnings: what only its Strict mode refuses)"
    public static let parameters: [ParameterDescriptor] = []

    /// How long (s) before and after a transient the body returns when its breakpoint had to be
    /// lowered under the emphasis.
    static let lowering = 0.001

    public init(parameters: ParameterSet) {}

    /// Reads a file as Meta's reader in LegacyCompatibility mode does (see `HapticFileReader`),
    /// into what it plays (see `HapticFileImport`).
    public func read(_ data: Data) throws -> ImportedHaptics {
        let (document, diagnostics) = HapticFileReader.inspect(data)
        if let error = diagnostics.first(where: { $0.severity == .error }) {
            throw FormatReadError(location: error.location, message: error.message)
        }
        guard let document else { throw FormatReadError(location: "", message: "not a .haptic file") }
        return ImportedHaptics(track: HapticFileImport.track(from: document), metadata: document.metadata,
                               warnings: diagnostics)
    }

    /// The `metadata` object's text entries, read up to it (Tactus writes it before `signals`).
    public func metadata(fromStart start: Data) throws -> [MetadataEntry] {
        try MetadataEntry.jsonHeader("metadata", in: start)
    }

    /// Every problem Meta's and Lofelt's readers would raise (see `HapticFileReader`); a
    /// `.haptic` names no other files, so `baseDirectory` is not used.
    public func validate(_ data: Data, baseDirectory: URL?) -> [FormatDiagnostic] {
        HapticFileReader.inspect(data).1
    }

    public func write(_ track: HapticTrack, context: HapticWriteContext, to emit: (String) throws -> Void) throws {
        let (amplitude, frequency) = try Self.envelopes(track)
        try JSONWriter.stream(to: emit) { json in
            json.beginObject(Style.document)
            json.member("version", .object([(key: "major", value: .number(1)), (key: "minor", value: .number(0)),
                                            (key: "patch", value: .number(0))]), layout: Style.breakpoint)
            json.member("metadata", .object(Self.metaMetadata(context.metadata)), layout: Style.document)
            json.key("signals")
            json.beginObject(Style.document)
            json.key("continuous")
            json.beginObject(Style.document)
            json.key("envelopes")
            json.beginObject(Style.document)
            for (key, breakpoints) in [("amplitude", amplitude), ("frequency", frequency)] {
                json.key(key)
                json.beginArray(Style.document)
                for breakpoint in breakpoints { breakpoint.write(into: &json) }
                json.endArray()
            }
            json.endObject()
            json.endObject()
            json.endObject()
            json.endObject()
        }
    }

    /// The file's declared style: one member a line, except each breakpoint (and the version)
    /// on one line; times and values to their decimals.
    enum Style {
        static let document = JSONLayout.lines
        static let breakpoint = JSONLayout.inline
        static let time = JSONNumberFormat.fixed(digits: 5)
        static let value = JSONNumberFormat.fixed(digits: 4)
    }

    /// The `metadata` object's members, in order: Meta's six fields in the order
    /// Lofelt Studio and Haptics Studio write them (what Meta's tools show), then every other
    /// entry under its own key, as a string (Tactus's provenance: `Preset`, `PresetHash`, …;
    /// both reference readers allow unknown metadata keys, and `--preset-from` reads them back).
    ///
    /// Each field comes from an entry under Meta's own name (a `.haptic` read back), else from
    /// what AHAP's `Metadata` and Tactus's provenance call it:
    /// - `editor`: `TranslatedBy` (the tool that wrote this file), else Meta's `editor`, else
    ///   "Tactus <ToolVersion>" for Tactus's own files;
    /// - `author`: `Author`; `source`: `Source`; `description`: `Description`;
    /// - `project`: for Tactus's own files the source's name without its extension (Lofelt
    ///   Studio names a project after its sound), otherwise AHAP's `Project`;
    /// - `tags`: Meta's only.
    /// A field nothing gives is empty (`""`, `[]`). Entries that became a field, and entries
    /// under Meta's names, are not repeated; `TranslatedBy` is kept (it marks a translation), and Tactus's maker entry
    /// (`Project` "Tactus") is dropped, `editor` saying it.
    /// - Parameter entries: `HapticWriteContext.metadata`, in order.
    /// - Returns: the object's members, in the order they are written.
    static func metaMetadata(_ entries: [MetadataEntry]) -> [(key: String, value: JSONValue)] {
        func value(_ key: String) -> String? { entries.first { $0.key == key }?.value }
        var given = Set(["editor", "author", "source", "project", "tags", "description"])
        func first(_ keys: String...) -> String? {
            guard let key = keys.first(where: { value($0) != nil }) else { return nil }
            given.insert(key)
            return value(key)
        }
        let tool = value("ToolVersion")
        if tool != nil, value("Project") == "Tactus" { given.insert("Project") }
        let editor = value("TranslatedBy") ?? first("editor") ?? tool.map { "Tactus \($0)" }
        let author = first("author", "Author")
        let source = first("source", "Source")
        let project = first("project") ?? (tool != nil ? source.map(Self.stem) : first("Project"))
        let tags = first("tags")
        let description = first("description", "Description")
        let fields: [(key: String, value: JSONValue)] = [
            ("editor", .string(editor ?? "")), ("author", .string(author ?? "")), ("source", .string(source ?? "")),
            ("project", .string(project ?? "")), ("tags", tagList(tags ?? "")), ("description", .string(description ?? "")),
        ]
        return fields + entries.filter { !given.contains($0.key) }.map { ($0.key, .string($0.value)) }
    }

    /// A file name without its last extension ("boom.wav" → "boom").
    private static func stem(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// Tags as the readers type them: an array of strings, from the comma-separated form
    /// `HapticFileReader` gives them (empty names dropped).
    static func tagList(_ text: String) -> JSONValue {
        .array(text.split(separator: ",").map { $0.trimmingWhitespaces() }.filter { !$0.isEmpty }.map { .string($0) })
    }

    /// One breakpoint of an envelope, with the emphasis of a transient on amplitude breakpoints.
    struct Breakpoint: Equatable {
        var time: Double
        var value: Double
        var emphasis: (amplitude: Double, frequency: Double)?
        var key = "amplitude"

        static func == (a: Breakpoint, b: Breakpoint) -> Bool {
            a.time == b.time && a.value == b.value && a.key == b.key
                && a.emphasis?.amplitude == b.emphasis?.amplitude && a.emphasis?.frequency == b.emphasis?.frequency
        }

        /// Writes the breakpoint as one object on a line: its time, its value under `key`, and its
        /// emphasis if any.
        func write(into json: inout JSONWriter) {
            json.beginObject(Style.breakpoint)
            json.member("time", time, Style.time)
            json.member(key, value, Style.value)
            if let emphasis {
                json.key("emphasis")
                json.beginObject(Style.breakpoint)
                json.member("amplitude", emphasis.amplitude, Style.value)
                json.member("frequency", emphasis.frequency, Style.value)
                json.endObject()
            }
            json.endObject()
        }
    }

    /// The amplitude and frequency envelopes of a track, sorted by time.
    /// - Throws: `FormatWriteError` for a non-finite number.
    static func envelopes(_ track: HapticTrack) throws -> (amplitude: [Breakpoint], frequency: [Breakpoint]) {
        func unit(_ x: Double) -> Double { min(1, max(0, x)) }
        func finite(_ values: [Double], _ place: String) throws {
            guard values.allSatisfy(\.isFinite) else { throw FormatWriteError("non-finite number in \(place)") }
        }
        try finite([track.duration] + track.transients.flatMap { [$0.time, $0.intensity, $0.sharpness] }, "transients")
        for region in track.regions {
            try finite([region.start, region.end] + (region.intensity + region.sharpness).flatMap { [$0.time, $0.value] }, "regions")
        }
        // The continuous amplitude as breakpoints: 0 outside regions, intensity² inside.
        var amplitude: [Breakpoint] = [Breakpoint(time: 0, value: 0)]
        var frequency: [Breakpoint] = []
        for region in track.regions.sorted(by: { $0.start < $1.start }) {
            let points = HapticTrack.clipped(region.intensity, from: region.start, to: region.end)
            guard !points.isEmpty else { continue }
            // Steps in and out of the region: 0 up to its start, 0 again from its end.
            amplitude.append(Breakpoint(time: region.start, value: 0))
            amplitude += SquareLaw.amplitudes(fromIntensities: points.map { ($0.time, unit($0.value)) })
                .map { Breakpoint(time: $0.time, value: $0.value) }
            amplitude.append(Breakpoint(time: region.end, value: 0))
            frequency += HapticTrack.clipped(region.sharpness, from: region.start, to: region.end)
                .map { Breakpoint(time: $0.time, value: unit($0.value), key: "frequency") }
        }
        // Transients: an emphasised breakpoint at each, on the envelope as it is there.
        let continuous = amplitude.map { HapticTrack.Point(time: $0.time, value: $0.value) }
        for transient in track.transients {
            let time = max(0, transient.time)
            let strength = unit(transient.intensity) * unit(transient.intensity)
            let body = Polyline.value(of: continuous, at: time)
            amplitude.append(Breakpoint(time: time, value: min(strength, body), emphasis: (strength, unit(transient.sharpness))))
            if strength < body {
                // Lowered under the emphasis: only for the instant, the body restored around it.
                for side in [time - lowering, time + lowering] where side >= 0 {
                    amplitude.append(Breakpoint(time: side, value: Polyline.value(of: continuous, at: side)))
                }
            }
        }
        // By time; at one time plain breakpoints before an emphasis, otherwise in the order made
        // (a region's 0 before its first value makes the step up).
        amplitude = amplitude.enumerated().sorted {
            ($0.element.time, $0.element.emphasis == nil ? 0 : 1, $0.offset) < ($1.element.time, $1.element.emphasis == nil ? 0 : 1, $1.offset)
        }.map(\.element)
        // At least two breakpoints spanning more than zero time, to the end of the sound.
        let end = max(amplitude.last!.time, track.duration, 0.001)
        if amplitude.last!.time < end { amplitude.append(Breakpoint(time: end, value: 0)) }
        let span = amplitude.first!.time...amplitude.last!.time
        frequency = frequency.filter { span.contains($0.time) }  // in order: regions and their curves are sorted
        if frequency.isEmpty {
            frequency = [Breakpoint(time: span.lowerBound, value: 0.5, key: "frequency")]
        }
        return (amplitude, frequency)
    }
}
