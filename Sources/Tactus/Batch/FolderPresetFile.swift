import TactusAHAP
import TactusCore
import TactusPlatform

/// A `tactus.json` in a folder of a batch's input tree: the preset, and overrides on top of
/// it, for that folder and everything below it.
///
/// ```json
/// { "preset": "impacts", "set": { "peaks.delta": 4, "mapping.intensity.gamma": 0.8 } }
/// ```
/// Both keys are optional. `preset` is a preset name or a path relative to this folder;
/// `set` takes the same `section.key` names as `--set`. See `FolderPresets` for how the
/// files of nested folders combine.
public struct FolderPresetFile: Equatable, Sendable {
    /// The file's name in a folder of the input tree.
    public static let fileName = "tactus.json"

    /// Preset name, or an absolute path (relative paths are resolved against the folder).
    public var preset: String?
    /// Overrides by `section.key`, as `--set` text (`4`, `0.8`, `true`, `superflux`).
    public var overrides: [String: String]

    /// - Parameters:
    ///   - preset: a preset name or path, or nil to keep the enclosing folder's.
    ///   - overrides: `section.key` → value text.
    public init(preset: String? = nil, overrides: [String: String] = [:]) {
        self.preset = preset
        self.overrides = overrides
    }

    /// Parses the file's JSON; the error message says what is wrong without naming the file.
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - folder: the folder holding it, which a relative `preset` path is resolved against.
    /// - Returns: the preset and overrides it sets.
    /// - Throws: a `FolderPresetError` for invalid JSON, a repeated or unknown key, a value of
    ///   the wrong type or a `set` name that is not `section.key`.
    public static func parse(_ data: Data, folder: URL) throws -> FolderPresetFile {
        let json: JSONValue
        do { json = try JSONReader.parse(data) } catch {
            throw FolderPresetError("is not valid JSON (\(error))")
        }
        guard case .object(let members) = json else { throw FolderPresetError("must hold a JSON object") }
        var file = FolderPresetFile()
        var seen = Set<String>()
        for (key, value) in members {
            guard seen.insert(key).inserted else { throw FolderPresetError("\"\(key)\" appears twice") }
            switch (key, value) {
            case ("preset", .string(let reference)):
                file.preset = isPath(reference)
                    ? URL(fileURLWithPath: reference, relativeTo: folder).standardizedFileURL.path : reference
            case ("set", .object(let entries)):
                for (name, entry) in entries {
                    file.overrides[name] = try overrideText(name, entry)
                }
            case ("preset", _):
                throw FolderPresetError("\"preset\" must be a preset name or path (a string), not \(value.kindName)")
            case ("set", _):
                throw FolderPresetError("\"set\" must be an object such as {\"peaks.delta\": 4}, not \(value.kindName)")
            default:
                throw FolderPresetError("unknown key \"\(key)\"", hint: "a tactus.json holds \"preset\" and \"set\"")
            }
        }
        return file
    }

    /// Same rule as `PresetLibrary.locate`: a `/` or a `.json` ending means a path.
    static func isPath(_ reference: String) -> Bool {
        reference.contains("/") || reference.hasSuffix(".json")
    }

    private static func overrideText(_ name: String, _ value: JSONValue) throws -> String {
        guard name.contains("."), !name.contains("=") else {
            throw FolderPresetError("set: \"\(name)\" is not a section.key name", hint: "e.g. \"peaks.delta\"")
        }
        switch value {
        case .number(let n) where n.isFinite: return "\(n)"
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return s
        default: throw FolderPresetError("set: \(name) must be a number, boolean or string, not \(value.kindName)")
        }
    }
}

/// What is wrong with a `tactus.json`; `FolderPresets` adds the file's path.
public struct FolderPresetError: Error, Equatable {
    /// What is wrong, without the file's name.
    public let reason: String
    /// What to do about it, or nil.
    public let hint: String?

    /// - Parameters:
    ///   - reason: what is wrong.
    ///   - hint: what to do about it.
    public init(_ reason: String, hint: String? = nil) {
        self.reason = reason
        self.hint = hint
    }
}
