import TactusAHAP
import TactusCore

/// Writes resolved presets back out as text: a complete, editable preset JSON (`presets
/// init`), and a listing of every value with where it came from (`presets show`).
public enum PresetPrinter {
    /// A complete preset holding every parameter, in section order, ready to edit.
    public static func json(_ preset: ResolvedPreset, name: String, description: String,
                            extends: String? = nil) -> String {
        var lines = ["{", "  \"$schema\": \"preset.schema.json\",", "  \"schemaVersion\": \(PresetFile.schemaVersion),",
                     "  \"name\": \(JSONText.quote(name)),", "  \"description\": \(JSONText.quote(description)),"]
        if let extends { lines.append("  \"extends\": \(JSONText.quote(extends)),") }
        var groups: [(String, [String])] = []  // (top-level key, rendered body lines)
        for section in PresetSections.all {
            let set = preset.parameters(section.path)
            var entries: [String] = []
            if section.path == PresetSections.onset {
                entries.append("\"\(PresetSections.methodKey)\": \(JSONText.quote(preset.onsetMethod.id))")
            }
            for d in section.descriptors(preset.onsetMethod) {
                entries.append("\(JSONText.quote(d.name)): \(set.values[d.name]!)")
            }
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
