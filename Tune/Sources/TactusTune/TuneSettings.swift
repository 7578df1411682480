import TactusAnalysis
import TactusCore
import TactusPresets

/// The preset a run starts from: tuned settings extend it, and saving writes a preset that
/// names it in `extends`.
public struct TuneBase {
    /// As given with `--preset`: a name or a path.
    public let reference: String
    /// Where its text came from.
    public let location: PresetLibrary.Location
    /// Its files, root first (`PresetLibrary.chain`), read once per run.
    public let chain: [PresetFile]
    /// The base resolved, without the `--set` overrides.
    public let resolved: ResolvedPreset
    /// Overrides given with `--set`, the page's starting point (not part of the base).
    public let startingOverrides: [String: [String: ParameterValue]]

    /// - Throws: `PresetError` for a preset that cannot be found or resolved, or a bad `--set`.
    /// - Parameters:
    ///   - reference: `--preset`: a name or a path.
    ///   - overrides: `--set` assignments, the page's starting point.
    ///   - library: where the preset is looked up.
    public init(reference: String, overrides: [String], library: PresetLibrary) throws {
        self.reference = reference
        location = try library.locate(reference)
        chain = try library.chain(reference)
        resolved = try ResolvedPreset(resolving: chain)
        startingOverrides = overrides.isEmpty ? [:] : try PresetFile.overrides(overrides).values
        _ = try ResolvedPreset(resolving: chain + [PresetFile.overrides(overrides)])
    }

    /// What a saved preset's `extends` says: the name, or the file's absolute path (a relative
    /// one would depend on where the saved preset goes).
    public var extendsReference: String {
        if case .file(let url) = location, reference.contains("/") || reference.hasSuffix(".json") { return url.path }
        return reference
    }
}

/// The settings a page sends: a name for the preset they would be saved as, and the values
/// that differ from the base (`section.key` → value). They resolve exactly as the preset that
/// "Save as new preset" writes (`file`), so an export made with them is byte for byte what
/// `tactus convert --preset <saved>.json` writes.
public struct TuneSettings: Equatable {
    /// Letters, digits, `-` and `_`, at most 64: a file name on every system.
    public static let namePattern = try! Regex("[A-Za-z0-9_-]{1,64}")

    /// The name a saved preset takes (`namePattern`).
    public let name: String
    /// Values by section path, then key: only those that differ from the base.
    public let values: [String: [String: ParameterValue]]

    /// Reads `{"name": …, "set": {"section.key": value, …}}`, dropping values equal to the base's.
    /// - Throws: `TuneRequestError` naming the first bad member.
    /// - Parameters:
    ///   - json: the page's request body.
    ///   - base: the run's base preset.
    public init(json: JSONValue, base: TuneBase) throws {
        guard case .string(let name)? = json["name"], (try? Self.namePattern.wholeMatch(in: name)) != nil else {
            throw TuneRequestError("name must be 1 to 64 letters, digits, - or _")
        }
        var values: [String: [String: ParameterValue]] = [:]
        if let set = json["set"] {
            guard case .object(let members) = set else { throw TuneRequestError("set must be an object") }
            for (key, value) in members {
                guard let dot = key.lastIndex(of: "."), PresetSections.named(String(key[..<dot])) != nil else {
                    throw TuneRequestError("set: \"\(key)\" is not a known section.key")
                }
                let parameter: ParameterValue
                switch value {
                case .number(let n) where n.isFinite: parameter = .number(n)
                case .bool(let b): parameter = .flag(b)
                case .string(let s): parameter = .choice(s)
                default: throw TuneRequestError("set: \(key) must be a finite number, a boolean or a string")
                }
                values[String(key[..<dot]), default: [:]][String(key[key.index(after: dot)...])] = parameter
            }
        }
        let method = values[PresetSections.onset]?[PresetSections.methodKey]
        let switchesMethod = method != nil && method != .choice(base.resolved.onsetMethod.id)
        for (section, entries) in values {
            // Another onset method drops the base's onset values: every one given is kept.
            if section == PresetSections.onset && switchesMethod { continue }
            let inForce = section == PresetSections.onset
                ? base.resolved.declaredParameters(section).values.merging([PresetSections.methodKey: .choice(base.resolved.onsetMethod.id)]) { $1 }
                : base.resolved.declaredSections[section]?.values ?? [:]
            values[section] = entries.filter { inForce[$0.key] != $0.value }
            if values[section]!.isEmpty { values[section] = nil }
        }
        self.name = name
        self.values = values
    }

    /// The preset file these settings are: it extends the base and holds only the differences.
    /// - Parameter base: the run's base preset.
    /// - Returns: a preset file named `name` whose `extends` names the base.
    public func file(extending base: TuneBase) -> PresetFile {
        PresetFile(source: name + ".json", name: name, description: "Tuned from \(base.resolved.name) with tactus tune.",
                   extends: base.extendsReference, values: values)
    }

    /// The resolved preset, checked as a preset file would be (ranges, the method's keys,
    /// ordered pairs such as `lowHz` below `highHz`).
    /// - Throws: `TuneSettingsError` with the reason in words when the page's own values are
    ///   refused (they are no file, so no file is named), else the `PresetError` of the base.
    /// - Parameter base: the run's base preset.
    /// - Returns: the preset the settings make.
    public func resolve(on base: TuneBase) throws -> ResolvedPreset {
        let file = file(extending: base)
        do { return try ResolvedPreset(resolving: base.chain + [file]) } catch let error as PresetError where error.file == file.displayName {
            throw TuneSettingsError(error.message)
        }
    }

    /// The `--set` lines that give the same values on top of the base, sorted.
    public var setLines: [String] {
        values.flatMap { section, entries in entries.map { "\(section).\($0.key)=\($0.value.plainText)" } }.sorted()
    }
}

/// Settings the page sent that do not make a preset (a value out of range, `lowHz` above
/// `highHz`): answered with 422 and this one line, which names the parameters and values; the
/// page shows it beside the knob that made it and keeps the last valid settings.
public struct TuneSettingsError: Error, CustomStringConvertible {
    /// The reason, on one line, e.g. `mapping.sharpness.lowHz = 5000 must be below mapping.sharpness.highHz = 4000`.
    public let description: String
    /// - Parameter description: the reason, on one line.
    public init(_ description: String) { self.description = description }
}

/// A request the page (or anything else) sent that cannot be served: answered with 400 and
/// this one line.
public struct TuneRequestError: Error, CustomStringConvertible {
    /// The reason, on one line.
    public let description: String
    /// - Parameter description: the reason, on one line.
    public init(_ description: String) { self.description = description }
}
