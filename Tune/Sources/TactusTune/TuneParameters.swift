import TactusAnalysis
import TactusCore
import TactusPresets

/// Every preset parameter as the page draws its knobs: the sections of `PresetSections` in
/// order, each parameter from its `ParameterDescriptor` (the source of `tactus presets schema`),
/// so a parameter added to a part appears on the page without touching it.
enum TuneParameters {
    /// The sections for the onset `method` (its own parameters in `onset`), with `values` in force.
    static func json(method: any OnsetMethod.Type, values: ResolvedPreset) -> JSONValue {
        .array(PresetSections.all.map { section in
            var parameters = section.descriptors(method).map { parameter($0, section: section.path, values: values) }
            if section.path == PresetSections.onset {
                let methods = OnsetMethods.all.map { $0.id }
                parameters.insert(.object([
                    ("key", .string("onset.method")), ("name", .string(PresetSections.methodKey)), ("kind", .string("choice")),
                    ("options", .array(methods.map { .string($0) })), ("unit", .string("")),
                    ("help", .string("Onset detection method: " + OnsetMethods.all.map { "\($0.id) (\($0.summary))" }.joined(separator: "; "))),
                    ("value", .string(values.onsetMethod.id)), ("analysis", .bool(true)),
                ]), at: 0)
            }
            return .object([("path", .string(section.path)), ("summary", .string(section.summary)),
                            ("parameters", .array(parameters))])
        })
    }

    /// Every parameter's value in `preset` (before the `feel` controls act), by `section.name`,
    /// the onset method as `onset.method`: what the page sets to start from that preset.
    /// - Parameter preset: a resolved preset.
    /// - Returns: an object of `section.name` → value.
    static func values(of preset: ResolvedPreset) -> JSONValue {
        guard case .array(let sections) = json(method: preset.onsetMethod, values: preset) else { return .object([]) }
        return .object(sections.flatMap { section -> [(key: String, value: JSONValue)] in
            guard case .array(let parameters)? = section["parameters"] else { return [] }
            return parameters.compactMap { p in p["key"]?.string.flatMap { key in p["value"].map { (key, $0) } } }
        })
    }

    private static func parameter(_ d: ParameterDescriptor, section: String, values: ResolvedPreset) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("key", .string(section + "." + d.name)), ("name", .string(d.name))]
        switch d.kind {
        case .number(let range), .integer(let range):
            if case .integer = d.kind { members.append(("kind", .string("integer"))) } else { members.append(("kind", .string("number"))) }
            members += [("min", .number(range.lowerBound)), ("max", .number(range.upperBound))]
        case .flag:
            members.append(("kind", .string("flag")))
        case .choice(let options):
            members += [("kind", .string("choice")), ("options", .array(options.map { .string($0) }))]
        case .text(let pattern):
            members += [("kind", .string("text")), ("pattern", .string(pattern))]
        }
        members += [("unit", .string(d.unit)), ("help", .string(d.help)), ("default", d.defaultValue.jsonValue),
                    ("value", (values.declaredParameters(section).values[d.name] ?? d.defaultValue).jsonValue),
                    ("analysis", .bool(TuneSound.analysisSections.contains(section)
                                       || (section == FeelSettings.id && d.name == FeelSettings.density.name)))]
        return .object(members)
    }
}
