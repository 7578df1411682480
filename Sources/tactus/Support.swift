import ArgumentParser
import Foundation
import Tactus
import TactusMapping

enum TactusCLIVersion {
    static var text: String { TactusVersion.current }
}

/// Prints one problem line to standard error: `tactus: <file>: <reason> (<hint>)`.
func report(_ message: Any) {
    FileHandle.standardError.write(Data("tactus: \(message)\n".utf8))
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
