import TactusCommandLine
import TactusCore
import ArgumentParser
import Tactus
import TactusPlatform
import TactusPresets

struct Evaluate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Score a preset on annotated sounds (transient timing and envelope fidelity).",
        discussion: """
        Finds every <name>.json annotation (with "file" and "onsets") under DIR, converts its audio with the preset, and prints precision/recall/F-measure of the transients at ±25/±50 ms per condition, timing errors, how well the evaluated continuous intensity and sharpness follow the audio's loudness and brightness, and how far they move (sharpness spread, slope and rails over the body; intensity spread, slope per 10 dB, rails and the envelope measure), per folder and per category (an annotation's "category"). A broken annotation, or one whose sound does not convert, gets a line of its own; the rest are scored, and the exit status is 1.

        Examples:
          tactus evaluate Corpus
          tactus evaluate Corpus --set peaks.delta=2
          tactus evaluate Corpus --set mapping.intensity.tolerance=0.001   # unsimplified curves
          tactus evaluate realcorpus/dev --format json > dev.json
        """)

    @Argument(help: "Folder of annotated sounds.")
    var directory: String

    @OptionGroup var presetOptions: PresetOptions

    @Flag(help: "Also list every file's numbers.")
    var verbose = false

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(help: "text (tables) or json (every number, every file's too, for scripts).")
    var format: OutputFormat = .text

    func run() throws {
        let preset = try presetOptions.resolve()
        let (annotations, refused) = try GroundTruth.find(in: URL(fileURLWithPath: directory, isDirectory: true))
        refused.forEach(report)
        guard !annotations.isEmpty else {
            report(refused.isEmpty ? "\(directory): no annotations found (<name>.json with \"file\" and \"onsets\")"
                                   : "\(directory): none of its \(counted(refused.count, "annotation")) could be read (above)")
            throw ExitCode(1)
        }
        let root = URL(fileURLWithPath: directory, isDirectory: true)
        let evaluation = CorpusEvaluation.run(annotations, preset: preset, root: root)
        evaluation.failures.forEach(report)
        if format == .json {
            print(evaluation.json(presetName: preset.name, presetHash: preset.hash).prettyText(), terminator: "")
        } else {
            printText(evaluation, preset: preset)
        }
        if !refused.isEmpty || !evaluation.failures.isEmpty {
            report("\(refused.count + evaluation.failures.count) of \(refused.count + annotations.count) annotations not scored (above)")
            throw ExitCode(1)
        }
    }

    func printText(_ evaluation: CorpusEvaluation, preset: ResolvedPreset) {
        if verbose {
            for file in evaluation.files {
                let s = OnsetScore(detected: file.detected, truth: file.truth.onsets, tolerance: 0.025)
                let f = file.fidelity
                let intensity = f.intensityCorrelation.map { String(printf: "%.3f", $0) } ?? "–"
                let sharpness = f.sharpnessCorrelation.map { String(printf: "%.3f", $0) } ?? "–"
                let envelope = f.movement.envelope.map { String(printf: "%.3f", $0) } ?? "–"
                print(file.truth.audio.lastPathComponent + String(printf: "  F@25 %.2f", s.fMeasure)
                      + "  intensity r \(intensity)  sharpness ρ \(sharpness)"
                      + String(printf: "  %.1f pts/s  %.1f curve pts/s", file.controlPointsPerSecond,
                                      f.curvePointsPerSecond)
                      + "  envelope \(envelope) (lag \(f.movement.envelopeLag))")
            }
            print("")
        }
        print("preset \(preset.name) (\(preset.hash))")
        print(evaluation.table(), terminator: "")
    }
}
