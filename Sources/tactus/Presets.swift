import TactusCore
import ArgumentParser
import TactusMapping

struct Presets: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presets",
        abstract: "List, inspect, check and start presets.",
        discussion: """
        Presets are JSON files (Presets/*.json, or any path) that select the analysis and mapping parts and set their parameters. Values resolve in this order: parameter default → onset method default → preset chain (extends) → --set overrides.

        Examples:
          tactus presets list
          tactus presets show impacts --set peaks.delta=2
          tactus presets init --from impacts > mine.json
          tactus presets validate mine.json
          tactus presets schema > Presets/preset.schema.json
        """,
        subcommands: [List.self, Show.self, Validate.self, Init.self, Schema.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Name and one-line description of each preset found.")

        func run() throws {
            let library = PresetLibrary.standard()
            let names = library.names()
            let width = names.map(\.count).max() ?? 0
            for name in names {
                let line = (try? library.chain(name).last?.description ?? "") ?? "(cannot be read)"
                print(name.padded(toLength: width + 2) + line)
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print a preset fully resolved, with where each value came from.")

        @Argument(help: "Preset name or path.")
        var preset: String

        @Option(name: .customLong("set"), help: ArgumentHelp("Override one value (repeatable).", valueName: "section.key=value"))
        var overrides: [String] = []

        func run() throws {
            let resolved = try resolvePreset(preset, overrides: overrides)
            print("\(resolved.name): \(resolved.description)")
            print("chain: " + resolved.chain.joined(separator: " → "))
            print("hash: \(resolved.hash)")
            for line in PresetPrinter.origins(resolved) { print("  " + line) }
        }
    }

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "validate", abstract: "Check preset files; exit 1 if any is invalid.")

        @Argument(help: "Preset files.")
        var files: [String]

        func run() throws {
            var failed = false
            for file in files {
                do {
                    _ = try PresetLibrary.standard().resolve(file)
                    print("\(file): ok")
                } catch {
                    report(error)
                    failed = true
                }
            }
            if failed { throw ExitCode(1) }
        }
    }

    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "Print a complete preset with every parameter, ready to edit.")

        @Option(help: "Start from this preset's resolved values.")
        var from: String = "default"

        @Option(help: "Name of the new preset.")
        var name: String = "my-preset"

        func run() throws {
            let resolved = try resolvePreset(from, overrides: [])
            print(PresetPrinter.json(resolved, name: name, description: "Started from \(resolved.name)."),
                  terminator: "")
        }
    }

    struct Schema: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "schema",
            abstract: "Print the JSON Schema of preset files, generated from the parts' parameters.")

        func run() throws {
            print(PresetSchema.json(), terminator: "")
        }
    }
}
