import ArgumentParser
import Tactus
import TactusAHAP
import TactusCore
import TactusPresets

enum TactusCLIVersion {
    static var text: String { TactusVersion.current }
}

/// Writes `text` to standard error at once, unbuffered (as `FileHandle.standardError` did); a
/// standard error that cannot be written to is ignored, as there is nowhere left to say so.
func writeToStandardError(_ text: String) {
    _ = Array(text.utf8).withUnsafeBytes { Descriptor.writeAll(2, $0) }
}

/// Prints one problem line to standard error: `tactus: <file>: <reason> (<hint>)`.
func report(_ message: Any) {
    writeToStandardError("tactus: \(message)\n")
}

/// Preset selection shared by every command that converts or analyses.
struct PresetOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Preset name (from Presets/) or path to a preset JSON file.",
                                            valueName: "name|path"))
    var preset: String = "default"

    @Option(name: .customLong("set"), help: ArgumentHelp(
        "Override one preset value, e.g. --set mapping.intensity.gamma=0.8 (repeatable).",
        valueName: "section.key=value"))
    var overrides: [String] = []

    @Option(name: .customLong("preset-from"), help: ArgumentHelp(
        "Reuse the preset (and --set overrides) recorded in an AHAP Tactus wrote; refuses if that preset has changed since.",
        valueName: "old.ahap"))
    var presetFrom: String?

    func resolve() throws -> ResolvedPreset {
        guard let presetFrom else { return try resolvePreset(preset, overrides: overrides) }
        guard overrides.isEmpty, preset == "default" else {
            report("--preset-from cannot be combined with --preset or --set")
            throw ExitCode(64)
        }
        do {
            let ahap = URL(fileURLWithPath: presetFrom)
            return try PresetProvenance.read(from: ahap).resolve(in: PresetLibrary.standard(), ahap: ahap)
        } catch {
            report(error)
            throw ExitCode(64)
        }
    }
}

/// Resolves a preset from the standard library; a bad preset is a usage error (exit 64).
func resolvePreset(_ reference: String, overrides: [String]) throws -> ResolvedPreset {
    do {
        return try PresetLibrary.standard().resolve(reference, overrides: overrides)
    } catch let error as PresetError {
        report(error)
        throw ExitCode(64)
    }
}

/// The inputs of a command that writes per-file outputs (`convert`, `preview`): every input
/// is protected from being replaced, and inputs sharing a stem in one output folder get
/// distinct stems (`OutputNaming`).
struct InputFiles {
    let urls: [URL]
    let protectedPaths: Set<String>
    let outputDirectory: URL?
    let stems: [URL: String]

    init(_ paths: [String], output: String?) {
        urls = paths.map { URL(fileURLWithPath: $0) }
        protectedPaths = Set(urls.map { $0.standardizedFileURL.path })
        let outputDirectory = output.map { URL(fileURLWithPath: $0, isDirectory: true) }
        self.outputDirectory = outputDirectory
        stems = OutputNaming.stems(for: urls) { outputDirectory ?? $0.deletingLastPathComponent() }
    }

    /// Where `url`'s outputs go: the output folder, or beside the input.
    func directory(for url: URL) -> URL {
        outputDirectory ?? url.deletingLastPathComponent()
    }

    /// Runs `body` for each input, reporting failures as one line each, then syncs what was
    /// committed into `log` to disk; exit 1 if anything failed.
    func forEach(flushing log: CommittedFiles, _ body: (URL) throws -> Void) throws {
        var failures = 0
        for url in urls {
            do { try body(url) } catch {
                report(error)
                failures += 1
            }
        }
        for problem in log.flush() {
            report(problem)
            failures += 1
        }
        if failures > 0 { throw ExitCode(1) }
    }
}

/// The options of a command that converts each input on its own (`convert`, `preview`).
struct PerFileOptions: ParsableArguments {
    @Argument(help: "Audio files, or haptic files (.ahap, .haptic, .android.json, .rumble.json) from any tool.")
    var inputs: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("Output folder (created if missing); default: beside each input.",
                                                    valueName: "dir"))
    var output: String?

    @OptionGroup var presetOptions: PresetOptions

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    /// The converter for the chosen preset and formats (nil: AHAP), recording into `log`, and
    /// the inputs with their output names.
    func prepare(formats: FormatOptions? = nil, log: CommittedFiles) throws -> (Converter, InputFiles) {
        let preset = try presetOptions.resolve()
        return (Converter(preset: preset, formats: try formats?.resolve(for: preset) ?? [AHAPFormat()], log: log),
                InputFiles(inputs, output: output))
    }
}

/// The haptic formats a command writes (`convert`, `batch`).
struct FormatOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Haptic formats to write, repeatable or comma-separated: "
            + HapticFormats.all.map { "\($0.id) (.\($0.fileExtension))" }.joined(separator: ", ")
            + ". Default: the preset's output.formats (ahap in every shipped preset).",
        valueName: "id"))
    var format: [String] = []

    /// The formats named with --format, nil when none was; an unknown id is a usage error (exit 64).
    func resolve() throws -> [any HapticFormat]? {
        guard !format.isEmpty else { return nil }
        do { return try HapticFormats.select(format) } catch {
            report(error)
            throw ExitCode(64)
        }
    }

    /// The formats named with --format, else the preset's; an unknown id is a usage error (exit 64).
    func resolve(for preset: ResolvedPreset) throws -> [any HapticFormat] {
        if let named = try resolve() { return named }
        do { return try HapticFormats.select(for: preset) } catch {
            report("preset \(preset.name): output.formats: \(error)")
            throw ExitCode(64)
        }
    }
}
