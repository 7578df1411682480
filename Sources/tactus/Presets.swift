import TactusCommandLine
import TactusCore
import TactusFiles
import ArgumentParser
import TactusPresets
import TactusPlatform

struct Presets: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presets",
        abstract: "List, inspect, check and start presets.",
        discussion: """
        Presets are JSON files (Presets/*.json, or any path) that select the analysis and mapping parts and set their parameters. Values resolve in this order: parameter default → onset method default → preset chain (extends) → --set overrides.

        Examples:
          tactus presets list
          tactus presets show impacts --set peaks.delta=2
          tactus presets init --from impacts -o mine.json
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
            abstract: "Print a preset fully resolved: each value, where it came from, what the feel controls make of it, and what it means.")

        @Argument(help: "Preset name or path.")
        var preset: String

        @Option(name: .customLong("set"), help: ArgumentHelp("Override one value (repeatable).", valueName: "section.key=value"))
        var overrides: [String] = []

        func run() throws {
            let resolved = try resolvePreset(preset, overrides: overrides)
            print("\(resolved.name): \(resolved.description)")
            print("chain: " + resolved.chain.joined(separator: " → "))
            print("hash: \(resolved.hash)")
            for line in PresetPrinter.listing(resolved) { print("  " + line) }
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
            abstract: "Write a complete preset with every parameter, ready to edit.",
            discussion: """
            Its "$schema" names the preset schema beside the presets found (`tactus presets list`) by a path relative to the folder the preset is written to: the folder of --output, or the current folder when printed.
            """)

        @Option(help: "Start from this preset's resolved values.")
        var from: String = "default"

        @Option(help: "Name of the new preset.")
        var name: String = "my-preset"

        @Option(name: [.short, .long], help: ArgumentHelp("Write the preset to this file (refused if it exists) instead of standard output.",
                                                          valueName: "file"))
        var output: String?

        func run() throws {
            let resolved = try resolvePreset(from, overrides: [])
            let destination = output.map { URL(fileURLWithPath: $0).standardizedFileURL }
            let folder = destination?.deletingLastPathComponent() ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            let schema = PresetLibrary.standard().schemaReference(from: folder)
            if schema == nil {
                report(FileError(file: PresetSchema.fileName, reason: "not found beside the presets",
                                 hint: "write one next to the new preset with `tactus presets schema > \(PresetSchema.fileName)`"))
            }
            let text = PresetPrinter.json(resolved, name: name, description: "Started from \(resolved.name).",
                                          schema: schema ?? PresetSchema.fileName)
            guard let destination else { return print(text, terminator: "") }
            guard !FileManager.default.fileExists(atPath: destination.path) else {
                report(FileError(file: destination.path, reason: "already exists", hint: "remove it or choose another name"))
                throw ExitCode(64)
            }
            let log = CommittedFiles()
            do {
                let file = StagedFile(destination)
                try file.write(text)
                try file.commit(recordingIn: log)
            } catch {
                report(error)
                throw ExitCode(1)
            }
            for problem in log.flush() { report(problem) }
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
