import ArgumentParser
import Foundation
import Tactus
import TactusAHAP
import TactusCore

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check AHAP files against Core Haptics' rules.",
        discussion: """
        Reports one line per problem with its location. Errors break playback or play something other than what was meant (Core Haptics clamps bad values and ignores unknown keys silently); warnings are suspicious but legal.

        Examples:
          tactus validate out/boom.ahap
          tactus validate out/*.ahap --quiet
          tactus validate out/boom.ahap --audio boom.wav
        """)

    @Argument(help: "AHAP files to check.")
    var files: [String]

    @Flag(name: .shortAndLong, help: "Print only problems, not the per-file summary.")
    var quiet = false

    @Option(help: ArgumentHelp(
        "Also check harmony with this audio: haptics longer than the sound, continuous haptics under silence, transients with no audible attack.",
        valueName: "file"))
    var audio: String?

    func run() throws {
        var failed = false
        for path in files {
            let url = URL(fileURLWithPath: path)
            let data: Data
            do { data = try InputFile.contents(of: url, maxBytes: AHAPLimits.maxFileBytes) } catch {
                let cause = error as? FileError
                report(FileError(file: path, reason: cause?.reason ?? "\(error)", hint: cause?.hint))
                failed = true
                continue
            }
            var result = AHAPValidator(baseDirectory: url.deletingLastPathComponent()).validate(data)
            if let audio, result.isValid {
                do {
                    let reference = try ReferenceEnvelope.measure(URL(fileURLWithPath: audio))
                    result.diagnostics += HarmonyCheck.check(try AHAPDecoder().decode(data), audio: reference)
                } catch {
                    report(FileError(file: audio, reason: "\(error)"))
                    failed = true
                }
            }
            for d in result.diagnostics { print("\(path): \(d)") }
            if !result.isValid { failed = true }
            if !quiet {
                print("\(path): \(result.errorCount) error(s), \(result.warningCount) warning(s)")
            }
        }
        if failed { throw ExitCode(1) }
    }
}
