import TactusCore
import TactusFiles
import TactusMapping
import TactusPlatform

/// Finds presets by name or path and resolves their `extends` chains.
///
/// Names are looked up as `<name>.json` in `directories`, in order. Paths (anything with a
/// `/` or ending in `.json`) are read as they are; a parent named by a relative path is
/// found relative to the child's folder.
public struct PresetLibrary {
    /// Folders searched for `<name>.json`, in order.
    public let directories: [URL]
    /// Presets served from memory by name (JSON text), found after every directory: the
    /// copies compiled into the tool, for a binary that runs without the Presets/ folder.
    public let builtIn: [String: String]

    /// - Parameters:
    ///   - directories: folders searched for `<name>.json`, in order.
    ///   - builtIn: preset JSON texts by name, found after every directory.
    public init(directories: [URL], builtIn: [String: String] = [:]) {
        self.directories = directories
        self.builtIn = builtIn
    }

    /// The file the process runs: `/proc/self/exe` resolved on Linux (what `Bundle.main`
    /// gives there), `Bundle.main.executableURL` elsewhere; else the command line's name.
    public static var runningExecutable: URL {
        #if canImport(FoundationEssentials) && os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        #elseif !canImport(FoundationEssentials)
        if let url = Bundle.main.executableURL { return url }
        #endif
        return URL(fileURLWithPath: CommandLine.arguments.first ?? ".")
    }

    /// The shipped presets as compiled into the tool, with no directory.
    public static let compiledIn = PresetLibrary(
        directories: [], builtIn: Dictionary(uniqueKeysWithValues: BuiltInPresets.files.map { ($0.name, $0.json + "\n") }))

    /// The default search path: `$TACTUS_PRESETS` (colon-separated) and `./Presets`, the
    /// user's folders, searched whenever they exist (so a preset `tactus tune` saved into
    /// `./Presets` works by name from that folder); then a `Presets` folder beside or above the
    /// running executable (the repository layout) or in `share/tactus/Presets` of its install
    /// prefix, that holds a `default.json`; when no folder holds a `default.json`, the copies
    /// compiled into the tool come after the user's folders.
    /// - Parameter executable: the running tool; by default the file the process runs (not
    ///   its name on the command line, which is relative when it was found through `PATH`).
    /// - Returns: the user's folders, the folders that hold a `default.json`, and the
    ///   compiled-in presets when none does.
    public static func standard(executable: URL = runningExecutable)
        -> PresetLibrary {
        var user: [URL] = []
        if let env = ProcessInfo.processInfo.environment["TACTUS_PRESETS"] {
            user += env.split(separator: ":").map { URL(fileURLWithPath: String($0), isDirectory: true) }
        }
        user.append(URL(fileURLWithPath: userFolderName, isDirectory: true))
        var shipped: [URL] = []
        var dir = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            shipped.append(dir.appendingPathComponent("Presets", isDirectory: true))
            shipped.append(dir.appendingPathComponent("share/tactus/Presets", isDirectory: true))
            dir = dir.deletingLastPathComponent()
        }
        let holdsDefault = { (folder: URL) in FileManager.default.fileExists(atPath: folder.appendingPathComponent("default.json").path) }
        var isFolder = false
        let found = user.filter { FileManager.default.fileExists(atPath: $0.path, isDirectory: &isFolder) && isFolder }
            + shipped.filter(holdsDefault)
        return PresetLibrary(directories: found, builtIn: found.contains(where: holdsDefault) ? [:] : compiledIn.builtIn)
    }

    /// The user's presets folder in the current directory (`./Presets`), always on the
    /// search path when it exists: where `tactus tune` saves new presets by default.
    public static let userFolderName = "Presets"

    /// The preset schema (`PresetSchema.fileName`) in the first directory that holds one, as
    /// a `$schema` reference from `folder`: a relative path, so a preset written there finds
    /// it (and keeps finding it when the tree moves as a whole); nil when no directory holds
    /// one (the compiled-in presets alone).
    /// - Parameter folder: the folder a preset is about to be written into.
    /// - Returns: the schema's path relative to `folder`, or nil.
    public func schemaReference(from folder: URL) -> String? {
        let schema = directories.map { $0.appendingPathComponent(PresetSchema.fileName) }
            .first { FileManager.default.fileExists(atPath: $0.path) }
        guard let schema else { return nil }
        func canonical(_ url: URL) -> String { url.standardizedFileURL.resolvingSymlinksInPath().path }
        return FilePaths.relative(canonical(schema), from: canonical(folder))
    }

    /// Where a preset's text comes from.
    public enum Location: Equatable {
        /// A preset file on disk.
        case file(URL)
        /// One of `builtIn`, by name.
        case builtIn(String)

        /// How messages and provenance name it: the file's path, or `<built-in>/NAME.json`.
        public var source: String {
            switch self {
            case .file(let url): return url.path
            case .builtIn(let name): return "<built-in>/\(name).json"
            }
        }
    }

    /// Names of the presets found, each once, sorted.
    /// - Returns: every preset name in `directories` and `builtIn`, without `.json`.
    public func names() -> [String] {
        var names = Set(builtIn.keys)
        for dir in directories {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            for f in files where f.hasSuffix(".json") && !f.hasSuffix(".schema.json") {
                names.insert(String(f.dropLast(5)))
            }
        }
        return names.sorted()
    }

    /// Locates a preset by name or path. A parent named by a relative path is found relative
    /// to `base` (its child's folder); built-in presets name their parents by name.
    /// - Parameters:
    ///   - reference: a preset name, or a path (containing `/` or ending in `.json`).
    ///   - base: the folder a relative path is resolved against; nil for the current directory.
    /// - Returns: the file, or the built-in copy.
    /// - Throws: a `PresetError` when no file or preset has that name (with the closest name as a hint).
    public func locate(_ reference: String, relativeTo base: URL? = nil) throws -> Location {
        if reference.contains("/") || reference.hasSuffix(".json") {
            let url = base.map { URL(fileURLWithPath: reference, relativeTo: $0) } ?? URL(fileURLWithPath: reference)
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw PresetError(file: reference, "no such preset file")
            }
            return .file(url.standardizedFileURL)
        }
        for dir in directories {
            let url = dir.appendingPathComponent(reference + ".json")
            if FileManager.default.fileExists(atPath: url.path) { return .file(url.standardizedFileURL) }
        }
        if builtIn[reference] != nil { return .builtIn(reference) }
        let hint = closestName(to: reference, in: names()).map { " (did you mean \"\($0)\"?)" }
            ?? " (see `tactus presets list`)"
        throw PresetError(file: reference, "no preset with this name" + hint)
    }

    /// The text of a located preset.
    /// - Parameter location: a location `locate` returned.
    /// - Returns: the preset's bytes (at most 1 MiB for a file).
    /// - Throws: a `PresetError` naming the file when it cannot be read.
    public func contents(of location: Location) throws -> Data {
        switch location {
        case .builtIn(let name):
            // Copied from the string's bytes: `Data(_: some Sequence)` casts its argument to
            // a protocol at run time (a search of the conformance table at start-up).
            var text = builtIn[name] ?? ""
            return text.withUTF8 { Data(buffer: $0) }
        case .file(let url):
            do { return try InputFile.contents(of: url, maxBytes: 1 << 20) } catch {
                throw PresetError(file: url.lastPathComponent, (error as? FileError)?.reason ?? "cannot be read")
            }
        }
    }

    /// Loads a preset and its ancestors, root first; refuses cycles and missing parents. An
    /// ancestor that cannot be read is reported against the preset that extends it.
    /// - Parameter reference: a preset name or path.
    /// - Returns: the root ancestor first, the preset itself last.
    /// - Throws: a `PresetError` for a preset or parent that cannot be found, read or parsed, or a cycle.
    public func chain(_ reference: String) throws -> [PresetFile] {
        var files: [PresetFile] = []
        var seen: [String] = []
        var next: (String, URL?)? = (reference, nil)
        while let (ref, base) = next {
            let location = try locate(ref, relativeTo: base)
            let source = location.source
            let fileName = FilePaths.lastComponent(source)
            guard !seen.contains(source) else {
                throw PresetError(file: fileName,
                                  "extends forms a cycle: " + (seen + [source]).map { FilePaths.lastComponent($0) }
                                      .joined(separator: " → "))
            }
            seen.append(source)
            let file: PresetFile
            do { file = try PresetFile.parse(try contents(of: location), source: source) } catch let error as PresetError {
                guard let referrer = seen.dropLast().last else { throw error }
                throw PresetError(file: FilePaths.lastComponent(referrer), "extends \"\(ref)\": \(error)")
            }
            files.insert(file, at: 0)
            let folder: URL? = if case .file(let url) = location { url.deletingLastPathComponent() } else { nil }
            next = file.extends.map { ($0, folder) }
            if let parent = file.extends, (try? locate(parent, relativeTo: folder)) == nil {
                throw PresetError(file: fileName, "extends \"\(parent)\", which cannot be found")
            }
        }
        return files
    }

    /// Loads and resolves a preset with command-line overrides applied last.
    /// - Parameters:
    ///   - reference: a preset name or path.
    ///   - overrides: `section.key=value` assignments (`--set`).
    /// - Returns: the preset with every value validated.
    /// - Throws: a `PresetError` for a chain that cannot be loaded, a malformed override, or a
    ///   value unknown, of the wrong type or out of range.
    public func resolve(_ reference: String, overrides: [String] = []) throws -> ResolvedPreset {
        var files = try chain(reference)
        if !overrides.isEmpty { files.append(try PresetFile.overrides(overrides)) }
        return try ResolvedPreset(resolving: files)
    }
}
