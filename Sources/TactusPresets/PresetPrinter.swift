import TactusAnalysis
import TactusCore
import TactusMapping

/// Writes resolved presets back out as text: a complete, editable preset JSON (`presets
/// init`), and a listing of every value with where it came from and what it means (`presets show`).
public enum PresetPrinter {
    /// A complete preset holding every parameter as declared (the `feel` controls and the
    /// values they move, not the values they make), in section order, ready to edit.
    /// - Parameter schema: the `$schema` reference, as the file's folder reaches the schema.
    /// - Parameter preset: the resolved preset.
    /// - Parameter name: the `name` written.
    /// - Parameter description: the `description` written.
    /// - Parameter extends: the parent written as `extends`, or nil for a self-contained preset.
    /// - Returns: the JSON text, ending with a newline.
    public static func json(_ preset: ResolvedPreset, name: String, description: String,
                            extends: String? = nil, schema: String = PresetSchema.fileName) -> String {
        var values: [String: [String: ParameterValue]] = [PresetSections.onset: [PresetSections.methodKey: .choice(preset.onsetMethod.id)]]
        for section in PresetSections.all {
            values[section.path, default: [:]].merge(preset.declaredParameters(section.path).values) { $1 }
        }
        return json(PresetFile(source: name, name: name, description: description, extends: extends, values: values),
                    method: preset.onsetMethod, schema: schema)
    }

    /// A preset file as it would be written: its name, description, parent and the values it
    /// holds (only those), sections in `PresetSections` order and keys in their parts'
    /// order, onset keys as `method`'s (`onset.method` first when the file sets it).
    /// - Parameter schema: the `$schema` reference, as the file's folder reaches the schema.
    /// - Parameter file: the values to write.
    /// - Parameter method: the onset method whose parameters order the `onset` keys.
    /// - Returns: the JSON text, ending with a newline.
    public static func json(_ file: PresetFile, method: any OnsetMethod.Type, schema: String = PresetSchema.fileName) -> String {
        var members: [(key: String, value: JSONValue)] = [
            ("$schema", .string(schema)), ("schemaVersion", .number(Double(PresetFile.schemaVersion))),
            ("name", .string(file.name)), ("description", .string(file.description)),
        ]
        if let extends = file.extends { members.append(("extends", .string(extends))) }
        for section in PresetSections.all {
            guard let set = file.values[section.path], !set.isEmpty else { continue }
            var keys = section.descriptors(method).map(\.name)
            if section.path == PresetSections.onset { keys.insert(PresetSections.methodKey, at: 0) }
            let values = JSONValue.object(keys.compactMap { key in set[key].map { (key: key, value: $0.jsonValue) } })
            let parts = section.path.split(separator: ".").map(String.init)
            if parts.count == 1 {
                members.append((parts[0], values))
            } else if members.last?.key == parts[0], case .object(var group) = members[members.count - 1].value {
                group.append((parts[1], values))  // the next section of the same group (`mapping.…`)
                members[members.count - 1].value = .object(group)
            } else {
                members.append((parts[0], .object([(parts[1], values)])))
            }
        }
        return JSONValue.object(members).prettyText()
    }

    /// Every value in section order: `section.key = value    (origin)`, then, when the `feel`
    /// controls change it, `→ value (feel)`, what the part runs with; each followed by an
    /// indented line with the parameter's description and unit.
    /// - Parameter preset: the resolved preset.
    /// - Returns: the lines, without newlines.
    public static func listing(_ preset: ResolvedPreset) -> [String] {
        var rows: [(value: String, origin: String, help: String)] = [
            ("onset.method = \"\(preset.onsetMethod.id)\"", "(\(preset.origins["onset.method"] ?? "default"))", "Onset detection method: \(preset.onsetMethod.summary)"),
        ]
        for section in PresetSections.all {
            let declared = preset.declaredParameters(section.path), effective = preset.parameters(section.path)
            for d in section.descriptors(preset.onsetMethod) {
                let key = "\(section.path).\(d.name)"
                var origin = "(\(preset.origins[key] ?? "default"))"
                if let played = effective.values[d.name], played != declared.values[d.name] {
                    origin += " → \(played.roundedForDisplay) (feel)"
                }
                rows.append(("\(key) = \(declared.values[d.name]!)", origin, d.help + (d.unit.isEmpty ? "" : " Unit: \(d.unit).")))
            }
        }
        let width = rows.map(\.value.count).max() ?? 0
        return rows.flatMap { [$0.value.padded(toLength: width + 2) + $0.origin, "    " + $0.help] }
    }
}

private extension ParameterValue {
    /// A derived number to 4 decimal places (a gain in dB gives long fractions).
    var roundedForDisplay: String {
        guard case .number(let v) = self else { return description }
        return JSONText.shortest((v * 10_000).rounded() / 10_000)
    }
}
