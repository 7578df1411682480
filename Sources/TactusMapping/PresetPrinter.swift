import TactusAHAP
import TactusAnalysis
import TactusCore

/// Writes resolved presets back out as text: a complete, editable preset JSON (`presets
/// init`), and a listing of every value with where it came from (`presets show`).
public enum PresetPrinter {
    /// A complete preset holding every parameter, in section order, ready to edit.
    public static func json(_ preset: ResolvedPreset, name: String, description: String,
                            extends: String? = nil) -> String {
        var values: [String: [String: ParameterValue]] = [PresetSections.onset: [PresetSections.methodKey: .choice(preset.onsetMethod.id)]]
        for section in PresetSections.all {
            values[section.path, default: [:]].merge(preset.parameters(section.path).values) { $1 }
        }
        return json(PresetFile(source: name, name: name, description: description, extends: extends, values: values),
                    method: preset.onsetMethod)
    }

    /// A preset file as it would be written: its name, description, parent and the values it
    /// holds (only those), sections in `PresetSections` order and keys in their parts'
    /// order, onset keys as `method`'s (`onset.method` first when the file sets it).
    public static func json(_ file: PresetFile, method: any OnsetMethod.Type) -> String {
        var lines = ["{", "  \"$schema\": \"preset.schema.json\",", "  \"schemaVersion\": \(PresetFile.schemaVersion),",
                     "  \"name\": \(JSONText.quote(file.name)),", "  \"description\": \(JSONText.quote(file.description)),"]
        if let extends = file.extends { lines.append("  \"extends\": \(JSONText.quote(extends)),") }
        var groups: [(String, [String])] = []  // (top-level key, rendered body lines)
        for section in PresetSections.all {
            guard let set = file.values[section.path], !set.isEmpty else { continue }
            var keys = section.descriptors(method).map(\.name)
            if section.path == PresetSections.onset { keys.insert(PresetSections.methodKey, at: 0) }
            let entries = keys.compactMap { key in set[key].map { "\(JSONText.quote(key)): \($0)" } }
            let parts = section.path.split(separator: ".").map(String.init)
            if parts.count == 1 {
                groups.append((parts[0], render(entries, indent: 4)))
            } else {
                let body = ["\(JSONText.quote(parts[1])): {"] + render(entries, indent: 2) + ["}"]
                if let last = groups.last, last.0 == parts[0] {
                    groups[groups.count - 1].1[groups[groups.count - 1].1.count - 1] += ","
                    groups[groups.count - 1].1 += body.map { "    " + $0 }
                } else {
                    groups.append((parts[0], body.map { "    " + $0 }))
                }
            }
        }
        if groups.isEmpty { lines[lines.count - 1].removeLast() }  // no section follows the last member
        for (i, group) in groups.enumerated() {
            lines.append("  \(JSONText.quote(group.0)): {")
            lines += group.1
            lines.append("  }" + (i == groups.count - 1 ? "" : ","))
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `section.key = value    (origin)` for every value, in section order.
    public static func origins(_ preset: ResolvedPreset) -> [String] {
        var rows: [(String, String)] = [("onset.method = \"\(preset.onsetMethod.id)\"", preset.origins["onset.method"] ?? "")]
        for section in PresetSections.all {
            let set = preset.parameters(section.path)
            for d in section.descriptors(preset.onsetMethod) {
                let key = "\(section.path).\(d.name)"
                rows.append(("\(key) = \(set.values[d.name]!)", preset.origins[key] ?? "default"))
            }
        }
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padded(toLength: width + 2) + "(\($0.1))" }
    }

    private static func render(_ entries: [String], indent: Int) -> [String] {
        entries.enumerated().map { i, e in
            String(repeating: " ", count: indent) + e + (i == entries.count - 1 ? "" : ",")
        }
    }
}
