import TactusCore
import TactusPlatform

/// Reads and checks `<stem>.android.json` files against their specification
/// (`Integrations/Android/FORMAT.md`) and the Android APIs each part is handed to.
///
/// Errors are what a player or Android refuses: another `format` or `version`; a missing or
/// mistyped part; `waveform` lists of different or zero length, negative timings, amplitudes
/// outside 0–255; negative `onOff` timings; an unknown primitive, a scale outside 0…1, primitives
/// out of `startMs` order; envelope intensities or sharpness outside 0…1, a control-point
/// duration outside 20–1000 ms, a last intensity other than 0 (`BasicEnvelopeBuilder` requires
/// it); a waveform longer than `maxMilliseconds`. Warnings: a waveform whose length is not
/// `durationMs`, an envelope of more than 16 control points (more than some devices hold).
/// Unknown keys are allowed anywhere, as the specification requires.
struct AndroidFileReader {
    /// What the reader keeps: what devices with amplitude control play.
    struct Document: Equatable {
        var metadata: [MetadataEntry] = []
        var durationMs = 0
        /// `waveform.timings` (ms) and `waveform.amplitudes` (0–255), pairwise.
        var waveform: [(ms: Int, amplitude: Int)] = []

        static func == (a: Self, b: Self) -> Bool {
            a.metadata == b.metadata && a.durationMs == b.durationMs
                && a.waveform.map(\.ms) == b.waveform.map(\.ms) && a.waveform.map(\.amplitude) == b.waveform.map(\.amplitude)
        }
    }

    /// The `PRIMITIVE_*` constants a composition may name.
    static let primitives: Set<String> = ["CLICK", "TICK", "LOW_TICK", "THUD", "SPIN", "QUICK_RISE", "SLOW_RISE", "QUICK_FALL"]
    /// Control-point durations every envelope-capable device supports, ms.
    static let envelopeDurations = 20...1000
    /// Control points every envelope-capable device holds.
    static let guaranteedControlPoints = 16
    /// Longest waveform read, ms (a day, as the writer's limit).
    static let maxMilliseconds = 86_400_000

    private var findings = FormatFindings()

    /// Reads `data`, collecting every problem; the document is nil when any error was found.
    static func inspect(_ data: Data) -> (Document?, [FormatDiagnostic]) {
        var reader = AndroidFileReader()
        guard let json = reader.findings.json(data) else { return (nil, reader.findings.all) }
        let document = reader.document(json)
        return (reader.findings.hasErrors ? nil : document, reader.findings.all)
    }

    private mutating func error(_ kind: String, _ location: String, _ message: String) { findings.error(kind, location, message) }

    private mutating func warning(_ kind: String, _ location: String, _ message: String) { findings.warning(kind, location, message) }

    private mutating func document(_ json: JSONValue) -> Document {
        var document = Document()
        guard case .object = json else {
            error("wrongType", "", "expected an object at the top level, found \(json.kindName)")
            return document
        }
        if case .string("tactus-android")? = json["format"] {} else {
            error("unsupportedFormat", "format", "expected \"tactus-android\"")
        }
        if let version = integer(json, "version", "version", 0...Int.max), version != 1 {
            error("unsupportedVersion", "version", "\(version) is not supported: readers know version 1")
        }
        if let metadata = json["metadata"] { document.metadata = self.metadata(metadata) }
        document.durationMs = integer(json, "durationMs", "durationMs", 0...Self.maxMilliseconds) ?? 0
        document.waveform = waveform(object(json, "waveform"))
        let waveformMs = document.waveform.reduce(0) { $0 + $1.ms }
        if !document.waveform.isEmpty, waveformMs != document.durationMs {
            warning("lengthMismatch", "waveform.timings", "adds up to \(waveformMs) ms, not durationMs (\(document.durationMs) ms)")
        }
        if let onOff = object(json, "onOff") { _ = integers(onOff, "timings", "onOff.timings", 0...Self.maxMilliseconds) }
        composition(object(json, "composition"))
        envelope(object(json, "envelope"))
        return document
    }

    private mutating func metadata(_ value: JSONValue) -> [MetadataEntry] {
        guard case .object(let members) = value else {
            error("wrongType", "metadata", "expected an object, found \(value.kindName)")
            return []
        }
        return members.compactMap { key, member in
            guard case .string(let text) = member else {
                error("wrongType", "metadata.\(key)", "expected a string, found \(member.kindName)")
                return nil
            }
            return MetadataEntry(key: key, value: text)
        }
    }

    private mutating func waveform(_ waveform: JSONValue?) -> [(ms: Int, amplitude: Int)] {
        guard let waveform,
              let timings = integers(waveform, "timings", "waveform.timings", 0...Self.maxMilliseconds),
              let amplitudes = integers(waveform, "amplitudes", "waveform.amplitudes", 0...255) else { return [] }
        guard timings.count == amplitudes.count, !timings.isEmpty else {
            error("lengthMismatch", "waveform", "timings (\(timings.count)) and amplitudes (\(amplitudes.count)) need the same length, at least 1")
            return []
        }
        let total = timings.reduce(0) { min(Self.maxMilliseconds + 1, $0 + $1) }
        if total > Self.maxMilliseconds {
            error("numberOutOfRange", "waveform.timings", "adds up to more than a day: Tactus reads up to \(Self.maxMilliseconds / 1000) s")
        }
        return Array(zip(timings, amplitudes))
    }

    private mutating func composition(_ composition: JSONValue?) {
        guard let composition else { return }
        if case .bool? = composition["complete"] {} else {
            error(composition["complete"] == nil ? "missingKey" : "wrongType", "composition.complete", "expected true or false")
        }
        guard let primitives = findings.array(composition["primitives"], at: "composition.primitives") else { return }
        var previous = 0
        for (index, item) in primitives.enumerated() {
            let place = "composition.primitives[\(index)]"
            guard case .object = item else {
                error("wrongType", place, "expected an object, found \(item.kindName)")
                continue
            }
            if case .string(let name)? = item["primitive"], Self.primitives.contains(name) {} else {
                error("unknownPrimitive", place + ".primitive", "expected one of " + Self.primitives.sorted().joined(separator: ", "))
            }
            _ = unitNumber(item, "scale", place + ".scale")
            if let start = integer(item, "startMs", place + ".startMs", 0...Self.maxMilliseconds) {
                if start < previous {
                    error("timeOutOfOrder", place + ".startMs", "\(start) ms comes before the previous primitive's \(previous) ms")
                }
                previous = max(previous, start)
            }
        }
    }

    private mutating func envelope(_ envelope: JSONValue?) {
        guard let envelope else { return }
        _ = unitNumber(envelope, "initialSharpness", "envelope.initialSharpness")
        guard let points = findings.array(envelope["controlPoints"], at: "envelope.controlPoints") else { return }
        guard !points.isEmpty else { return error("tooFewControlPoints", "envelope.controlPoints", "needs at least one control point") }
        var lastIntensity: Double?
        for (index, point) in points.enumerated() {
            let place = "envelope.controlPoints[\(index)]"
            guard case .object = point else {
                error("wrongType", place, "expected an object, found \(point.kindName)")
                continue
            }
            lastIntensity = unitNumber(point, "intensity", place + ".intensity")
            _ = unitNumber(point, "sharpness", place + ".sharpness")
            _ = integer(point, "durationMs", place + ".durationMs", Self.envelopeDurations)
        }
        if let lastIntensity, lastIntensity != 0 {
            error("envelopeNotEnded", "envelope.controlPoints[\(points.count - 1)].intensity",
                  "the last control point's intensity must be 0 (BasicEnvelopeBuilder requires it)")
        }
        if points.count > Self.guaranteedControlPoints {
            warning("tooManyControlPoints", "envelope.controlPoints",
                    "\(points.count) control points: devices guarantee \(Self.guaranteedControlPoints); players fall back to another form where it does not fit")
        }
    }

    /// The object member `key` of `json`, or nil after naming what is missing or mistyped.
    private mutating func object(_ json: JSONValue, _ key: String) -> JSONValue? {
        guard let value = json[key] else {
            error("missingKey", key, "missing")
            return nil
        }
        guard case .object = value else {
            error("wrongType", key, "expected an object, found \(value.kindName)")
            return nil
        }
        return value
    }

    /// An array of integers within `range`; nil (after naming the first bad entry) otherwise.
    private mutating func integers(_ object: JSONValue, _ key: String, _ place: String, _ range: ClosedRange<Int>) -> [Int]? {
        guard let items = findings.array(object[key], at: place) else { return nil }
        var values: [Int] = []
        for (index, item) in items.enumerated() {
            guard let value = integer(item, "\(place)[\(index)]", range) else { return nil }
            values.append(value)
        }
        return values
    }

    private mutating func integer(_ object: JSONValue, _ key: String, _ place: String, _ range: ClosedRange<Int>) -> Int? {
        guard let value = object[key] else {
            error("missingKey", place, "missing")
            return nil
        }
        return integer(value, place, range)
    }

    /// `value` as an integer within `range`, or nil after naming what is wrong.
    private mutating func integer(_ value: JSONValue, _ place: String, _ range: ClosedRange<Int>) -> Int? {
        guard case .number(let number) = value, number == number.rounded(), abs(number) < 9e15 else {
            error("wrongType", place, "expected an integer, found \(value.kindName)")
            return nil
        }
        guard range.contains(Int(number)) else {
            error("valueOutOfRange", place, "\(Int(number)) is outside \(range.lowerBound)…\(range.upperBound)")
            return nil
        }
        return Int(number)
    }

    /// The number member `key` of `object` within 0…1, or nil after naming what is wrong.
    private mutating func unitNumber(_ object: JSONValue, _ key: String, _ place: String) -> Double? {
        guard let value = object[key] else {
            error("missingKey", place, "missing")
            return nil
        }
        guard case .number(let number) = value else {
            error("wrongType", place, "expected a number, found \(value.kindName)")
            return nil
        }
        guard (0...1).contains(number) else {
            error("valueOutOfRange", place, "\(JSONText.shortest(number)) is outside 0…1")
            return nil
        }
        return number
    }
}
