import TactusCommandLine
import TactusCore
import ArgumentParser
import Tactus
import TactusPlatform

struct Evaluate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Score a preset on annotated sounds (transient timing and envelope fidelity).",
        discussion: """
        Finds every <name>.json annotation (with "file" and "onsets") under DIR, converts its audio with the preset, and prints precision/recall/F-measure of the transients at ±25/±50 ms per condition, timing errors, and how well the evaluated continuous intensity and sharpness follow the audio's loudness and brightness. A broken annotation, or one whose sound does not convert, gets a line of its own; the rest are scored, and the exit status is 1.

        Examples:
          tactus evaluate Corpus
          tactus evaluate Corpus --set peaks.delta=2
          tactus evaluate Corpus --set mapping.intensity.tolerance=0.001   # unsimplified curves
        """)

    @Argument(help: "Folder of annotated sounds.")
    var directory: String

    @OptionGroup var presetOptions: PresetOptions

    @Flag(help: "Also list every file's numbers.")
    var verbose = false

    func run() throws {
        let preset = try presetOptions.resolve()
        let (annotations, refused) = try GroundTruth.find(in: URL(fileURLWithPath: directory, isDirectory: true))
        refused.forEach(report)
        guard !annotations.isEmpty else {
            report(refused.isEmpty ? "\(directory): no annotations found (<name>.json with \"file\" and \"onsets\")"
                                   : "\(directory): none of its \(counted(refused.count, "annotation")) could be read (above)")
            throw ExitCode(1)
        }
        let evaluation = CorpusEvaluation.run(annotations, preset: preset)
        evaluation.failures.forEach(report)
        if verbose {
            for file in evaluation.files {
                let s = OnsetScore(detected: file.detected, truth: file.truth.onsets, tolerance: 0.025)
                let f = file.fidelity
                let intensity = f.intensityCorrelation.map { String(printf: "%.3f", $0) } ?? "–"
                let sharpness = f.sharpnessCorrelation.map { String(printf: "%.3f", $0) } ?? "–"
                print(file.truth.audio.lastPathComponent + String(printf: "  F@25 %.2f", s.fMeasure)
                      + "  intensity r \(intensity)  sharpness ρ \(sharpness)"
                      + String(printf: "  %.1f pts/s  %.1f curve pts/s", file.controlPointsPerSecond,
                                      f.curvePointsPerSecond))
            }
            print("")
        }
        print("preset \(preset.name) (\(preset.hash))")
        print(evaluation.table(), terminator: "")
        if !refused.isEmpty || !evaluation.failures.isEmpty {
            report("\(refused.count + evaluation.failures.count) of \(refused.count + annotations.count) annotations not scored (above)")
            throw ExitCode(1)
        }
    }
}
