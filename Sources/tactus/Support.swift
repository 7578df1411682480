import ArgumentParser
import Tactus
import TactusAHAP
import TactusCore
import TactusFiles
import TactusCommandLine
import TactusPresets
import TactusPlatform

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
    @Argument(help: ArgumentHelp("Audio files, or haptic files (" + HapticFormats.endings(of: HapticFormats.readable) + ") from any tool."))
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
        valueName: "id"), completion: .list(HapticFormats.all.map { $0.id }))
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
