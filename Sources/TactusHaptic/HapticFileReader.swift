import TactusCore
import TactusPlatform

/// Reads and checks Meta / Lofelt `.haptic` (version 1 JSON) files, to the rules of the
/// reference readers: Lofelt's `core/datamodel/src/v1.rs` (NiceVibrations) and Meta's
/// `core/haptic_data/src/v1.rs` (meta-haptics-sdk).
///
/// Errors are what Meta's reader refuses in its LegacyCompatibility mode (the one Haptics Studio
/// loads files with): a `version.major` other than the unsigned integer 1 (`minor` and `patch`
/// may be missing: the readers take them as 0); a missing or
/// mistyped `signals.continuous.envelopes.amplitude`, breakpoint, emphasis or metadata field;
/// any amplitude, frequency or emphasis value outside 0…1; breakpoint times that decrease (the
/// first counted from 0, so a negative time is out of order); an emphasis amplitude below its
/// breakpoint's; fewer than two amplitude breakpoints or an amplitude envelope spanning no time.
/// A frequency breakpoint outside the amplitude envelope's span is a warning: Meta's Strict mode
/// refuses it, LegacyCompatibility and Lofelt's reader accept it (older Lofelt Studio exports
/// have them). Unknown keys are allowed anywhere, as both readers allow them.
struct HapticFileReader {
    /// Breakpoints of the amplitude envelope, in file order.
    struct AmplitudeBreakpoint: Equatable {
        var time: Double
        var amplitude: Double
        var emphasis: (amplitude: Double, frequency: Double)?

        static func == (a: Self, b: Self) -> Bool {
            a.time == b.time && a.amplitude == b.amplitude
                && a.emphasis?.amplitude == b.emphasis?.amplitude && a.emphasis?.frequency == b.emphasis?.frequency
        }
    }

    /// A frequency breakpoint, in file order.
    struct FrequencyBreakpoint: Equatable {
        var time: Double
        var frequency: Double
    }

    /// The file as its readers see it.
    struct Document: Equatable {
        var metadata: [MetadataEntry] = []
        var amplitude: [AmplitudeBreakpoint] = []
        /// nil when the file has no frequency envelope (it is optional).
        var frequency: [FrequencyBreakpoint]?
    }

    /// Metadata fields the readers type: strings, and `tags` an array of strings.
    static let metadataStrings = ["editor", "author", "source", "project", "description"]
    /// Largest magnitude the readers' 32-bit floats hold.
    static let float32Max = Double(Float.greatestFiniteMagnitude)
    /// Latest breakpoint time the other formats can hold, seconds (AHAP's writer stops at 10⁸ s).
    static let translatableSeconds = 1e8

    private var findings = FormatFindings()

    /// Reads `data`, collecting every problem; the document is nil when the file cannot be
    /// read at all (not JSON, or a required part missing or of the wrong type).
    static func inspect(_ data: Data) -> (Document?, [FormatDiagnostic]) {
        var reader = HapticFileReader()
        guard let json = reader.findings.json(data) else { return (nil, reader.findings.all) }
        let document = reader.document(json)
        if let document { reader.checkEnvelopes(document) }
        return (document, reader.findings.all)
    }

    private mutating func error(_ kind: String, _ location: String, _ message: String) { findings.error(kind, location, message) }

    private mutating func warning(_ kind: String, _ location: String, _ message: String) { findings.warning(kind, location, message) }

    // MARK: Shape

    private mutating func document(_ json: JSONValue) -> Document? {
        guard case .object = json else {
            error("wrongType", "", "expected an object at the top level, found \(json.kindName)")
            return nil
        }
        version(json["version"])
        var document = Document()
        if let metadata = json["metadata"] { document.metadata = self.metadata(metadata) }
        guard let envelopes = required(json, ["signals", "continuous", "envelopes"]) else { return nil }
        guard let amplitude = findings.array(envelopes["amplitude"], at: "signals.continuous.envelopes.amplitude") else { return nil }
        var complete = true
        for (index, item) in amplitude.enumerated() {
            let place = "signals.continuous.envelopes.amplitude[\(index)]"
            guard let time = number(item, "time", place), let value = number(item, "amplitude", place) else {
                complete = false
                continue
            }
            var breakpoint = AmplitudeBreakpoint(time: time, amplitude: value)
            if let emphasis = item["emphasis"], !isNull(emphasis) {
                guard let a = number(emphasis, "amplitude", place + ".emphasis"),
                      let f = number(emphasis, "frequency", place + ".emphasis") else {
                    complete = false
                    continue
                }
                breakpoint.emphasis = (a, f)
            }
            document.amplitude.append(breakpoint)
        }
        if let frequency = envelopes["frequency"], !isNull(frequency) {
            guard let items = findings.array(frequency, at: "signals.continuous.envelopes.frequency") else { return nil }
            document.frequency = []
            for (index, item) in items.enumerated() {
                let place = "signals.continuous.envelopes.frequency[\(index)]"
                guard let time = number(item, "time", place), let value = number(item, "frequency", place) else {
                    complete = false
                    continue
                }
                document.frequency!.append(FrequencyBreakpoint(time: time, frequency: value))
            }
        }
        return complete ? document : nil
    }

    private func isNull(_ value: JSONValue) -> Bool {
        if case .null = value { return true }
        return false
    }

    private mutating func version(_ value: JSONValue?) {
        guard let value else { return error("missingKey", "version", "missing; the readers require {\"major\": 1, …}") }
        guard case .object = value else { return error("wrongType", "version", "expected an object, found \(value.kindName)") }
        guard value["major"] != nil else { return error("missingKey", "version.major", "missing") }
        // The readers default a missing `minor` or `patch` to 0 (Meta's own test files have neither).
        for part in ["major", "minor", "patch"] {
            guard let number = value[part] else { continue }
            guard case .number(let n) = number, n >= 0, n <= Double(UInt32.max), n == n.rounded() else {
                return error("wrongType", "version.\(part)", "expected an unsigned integer")
            }
        }
        if case .number(let major) = value["major"]!, major != 1 {
            error("unsupportedVersion", "version.major", "\(JSONText.shortest(major)) is not supported: the readers know version 1")
        }
    }

    private mutating func metadata(_ value: JSONValue) -> [MetadataEntry] {
        guard case .object(let members) = value else {
            error("wrongType", "metadata", "expected an object, found \(value.kindName)")
            return []
        }
        var entries: [MetadataEntry] = []
        for (key, member) in members {
            switch (key, member) {
            case (_, .string(let text)):
                if key == "tags" { error("wrongType", "metadata.tags", "expected an array of strings, found a string") }
                entries.append(MetadataEntry(key: key, value: text))
            case ("tags", .array(let tags)):
                var names: [String] = []
                for (index, tag) in tags.enumerated() {
                    guard case .string(let name) = tag else {
                        error("wrongType", "metadata.tags[\(index)]", "expected a string, found \(tag.kindName)")
                        continue
                    }
                    names.append(name)
                }
                entries.append(MetadataEntry(key: key, value: names.joined(separator: ", ")))
            case _ where Self.metadataStrings.contains(key):
                error("wrongType", "metadata.\(key)", "expected a string, found \(member.kindName)")
            default:
                break  // unknown keys are allowed and ignored
            }
        }
        return entries
    }

    /// The object at `path` under `json`, or nil after naming what is missing.
    private mutating func required(_ json: JSONValue, _ path: [String]) -> JSONValue? {
        var node = json
        for (depth, key) in path.enumerated() {
            let place = path[...depth].joined(separator: ".")
            guard let next = node[key] else {
                error("missingKey", place, "missing")
                return nil
            }
            guard case .object = next else {
                error("wrongType", place, "expected an object, found \(next.kindName)")
                return nil
            }
            node = next
        }
        return node
    }

    /// A number member that fits the readers' 32-bit floats.
    private mutating func number(_ object: JSONValue, _ key: String, _ place: String) -> Double? {
        guard case .object = object else {
            error("wrongType", place, "expected an object, found \(object.kindName)")
            return nil
        }
        guard let value = object[key] else {
            error("missingKey", "\(place).\(key)", "missing")
            return nil
        }
        guard case .number(let number) = value else {
            error("wrongType", "\(place).\(key)", "expected a number, found \(value.kindName)")
            return nil
        }
        guard abs(number) <= Self.float32Max else {
            error("numberOutOfRange", "\(place).\(key)", "too large for the readers' 32-bit numbers")
            return nil
        }
        return number
    }

    // MARK: Values and order

    private mutating func checkEnvelopes(_ document: Document) {
        let amplitudePlace = "signals.continuous.envelopes.amplitude"
        var previous = 0.0
        for (index, breakpoint) in document.amplitude.enumerated() {
            let place = "\(amplitudePlace)[\(index)]"
            unit(breakpoint.amplitude, place + ".amplitude")
            if breakpoint.time < previous {
                error("timeOutOfOrder", place + ".time", "\(JSONText.shortest(breakpoint.time)) s comes before the previous breakpoint's \(JSONText.shortest(previous)) s")
            }
            previous = max(previous, breakpoint.time)
            if breakpoint.time > Self.translatableSeconds {
                warning("timeBeyondTranslation", place + ".time", "\(JSONText.shortest(breakpoint.time)) s: players read it, but Tactus translates and previews patterns of up to \(JSONText.shortest(Self.translatableSeconds)) s")
            }
            if let emphasis = breakpoint.emphasis {
                unit(emphasis.amplitude, place + ".emphasis.amplitude")
                unit(emphasis.frequency, place + ".emphasis.frequency")
                if emphasis.amplitude < breakpoint.amplitude {
                    error("emphasisBelowAmplitude", place + ".emphasis.amplitude",
                          "\(JSONText.shortest(emphasis.amplitude)) is below the breakpoint's amplitude \(JSONText.shortest(breakpoint.amplitude))")
                }
            }
        }
        guard let first = document.amplitude.first, let last = document.amplitude.last, document.amplitude.count >= 2 else {
            return error("tooFewBreakpoints", amplitudePlace, "needs at least two breakpoints (Meta's reader)")
        }
        if !(last.time > first.time) {
            error("zeroDuration", amplitudePlace, "spans no time: the first and last breakpoints are both at \(JSONText.shortest(first.time)) s")
        }
        previous = 0
        for (index, breakpoint) in (document.frequency ?? []).enumerated() {
            let place = "signals.continuous.envelopes.frequency[\(index)]"
            unit(breakpoint.frequency, place + ".frequency")
            if breakpoint.time < previous {
                error("timeOutOfOrder", place + ".time", "\(JSONText.shortest(breakpoint.time)) s comes before the previous breakpoint's \(JSONText.shortest(previous)) s")
            }
            previous = max(previous, breakpoint.time)
            if breakpoint.time < first.time || breakpoint.time > last.time {
                warning("frequencyOutsideAmplitude", place + ".time",
                        "\(JSONText.shortest(breakpoint.time)) s lies outside the amplitude envelope (\(JSONText.shortest(first.time))…\(JSONText.shortest(last.time)) s): Meta's Strict reader refuses it, Haptics Studio's legacy mode accepts it")
            }
        }
    }

    private mutating func unit(_ value: Double, _ place: String) {
        if !(0...1).contains(value) {
            error("valueOutOfRange", place, "\(JSONText.shortest(value)) is outside 0…1")
        }
    }
}
