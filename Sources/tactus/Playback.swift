import ArgumentParser
import Tactus
import TactusCommandLine
import TactusCore
import TactusPlatform

struct Playback: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playback",
        abstract: "Print what a haptic file plays (" + HapticFormats.endings(of: HapticFormats.readable) + "), moment by moment, as JSON.",
        discussion: """
        The file is read as it plays, as compare and preview read it: \(HapticFormats.readingSummaries). Printed: the transients (time, intensity, sharpness), the spans where a continuous region plays, and the continuous intensity (0 where none plays) and sharpness (null where none plays) every --step-ms from 0 to the end of the haptics. Times in seconds, values 0…1.

        Examples:
          tactus playback boom.ahap
          tactus playback boom.haptic --step-ms 10
        """)

    @Argument(help: "The haptic file.")
    var input: String

    @Option(help: ArgumentHelp("Time between the continuous values printed.", valueName: "ms"))
    var stepMs = 1.0

    func validate() throws {
        guard stepMs > 0, stepMs.isFinite else { throw ValidationError("--step-ms must be above 0") }
    }

    func run() throws {
        do {
            let track = try HapticFormats.read(URL(fileURLWithPath: input)).track
            try PlaybackReport(file: input, track: track, step: stepMs / 1000).write { print($0, terminator: "") }
        } catch {
            report(error)
            throw ExitCode(1)
        }
    }
}
