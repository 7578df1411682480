import Foundation
import PackagePlugin

/// Gives every audio file of a target an AHAP (and the audio it plays) at build time, bundled
/// as resources, so the haptics follow the sounds without anyone running a command.
///
/// One build command per sound runs this package's `tactus convert`, with its declared inputs
/// (the sound and every `tactus.json` above it in the target) and outputs (the AHAP and the
/// paired audio), so the build system reconverts exactly the sounds that changed, or whose
/// folder settings changed. The nearest `tactus.json` (`{"preset": "impacts", "set":
/// {"peaks.delta": 4}}`, nearest wins value by value, as in `tactus batch`) chooses the preset.
/// A sound Tactus cannot convert fails the build with its one-line reason; a harmony finding
/// (haptics outlasting the sound, a transient where nothing is heard) is printed as a
/// `<sound>: warning: …` line.
///
/// Outputs are flat in the plugin's work folder, so two sounds with the same name in
/// different folders of one target collide; rename one.
@main
struct TactusPlugin: BuildToolPlugin {
    static let audioExtensions: Set<String> = ["wav", "aif", "aiff", "caf", "flac", "ogg", "oga", "opus", "mp3", "w64", "rf64"]
    /// Sources paired unchanged; anything else is decoded into `<stem>.wav`.
    static let copiedExtensions: Set<String> = ["wav", "aif", "aiff", "caf"]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let tactus = try context.tool(named: "tactus").path
        let output = context.pluginWorkDirectory.appending(subpath: "Haptics")
        return try target.sourceFiles
            .filter { Self.audioExtensions.contains(($0.path.extension ?? "").lowercased()) }
            .sorted { $0.path.string < $1.path.string }
            .map { file in
                let settings = try FolderSettings(for: file.path, below: target.directory)
                let paired = Self.copiedExtensions.contains((file.path.extension ?? "").lowercased())
                    ? file.path.lastComponent : file.path.stem + ".wav"
                return .buildCommand(
                    displayName: "Tactus: haptics for \(file.path.lastComponent)",
                    executable: tactus,
                    arguments: ["convert", file.path.string, "-o", output.string, "--quiet", "--check-harmony"]
                        + settings.arguments,
                    inputFiles: [file.path] + settings.files,
                    outputFiles: [output.appending(subpath: file.path.stem + ".ahap"), output.appending(subpath: paired)])
            }
    }
}

/// The `tactus.json` files from a target's folder down to a sound's folder, merged as
/// `tactus batch` merges them: the nearest preset name wins, and `set` values nearest first.
struct FolderSettings {
    var files: [Path] = []
    var preset: String?
    var overrides: [String: String] = [:]

    init(for sound: Path, below root: Path) throws {
        var folders: [Path] = []
        var folder = sound.removingLastComponent()
        while folder.string.hasPrefix(root.string) {
            folders.insert(folder, at: 0)
            if folder.string == root.string { break }
            folder = folder.removingLastComponent()
        }
        for folder in folders {
            let file = folder.appending(subpath: "tactus.json")
            guard FileManager.default.fileExists(atPath: file.string) else { continue }
            files.append(file)
            let data = try Data(contentsOf: URL(fileURLWithPath: file.string))
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw PluginError("\(file.string): must hold a JSON object")
            }
            if let name = object["preset"] as? String {
                preset = name.contains("/") ? folder.appending(subpath: name).string : name
            }
            for (key, value) in (object["set"] as? [String: Any]) ?? [:] { overrides[key] = "\(value)" }
        }
    }

    var arguments: [String] {
        (preset.map { ["--preset", $0] } ?? []) + overrides.keys.sorted().flatMap { ["--set", "\($0)=\(overrides[$0]!)"] }
    }
}

struct PluginError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
