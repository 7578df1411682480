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
    /// - Returns: the schema's text.
    public static func json() -> String {
        var root: [(String, String)] = [
            ("$schema", JSONText.quote("https://json-schema.org/draft/2020-12/schema")),
            ("$id", JSONText.quote(fileName)),
            ("title", JSONText.quote("Tactus preset")),
            ("description", JSONText.quote("Selects and tunes Tactus's analysis and mapping parts. Values resolve: parameter default → onset method default → extends chain → --set.")),
            ("type", JSONText.quote("object")),
            ("additionalProperties", "false"),
        ]
        var properties: [(String, String)] = [
            ("$schema", object([("type", JSONText.quote("string"))])),
            ("schemaVersion", object([("const", "\(PresetFile.schemaVersion)"), ("description", JSONText.quote("Version of this format."))])),
            ("name", object([("type", JSONText.quote("string")), ("description", JSONText.quote("Name shown by `tactus presets list`."))])),
            ("description", object([("type", JSONText.quote("string")), ("description", JSONText.quote("What the preset is for, one line."))])),
            ("extends", object([("type", JSONText.quote("string")), ("description", JSONText.quote("Parent preset: a name from the preset folders, or a path relative to this file."))])),
        ]
        var groups: [String: [(String, String)]] = [:]
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
            properties.append((group, object([("type", JSONText.quote("object")), ("additionalProperties", "false"),
                                              ("properties", object(groups[group]!))])))
        }
        root.append(("required", "[\(JSONText.quote("schemaVersion"))]"))
        root.append(("properties", object(properties)))
        return render(object(root)) + "\n"
    }

    private static func sectionSchema(_ section: PresetSections.Section) -> String {
        var properties: [(String, String)] = []
        var pairs: [OrderedPair] = []
        if section.path == PresetSections.onset {
            let ids = OnsetMethods.all.map { JSONText.quote($0.id) }.joined(separator: ", ")
            properties.append((PresetSections.methodKey, object([("enum", "[\(ids)]"), ("description", JSONText.quote("Onset detection method."))])))
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
        var fields = [("type", JSONText.quote("object")), ("description", JSONText.quote(section.summary)),
                      ("additionalProperties", "false"), ("properties", object(properties))]
        if !pairs.isEmpty {
            let list = pairs.map { object([("lower", JSONText.quote($0.lower.name)), ("upper", JSONText.quote($0.upper.name)),
                                           ("allowsEqual", $0.allowsEqual ? "true" : "false")]) }
            fields.append((orderedPairsKeyword, "[" + list.joined(separator: ", ") + "]"))
        }
        return object(fields)
    }

    private static func parameterSchema(_ d: ParameterDescriptor) -> String {
        var fields: [(String, String)] = []
        switch d.kind {
        case .number(let r):
            fields += [("type", JSONText.quote("number")), ("minimum", JSONText.shortest(r.lowerBound)),
                       ("maximum", JSONText.shortest(r.upperBound))]
        case .integer(let r):
            fields += [("type", JSONText.quote("integer")), ("minimum", JSONText.shortest(r.lowerBound)),
                       ("maximum", JSONText.shortest(r.upperBound))]
        case .flag:
            fields.append(("type", JSONText.quote("boolean")))
        case .choice(let options):
            fields.append(("enum", "[" + options.map(JSONText.quote).joined(separator: ", ") + "]"))
        case .text(let pattern):
            fields += [("type", JSONText.quote("string")), ("pattern", JSONText.quote("^(?:\(pattern))$"))]
        }
        fields.append(("default", "\(d.defaultValue)"))
        let unit = d.unit.isEmpty ? "" : " Unit: \(d.unit)."
        fields.append(("description", JSONText.quote(d.help + unit)))
        return object(fields)
    }

    // A tiny deterministic JSON builder: objects keep the order given.
    private static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(JSONText.quote($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }


    /// Pretty-prints compact JSON made by `object` (2-space indent, one member per line).
    private static func render(_ compact: String) -> String {
        var out = "", indent = 0, inString = false, escaped = false
        for ch in compact {
            if inString {
                out.append(ch)
                if escaped { escaped = false } else if ch == "\\" { escaped = true } else if ch == "\"" { inString = false }
                continue
            }
            switch ch {
            case "\"": inString = true; out.append(ch)
            case "{": indent += 1; out += "{\n" + String(repeating: "  ", count: indent)
            case "}": indent -= 1; out += "\n" + String(repeating: "  ", count: indent) + "}"
            case ",": out += ",\n" + String(repeating: "  ", count: indent)
            case " " where out.hasSuffix("\n" + String(repeating: "  ", count: indent)): break
            default: out.append(ch)
            }
        }
        return out
    }
}
