import ArgumentParser
import Tactus
import TactusCore
import TactusFiles
import TactusPresets
import TactusPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The version both executables (`tactus`, `tactus-tune`) print.
public enum TactusCLIVersion {
    /// `TactusVersion.current`, as `--version` prints it.
    public static var text: String { TactusVersion.current }
}

/// Writes `text` to standard error at once, unbuffered (as `FileHandle.standardError` did); a
/// standard error that cannot be written to is ignored, as there is nowhere left to say so.
/// - Parameter text: the text, newline included.
public func writeToStandardError(_ text: String) {
    _ = Array(text.utf8).withUnsafeBytes { Descriptor.writeAll(2, $0) }
}

/// Prints one problem line to standard error: `tactus: <file>: <reason> (<hint>)`.
/// - Parameter message: the problem, usually a `FileError` (its description is `<file>: <reason> (<hint>)`).
public func report(_ message: Any) {
    writeToStandardError("tactus: \(message)\n")
}

/// What every executable does first, before parsing: past a file-size limit (`ulimit -f`,
/// RLIMIT_FSIZE) the default SIGXFSZ kills the process mid-write and leaves a temporary file
/// behind; ignored, the write fails with EFBIG, which is reported and cleaned up like a full disk.
/// An ignored signal stays ignored across `exec`, so `tactus tune` hands it on to `tactus-tune`.
public func prepareProcess() {
    signal(SIGXFSZ, SIG_IGN)
}

/// Preset selection shared by every command that converts or analyses.
public struct PresetOptions: ParsableArguments {
    /// `--preset`: a preset name or the path of a preset file.
    @Option(name: .long, help: ArgumentHelp("Preset name (from Presets/) or path to a preset JSON file.",
                                            valueName: "name|path"))
    public var preset: String = "default"

    /// `--set section.key=value` overrides, in order.
    @Option(name: .customLong("set"), help: ArgumentHelp(
        "Override one preset value, e.g. --set mapping.intensity.gamma=0.8 (repeatable).",
        valueName: "section.key=value"))
    public var overrides: [String] = []

    /// `--preset-from`: a haptic file whose recorded preset is used instead.
    @Option(name: .customLong("preset-from"), help: ArgumentHelp(
        "Reuse the preset (and --set overrides) recorded in a haptic file Tactus wrote ("
            + HapticFormats.endings(of: HapticFormats.readable.filter { $0.recordsMaker })
            + "); refuses if that preset has changed since.",
        valueName: "file"))
    public var presetFrom: String?

    /// The defaults: preset `default`, no overrides.
    public init() {}

    /// The preset the options select: `--preset` with `--set`, or the one `--preset-from` recorded.
    /// - Returns: the resolved preset.
    /// - Throws: `ExitCode(64)` after reporting the problem: a preset that cannot be resolved, a
    ///   file without a usable record, or `--preset-from` combined with `--preset` or `--set`.
    public func resolve() throws -> ResolvedPreset {
        guard let presetFrom else { return try resolvePreset(preset, overrides: overrides) }
        guard overrides.isEmpty, preset == "default" else {
            report("--preset-from cannot be combined with --preset or --set")
            throw ExitCode(64)
        }
        do {
            let file = URL(fileURLWithPath: presetFrom)
            return try PresetProvenance.read(from: file).resolve(in: PresetLibrary.standard(), file: file)
        } catch {
            report(error)
            throw ExitCode(64)
        }
    }
}

/// Resolves a preset from the standard library; a bad preset is a usage error (exit 64).
/// - Parameters:
///   - reference: a preset name or path.
///   - overrides: `section.key=value` assignments.
/// - Returns: the resolved preset.
/// - Throws: `ExitCode(64)` after reporting the `PresetError`.
public func resolvePreset(_ reference: String, overrides: [String]) throws -> ResolvedPreset {
    do {
        return try PresetLibrary.standard().resolve(reference, overrides: overrides)
    } catch let error as PresetError {
        report(error)
        throw ExitCode(64)
    }
}

/// `tactus tune`'s one-line summary: `tactus --help` lists it, and `tactus tune --help`
/// (`tactus-tune`'s own help) opens with it.
public enum TuneSummary {
    /// The summary, one sentence.
    public static let abstract = "Tune a preset by feel: a live page on this computer that shows and plays every change at once."
}
