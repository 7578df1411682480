import ArgumentParser
import Tactus
import TactusCommandLine
import TactusCore
import TactusFiles
import TactusPlatform

struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Print the analysis a designer tunes against.",
        discussion: """
        Frames (time, RMS dB, centroid, novelty, threshold) and the detected onsets (time, strength, level, intensity, sharpness), as JSON or CSV.

        Examples:
          tactus analyze boom.wav
          tactus analyze boom.wav --format csv --set peaks.delta=2
        """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json, csv
    }

    @Argument(help: "Audio file to analyse.")
    var input: String

    @Option(help: "Output format.")
    var format: Format = .json

    @OptionGroup var presetOptions: PresetOptions

    func run() throws {
        let preset = try presetOptions.resolve()
        let analysisReport: AnalysisReport
        do {
            let (audio, analysis, track) = try Converter(preset: preset, log: CommittedFiles()).analyze(URL(fileURLWithPath: input))
            analysisReport = AnalysisReport(file: input, format: audio, analysis: analysis, track: track, preset: preset)
        } catch {
            report(error)
            throw ExitCode(1)
        }
        print(format == .json ? analysisReport.json() : analysisReport.csv(), terminator: "")
    }
}
