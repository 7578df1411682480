import TactusPresets
import TactusCore
import TactusFiles
import TactusPlatform

/// The preset each folder of a batch's input tree converts with.
///
/// Precedence, nearest wins, value by value: the command line (`--preset`, `--set`) acts as
/// a `tactus.json` just above the input folder; each folder's `tactus.json` then replaces
/// the preset if it names one, and each `section.key` it sets, for its whole subtree. So a
/// `--set` value applies everywhere no `tactus.json` sets that same key, and `ui/tactus.json`
/// saying `{"preset": "ui"}` keeps the overrides given above it. Resolving again and again
/// is cheap: each distinct choice is resolved once.
///
/// A `tactus.json` that cannot be read or resolved is reported once, with its path; the
/// files below it are not converted (converting them with some other preset would be a
/// silent surprise).
public final class FolderPresets {
    /// A preset reference plus `section.key → value` overrides, before resolution.
    struct Choice: Hashable {
        var preset: String
        var overrides: [String: String]

        func applying(_ file: FolderPresetFile) -> Choice {
            Choice(preset: file.preset ?? preset, overrides: overrides.merging(file.overrides) { _, near in near })
        }

        var assignments: [String] { overrides.keys.sorted().map { "\($0)=\(overrides[$0]!)" } }
    }

    enum Setting {
        case usable(Choice, ResolvedPreset)
        /// The folder's settings cannot be used; `config` is the display path of the bad file.
        case unusable(config: String)
    }

    private let library: PresetLibrary
    private let root: URL
    private let display: (String) -> String
    private let base: Choice
    private var settings: [String: Setting] = [:]
    private var resolved: [Choice: Result<ResolvedPreset, PresetError>] = [:]
    /// Each bad `tactus.json`, once, in the order found.
    public private(set) var problems: [FileError] = []

    /// - Parameters:
    ///   - library: where preset names are looked up.
    ///   - root: the batch's input folder.
    ///   - preset: the command line's preset, in force where no `tactus.json` names one.
    ///   - overrides: the command line's `section.key=value` overrides.
    ///   - display: the message path of a path relative to `root`.
    public init(library: PresetLibrary, root: URL, preset: String, overrides: [String], display: @escaping (String) -> String) {
        self.library = library
        self.root = root
        self.display = display
        var pairs: [String: String] = [:]
        for assignment in overrides {
            let parts = assignment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            pairs[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        base = Choice(preset: preset, overrides: pairs)
    }

    /// The preset for files directly in `folder` (relative to the root, "" for the root).
    /// - Parameter folder: a folder path relative to the input root.
    /// - Returns: the resolved preset, or the error naming the `tactus.json` that cannot be used.
    public func preset(forFolder folder: String) -> Result<ResolvedPreset, FileError> {
        switch setting(folder) {
        case .usable(_, let preset): return .success(preset)
        case .unusable(let config):
            return .failure(FileError(file: config, reason: "cannot be used"))
        }
    }

    private func setting(_ folder: String) -> Setting {
        if let known = settings[folder] { return known }
        let inherited: Setting
        if folder.isEmpty {
            inherited = resolve(base, config: nil)
        } else {
            inherited = setting(FilePaths.deletingLastComponent(folder))
        }
        var result = inherited
        let configPath = folder.isEmpty ? FolderPresetFile.fileName : folder + "/" + FolderPresetFile.fileName
        let configURL = root.appendingPathComponent(configPath)
        if case .usable(let choice, _) = inherited, FileManager.default.fileExists(atPath: configURL.path) {
            do {
                let data = try InputFile.contents(of: configURL, maxBytes: 1 << 20)
                let file = try FolderPresetFile.parse(data, folder: configURL.deletingLastPathComponent())
                result = resolve(choice.applying(file), config: display(configPath))
            } catch let error as FolderPresetError {
                result = fail(display(configPath), error.reason, hint: error.hint)
            } catch {
                result = fail(display(configPath), "cannot be read", hint: FileErrorReason.describe(error))
            }
        }
        settings[folder] = result
        return result
    }

    /// Resolves a choice; `config` names the file to blame when it fails (nil: the command line).
    private func resolve(_ choice: Choice, config: String?) -> Setting {
        let outcome = resolved[choice] ?? Result(catching: { try library.resolve(choice.preset, overrides: choice.assignments) })
            .mapError { $0 as? PresetError ?? PresetError(file: choice.preset, "\($0)") }
        resolved[choice] = outcome
        switch outcome {
        case .success(let preset): return .usable(choice, preset)
        case .failure(let error):
            let source = error.file == PresetFile.overrideSource ? "set" : error.file
            return fail(config ?? "command line", "\(source): \(error.message)", hint: nil)
        }
    }

    private func fail(_ config: String, _ reason: String, hint: String?) -> Setting {
        problems.append(FileError(file: config, reason: reason, hint: hint))
        return .unusable(config: config)
    }
}
