import TactusCore
import TactusFiles
import TactusMapping
import TactusPlatform

/// A preset problem, located by file and JSON path:
/// `mine.json: mapping.intensity.gamma = 7 is outside 0.2…4`.
public struct PresetError: Error, Equatable, CustomStringConvertible {
    /// The preset file's name (or `--set`).
    public let file: String
    /// What is wrong, with its JSON path, e.g. `mapping.intensity.gamma = 7 is outside 0.2…4`.
    public let message: String

    /// - Parameters:
    ///   - file: the preset file's name.
    ///   - message: what is wrong, with its JSON path.
    public init(file: String, _ message: String) {
        self.file = file
        self.message = message
    }

    /// `file: message`, on one line.
    public var description: String { "\(file): \(message)" }
}

/// One preset file as written: its own values only, before inheritance.
public struct PresetFile: Equatable {
    /// The `schemaVersion` this build reads and writes.
    public static let schemaVersion = 1
    /// The keys a preset may hold besides its sections (and `$schema`).
    public static let topLevelKeys = ["schemaVersion", "name", "description", "extends"]

    /// Where it came from (a path, or `--set` for command-line overrides).
    public var source: String
    /// The preset's name: its file name without `.json` unless it says otherwise.
    public var name: String
    /// What the preset is for, in a sentence (`presets list` shows it).
    public var description: String
    /// The parent preset, by name or by path relative to this file; nil for a root preset.
    public var extends: String?
    /// Values by section path, then parameter name. `onset.method` is stored as a choice.
    public var values: [String: [String: ParameterValue]]

    /// - Parameters:
    ///   - source: where it came from (a path, or `--set`).
    ///   - name: the preset's name.
    ///   - description: what it is for.
    ///   - extends: the parent preset, or nil.
    ///   - values: values by section path, then parameter name.
    public init(source: String, name: String, description: String = "", extends: String? = nil,
                values: [String: [String: ParameterValue]] = [:]) {
        self.source = source
        self.name = name
        self.description = description
        self.extends = extends
        self.values = values
    }

    /// Parses a preset's JSON, checking its shape (keys and value types, not ranges: those
    /// depend on the resolved onset method and are checked when the chain is resolved).
    /// - Parameters:
    ///   - data: the file's bytes (JSON).
    ///   - source: the file's path, for messages and relative `extends`.
    /// - Returns: the file's own values.
    /// - Throws: a `PresetError` naming the file and the JSON path of the first problem.
    public static func parse(_ data: Data, source: String) throws -> PresetFile {
        let fileName = FilePaths.lastComponent(source)
        let json: JSONValue
        do { json = try JSONReader.parse(data) } catch {
            throw PresetError(file: fileName, "is not valid JSON (\(error))")
        }
        guard case .object(let members) = json else { throw PresetError(file: fileName, "must hold a JSON object") }
        let top = try Self.unique(members, path: "", fileName)
        var preset = PresetFile(source: source, name: FilePaths.deletingExtension(fileName))
        let sectionRoots = Set(PresetSections.all.map { $0.path.split(separator: ".").first.map(String.init)! })
        for key in top.keys.sorted() {
            let value = top[key]!
            switch key {
            case "schemaVersion":
                guard case .number(let v) = value, v == Double(schemaVersion) else {
                    throw PresetError(file: fileName, "schemaVersion must be \(schemaVersion)")
                }
            case "name":
                preset.name = try string(value, key, fileName)
            case "description":
                preset.description = try string(value, key, fileName)
            case "extends":
                preset.extends = try string(value, key, fileName)
            case "$schema":
                break
            case _ where sectionRoots.contains(key):
                try preset.readSection(value, path: key, fileName: fileName)
            default:
                let known = topLevelKeys + sectionRoots.sorted()
                throw PresetError(file: fileName, "unknown key \"\(key)\"" + suggestion(key, known))
            }
        }
        return preset
    }

    private mutating func readSection(_ value: JSONValue, path: String, fileName: String) throws {
        guard case .object(let members) = value else {
            throw PresetError(file: fileName, "\(path) must be an object, not \(value.kindName)")
        }
        let entries = try Self.unique(members, path: path + ".", fileName)
        if PresetSections.named(path) == nil {
            // A grouping such as `mapping`: every entry is a subsection.
            let children = PresetSections.all.map(\.path).filter { $0.hasPrefix(path + ".") }
            for key in entries.keys.sorted() {
                let child = path + "." + key
                guard children.contains(child) else {
                    let names = children.map { String($0.dropFirst(path.count + 1)) }
                    throw PresetError(file: fileName, "unknown section \"\(child)\"" + Self.suggestion(key, names))
                }
                try readSection(entries[key]!, path: child, fileName: fileName)
            }
            return
        }
        var section: [String: ParameterValue] = [:]
        for key in entries.keys.sorted() {
            switch entries[key]! {
            case .number(let n): section[key] = .number(n)
            case .bool(let b): section[key] = .flag(b)
            case .string(let s): section[key] = .choice(s)
            case let other:
                throw PresetError(file: fileName, "\(path).\(key) must be a number, boolean or string, not \(other.kindName)")
            }
        }
        values[path] = section
    }

    private static func string(_ value: JSONValue, _ key: String, _ fileName: String) throws -> String {
        guard case .string(let s) = value else { throw PresetError(file: fileName, "\(key) must be a string") }
        return s
    }

    static func suggestion(_ name: String, _ candidates: [String]) -> String {
        closestName(to: name, in: candidates).map { " (did you mean \"\($0)\"?)" } ?? ""
    }

    /// An object's members by key; a key given twice is an error (which one would win is a
    /// trap for whoever edits the file).
    private static func unique(_ members: [(key: String, value: JSONValue)], path: String,
                               _ fileName: String) throws -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for (key, value) in members {
            guard result.updateValue(value, forKey: key) == nil else {
                throw PresetError(file: fileName, "\(path)\(key) is given twice")
            }
        }
        return result
    }
}
