import Foundation
import TactusCore

/// Finds presets by name or path and resolves their `extends` chains.
///
/// Names are looked up as `<name>.json` in `directories`, in order. Paths (anything with a
/// `/` or ending in `.json`) are read as they are; a parent named by a relative path is
/// found relative to the child's folder.
public struct PresetLibrary {
    public let directories: [URL]

    public init(directories: [URL]) {
        self.directories = directories
    }

    /// The default search path: `$TACTUS_PRESETS` (colon-separated), `./Presets`, then a
    /// `Presets` folder beside or above the running executable (the repository layout) or in
    /// `share/tactus/Presets` of its install prefix; when none of them holds presets, the
    /// copies compiled into the tool.
    public static func standard(executable: URL = URL(fileURLWithPath: CommandLine.arguments.first ?? "."))
        -> PresetLibrary {
        var dirs: [URL] = []
        if let env = ProcessInfo.processInfo.environment["TACTUS_PRESETS"] {
            dirs += env.split(separator: ":").map { URL(fileURLWithPath: String($0), isDirectory: true) }
        }
        dirs.append(URL(fileURLWithPath: "Presets", isDirectory: true))
        var dir = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            dirs.append(dir.appendingPathComponent("Presets", isDirectory: true))
            dirs.append(dir.appendingPathComponent("share/tactus/Presets", isDirectory: true))
            dir = dir.deletingLastPathComponent()
        }
        let found = dirs.filter { FileManager.default.fileExists(atPath: $0.appendingPathComponent("default.json").path) }
        return PresetLibrary(directories: found.isEmpty ? [builtInFolder()].compactMap { $0 } : found)
    }

    /// The compiled-in copies of the shipped presets, written once into a folder of their own
    /// (named by a hash of their content, so it is never stale), for a binary that runs
    /// without the repository's Presets/ folder.
    public static func builtInFolder() -> URL? {
        let hash = fnv1a64(BuiltInPresets.files.map { $0.name + $0.json }.joined())
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("tactus-presets-" + String(hash, radix: 16), isDirectory: true)
        let complete = folder.appendingPathComponent(".complete")
        if FileManager.default.fileExists(atPath: complete.path) { return folder }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, json) in BuiltInPresets.files {
                try Data((json + "\n").utf8).write(to: folder.appendingPathComponent(name + ".json"), options: .atomic)
            }
            try Data().write(to: complete)
            return folder
        } catch {
            return nil
        }
    }

    /// Names of the presets found, each once (earlier directories win), sorted.
    public func names() -> [String] {
        var names = Set<String>()
        for dir in directories {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            for f in files where f.hasSuffix(".json") && !f.hasSuffix(".schema.json") {
                names.insert(String(f.dropLast(5)))
            }
        }
        return names.sorted()
    }

    /// Locates a preset by name or path.
    public func locate(_ reference: String, relativeTo base: URL? = nil) throws -> URL {
        if reference.contains("/") || reference.hasSuffix(".json") {
            let url = base.map { URL(fileURLWithPath: reference, relativeTo: $0) } ?? URL(fileURLWithPath: reference)
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw PresetError(file: reference, "no such preset file")
            }
            return url.standardizedFileURL
        }
        for dir in directories {
            let url = dir.appendingPathComponent(reference + ".json")
            if FileManager.default.fileExists(atPath: url.path) { return url.standardizedFileURL }
        }
        let hint = closestName(to: reference, in: names()).map { " (did you mean \"\($0)\"?)" }
            ?? " (see `tactus presets list`)"
        throw PresetError(file: reference, "no preset with this name" + hint)
    }

    /// Loads a preset and its ancestors, root first; refuses cycles and missing parents.
    public func chain(_ reference: String) throws -> [PresetFile] {
        var files: [PresetFile] = []
        var seen: [String] = []
        var next: (String, URL?)? = (reference, nil)
        while let (ref, base) = next {
            let url = try locate(ref, relativeTo: base)
            guard !seen.contains(url.path) else {
                throw PresetError(file: url.lastPathComponent,
                                  "extends forms a cycle: " + (seen + [url.path]).map { ($0 as NSString).lastPathComponent }
                                      .joined(separator: " → "))
            }
            seen.append(url.path)
            let data: Data
            do { data = try Data(contentsOf: url) } catch {
                throw PresetError(file: url.lastPathComponent, "cannot be read")
            }
            let file = try PresetFile.parse(data, source: url.path)
            files.insert(file, at: 0)
            next = file.extends.map { ($0, url.deletingLastPathComponent()) }
            if let parent = file.extends, (try? locate(parent, relativeTo: url.deletingLastPathComponent())) == nil {
                throw PresetError(file: url.lastPathComponent, "extends \"\(parent)\", which cannot be found")
            }
        }
        return files
    }

    /// Loads and resolves a preset with command-line overrides applied last.
    public func resolve(_ reference: String, overrides: [String] = []) throws -> ResolvedPreset {
        var files = try chain(reference)
        if !overrides.isEmpty { files.append(try PresetFile.overrides(overrides)) }
        return try ResolvedPreset(resolving: files)
    }
}
