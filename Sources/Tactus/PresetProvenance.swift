import TactusPresets
import TactusCore
import TactusFiles
import TactusPlatform

/// Which tool and preset made a haptic file, recorded in its metadata (AHAP's `Metadata`,
/// `.haptic`'s `metadata`, Android's and rumble's `metadata`) so an output can be traced,
/// checked for staleness and made again (`tactus convert --preset-from OLD.ahap`, or any
/// other readable format Tactus wrote).
public struct PresetProvenance: Equatable {
    /// The preset's name (`Preset`).
    public var presetName: String
    /// The `--set` overrides, as sorted `section.key=value` (`PresetOverrides`).
    public var overrides: [String]
    /// `ResolvedPreset.hash` of the values the conversion ran with (`PresetHash`).
    public var presetHash: String
    /// `TactusVersion.current` of the tool that wrote the file (`ToolVersion`).
    public var toolVersion: String

    /// The metadata keys the four values are recorded under.
    public static let keys = (preset: "Preset", overrides: "PresetOverrides", hash: "PresetHash", tool: "ToolVersion")

    /// The entry that names Tactus as the maker of a file it writes (`metadata(source:)`).
    static let maker = MetadataEntry(key: "Project", value: "Tactus")
    /// The key under which a translation names its translator, "Tactus <version>".
    static let translatorKey = "TranslatedBy"

    /// The entries a translation adds to the metadata it carries over: the file it read and
    /// the tool that translated it.
    static func translation(of source: String) -> [MetadataEntry] {
        [MetadataEntry(key: "TranslatedFrom", value: source),
         MetadataEntry(key: translatorKey, value: "\(maker.value) \(TactusVersion.current)")]
    }

    /// Whether `metadata` says Tactus made the file (`maker`, or `.haptic`'s `editor`
    /// "Tactus <version>") or translated it (`translatorKey`).
    static func marksTactus(_ metadata: [MetadataEntry]) -> Bool {
        metadata.contains {
            $0 == maker || (($0.key == translatorKey || $0.key == "editor") && $0.value.hasPrefix(maker.value + " "))
        }
    }

    /// - Parameter preset: the preset a conversion runs with.
    public init(preset: ResolvedPreset) {
        presetName = preset.name
        overrides = preset.overrides
        presetHash = preset.hash
        toolVersion = TactusVersion.current
    }

    func metadata(source: String) -> [MetadataEntry] {
        var entries: [MetadataEntry] = [
            Self.maker,
            .init(key: "Description", value: "Haptics for \(source), made by Tactus"),
            .init(key: "Source", value: source),
            .init(key: Self.keys.preset, value: presetName),
        ]
        if !overrides.isEmpty { entries.append(.init(key: Self.keys.overrides, value: overrides.joined(separator: " "))) }
        entries.append(.init(key: Self.keys.hash, value: presetHash))
        entries.append(.init(key: Self.keys.tool, value: toolVersion))
        return entries
    }

    /// Reads the provenance of a haptic file written by Tactus, in any readable format
    /// (`HapticFormats.read`).
    /// - Throws: `FileError` naming the file: unreadable, or without Tactus's preset entries.
    /// - Parameter file: a haptic file in a readable format.
    /// - Returns: the recorded preset name, overrides, hash and tool version.
    public static func read(from file: URL) throws -> PresetProvenance {
        let metadata = try HapticFormats.read(file).metadata
        func value(_ key: String) -> String? { metadata.last { $0.key == key }?.value }
        guard let name = value(keys.preset), let hash = value(keys.hash) else {
            throw FileError(file: file.path, reason: "has no Tactus preset metadata",
                                  hint: "only files written by Tactus record their preset")
        }
        let overrides = value(keys.overrides).map { $0.split(separator: " ").map(String.init) } ?? []
        return PresetProvenance(presetName: name, overrides: overrides, presetHash: hash,
                                toolVersion: value(keys.tool) ?? "")
    }

    init(presetName: String, overrides: [String], presetHash: String, toolVersion: String) {
        self.presetName = presetName
        self.overrides = overrides
        self.presetHash = presetHash
        self.toolVersion = toolVersion
    }

    /// Resolves the same preset again and checks it still gives the recorded values.
    /// - Throws: `FileError` naming `file` (the file the provenance was read from) when what it
    ///   records no longer resolves or gives other values.
    /// - Parameters:
    ///   - library: where the preset is looked up by name.
    ///   - file: the file the provenance was read from, for messages.
    /// - Returns: the preset, with the recorded overrides applied.
    public func resolve(in library: PresetLibrary, file: URL) throws -> ResolvedPreset {
        let preset: ResolvedPreset
        do { preset = try library.resolve(presetName, overrides: overrides) } catch let error as PresetError {
            // The recorded overrides are this file's, not a --set of this run.
            let origin = error.file == PresetFile.overrideSource ? Self.keys.overrides : error.file
            throw FileError(file: file.path, reason: "records preset \"\(presetName)\", which does not resolve: \(origin): \(error.message)",
                            hint: "choose a preset with --preset")
        }
        guard preset.hash == presetHash else {
            throw FileError(file: file.path,
                                  reason: "preset \"\(presetName)\" has changed since this file was made "
                                      + "(hash \(presetHash), now \(preset.hash))",
                                  hint: "use --preset \(presetName) to convert with its current values")
        }
        return preset
    }
}
