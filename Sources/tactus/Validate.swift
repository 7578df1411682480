import ArgumentParser
import Foundation
import TactusAHAP

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check AHAP files against Core Haptics' rules.",
        discussion: """
        Reports one line per problem with its location. Errors break playback or play
        something other than what was meant (Core Haptics clamps bad values and ignores
        unknown keys silently); warnings are suspicious but legal.

        Examples:
          tactus validate out/boom.ahap
          tactus validate out/*.ahap --quiet
        """)

    @Argument(help: "AHAP files to check.")
    var files: [String]

    @Flag(name: .shortAndLong, help: "Print only problems, not the per-file summary.")
    var quiet = false

    func run() throws {
        var failed = false
        for path in files {
            let url = URL(fileURLWithPath: path)
            guard let data = try? Data(contentsOf: url) else {
                report("\(path): cannot be read")
                failed = true
                continue
            }
            let result = AHAPValidator(baseDirectory: url.deletingLastPathComponent()).validate(data)
            for d in result.diagnostics { print("\(path): \(d)") }
            if !result.isValid { failed = true }
            if !quiet {
                print("\(path): \(result.errorCount) error(s), \(result.warningCount) warning(s)")
            }
        }
        if failed { throw ExitCode(1) }
    }
}
