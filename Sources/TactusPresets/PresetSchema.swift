import TactusAnalysis
import TactusCore
import TactusMapping

/// Generates the JSON Schema of preset files from the parts' parameter descriptors, so
/// editors can autocomplete and check presets, and the schema can never drift from the
/// code (a test regenerates it and compares with `Presets/preset.schema.json`).
///
/// Onset parameters depend on the method; the schema lists every method's parameters
/// (each with its own help) and checks `method` against the known ids. The resolver is
/// stricter: it refuses a parameter that the selected method does not have.
///
/// Pairs that must keep their order (`OrderedPair`) cannot be said in standard JSON Schema;
/// each section lists them under the annotation keyword `x-tactus-orderedPairs`, as
/// `{"lower": name, "upper": name, "allowsEqual": bool}`, for editors and pages that read it.
public enum PresetSchema {
    /// The schema's file name, beside the shipped presets.
    public static let fileName = "preset.schema.json"
    /// The annotation keyword listing a section's ordered pairs.
    public static let orderedPairsKeyword = "x-tactus-orderedPairs"

    /// The JSON Schema (draft 2020-12) of a preset, from the parameter descriptors: every section,
    /// key, type, range, default and ordered pair (`Presets/preset.schema.json` is this text).
    /// Objects one member per line, arrays `hanging` (`["a",` then each further item on its own
    /// line, `[{` … `}]`), numbers shortest.
    /// - Returns: the schema's text, ending with a newline.
    public static func json() -> String {
        var properties: [(key: String, value: JSONValue)] = [
            ("$schema", .object([("type", .string("string"))])),
            ("schemaVersion", .object([("const", .number(Double(PresetFile.schemaVersion))),
                                       ("description", .string("Version of this format."))])),
            ("name", .object([("type", .string("string")), ("description", .string("Name shown by `tactus presets list`."))])),
            ("description", .object([("type", .string("string")), ("description", .string("What the preset is for, one line."))])),
            ("extends", .object([("type", .string("string")),
                                 ("description", .string("Parent preset: a name from the preset folders, or a path relative to this file."))])),
        ]
        var groups: [String: [(key: String, value: JSONValue)]] = [:]
        var order: [String] = []
        for section in PresetSections.all {
            let parts = section.path.split(separator: ".").map(String.init)
            let schema = sectionSchema(section)
            if parts.count == 1 {
                properties.append((parts[0], schema))
            } else {
                if groups[parts[0]] == nil { order.append(parts[0]) }
                groups[parts[0], default: []].append((parts[1], schema))
            }
        }
        for group in order {
            properties.append((group, .object([("type", .string("object")), ("additionalProperties", .bool(false)),
                                               ("properties", .object(groups[group]!))])))
        }
        let root = JSONValue.object([
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("$id", .string(fileName)),
            ("title", .string("Tactus preset")),
            ("description", .string("Selects and tunes Tactus's analysis and mapping parts. Values resolve: parameter default → onset method default → extends chain → --set.")),
            ("type", .string("object")),
            ("additionalProperties", .bool(false)),
            ("required", .array([.string("schemaVersion")])),
            ("properties", .object(properties)),
        ])
        return JSONWriter.text { $0.value(root, objects: .lines, arrays: .hanging) }
    }

    private static func sectionSchema(_ section: PresetSections.Section) -> JSONValue {
        var properties: [(key: String, value: JSONValue)] = []
        var pairs: [OrderedPair] = []
        if section.path == PresetSections.onset {
            properties.append((PresetSections.methodKey, .object([("enum", .array(OnsetMethods.all.map { .string($0.id) })),
                                                                  ("description", .string("Onset detection method."))])))
            var seen = Set<String>(), seenPairs = Set<String>()
            for method in OnsetMethods.all {
                for d in method.parameters where seen.insert(d.name).inserted {
                    properties.append((d.name, parameterSchema(d)))
                }
                pairs += section.orderedPairs(method).filter { seenPairs.insert($0.lower.name + "<" + $0.upper.name).inserted }
            }
        } else {
            for d in section.descriptors(SuperFlux.self) { properties.append((d.name, parameterSchema(d))) }
            pairs = section.orderedPairs(SuperFlux.self)
        }
        var fields: [(key: String, value: JSONValue)] = [
            ("type", .string("object")), ("description", .string(section.summary)),
            ("additionalProperties", .bool(false)), ("properties", .object(properties)),
        ]
        if !pairs.isEmpty {
            fields.append((orderedPairsKeyword, .array(pairs.map {
                .object([("lower", .string($0.lower.name)), ("upper", .string($0.upper.name)), ("allowsEqual", .bool($0.allowsEqual))])
            })))
        }
        return .object(fields)
    }

    private static func parameterSchema(_ d: ParameterDescriptor) -> JSONValue {
        var fields: [(key: String, value: JSONValue)] = []
        switch d.kind {
        case .number(let r):
            fields += [("type", .string("number")), ("minimum", .number(r.lowerBound)), ("maximum", .number(r.upperBound))]
        case .integer(let r):
            fields += [("type", .string("integer")), ("minimum", .number(r.lowerBound)), ("maximum", .number(r.upperBound))]
        case .flag:
            fields.append(("type", .string("boolean")))
        case .choice(let options):
            fields.append(("enum", .array(options.map { .string($0) })))
        case .text(let pattern):
            fields += [("type", .string("string")), ("pattern", .string("^(?:\(pattern))$"))]
        }
        fields.append(("default", d.defaultValue.jsonValue))
        let unit = d.unit.isEmpty ? "" : " Unit: \(d.unit)."
        fields.append(("description", .string(d.help + unit)))
        return .object(fields)
    }
}
