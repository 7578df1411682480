import TactusAHAP
import TactusPresets
import TactusCore
import TactusFiles
import TactusPlatform

/// Scores a preset on an annotated set: transient timing against ground truth, and the
/// continuous haptics against the audio's own envelope, file by file and per condition.
public struct CorpusEvaluation {
    /// One annotated file's scores.
    public struct FileResult {
        /// The annotation: the sound, its condition and the onsets wanted.
        public var truth: GroundTruth
        /// The folder of the annotation, relative to the folder evaluated ("" for that folder
        /// itself, or when no root was given).
        public var folder: String
        /// Times of the transients written, in seconds.
        public var detected: [Double]
        /// What the written file plays against the sound's own envelope.
        public var fidelity: Fidelity
        /// AHAP control points written per second of audio (the cost of AHAP's encoding, the
        /// format evaluated); `fidelity.curvePointsPerSecond` is the same cost as played, in
        /// any format.
        public var controlPointsPerSecond: Double
    }

    /// The files that converted, in the annotations' order.
    public var files: [FileResult] = []
    /// The annotated sounds that did not convert, each naming its file and the reason.
    public var failures: [Error] = []

    /// Converts every annotated file with `preset` into an AHAP in a scratch folder and measures
    /// what it plays (`Fidelity`) and what it costs (its control points); a
    /// file that fails is recorded in `failures` and the rest are still scored.
    /// - Parameters:
    ///   - annotations: the annotated sounds (`GroundTruth.find(in:)`).
    ///   - preset: the preset scored.
    ///   - root: the folder evaluated, which each file's `folder` is relative to; nil for none.
    /// - Returns: the scores per file and the failures.
    public static func run(_ annotations: [GroundTruth], preset: ResolvedPreset, root: URL? = nil) -> CorpusEvaluation {
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("tactus-evaluate-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Scratch outputs, deleted afterwards: never synced to disk.
        let converter = Converter(preset: preset, formats: [AHAPFormat()], log: CommittedFiles())
        var evaluation = CorpusEvaluation()
        for (i, truth) in annotations.enumerated() {
            let dir = scratch.appendingPathComponent("\(i)", isDirectory: true)
            do {
                let result = try converter.convert(truth.audio, to: dir)
                let ahap = result.outputs[0].url
                let sound = try SoundActivity.measure(truth.audio)
                let reference = try ReferenceEnvelope.measure(truth.audio, sound: sound)
                let fidelity = try Fidelity.measure(file: ahap, format: AHAPFormat(), reference: reference, sound: sound)
                let controlPoints = try AHAPDecoder().decode(Data(contentsOf: ahap)).controlPointCount
                evaluation.files.append(FileResult(truth: truth, folder: folder(of: truth.audio, in: root),
                                                   detected: result.track.transients.map(\.time),
                                                   fidelity: fidelity,
                                                   controlPointsPerSecond: Double(controlPoints) / max(reference.duration, 1e-3)))
            } catch {
                evaluation.failures.append(error)
            }
        }
        return evaluation
    }

    /// The folder holding `audio`, relative to `root`: "" for `root` itself or without one.
    static func folder(of audio: URL, in root: URL?) -> String {
        guard let root else { return "" }
        let base = root.standardizedFileURL.path, parent = audio.deletingLastPathComponent().standardizedFileURL.path
        guard parent.hasPrefix(base + "/") else { return "" }
        return String(parent.dropFirst(base.count + 1))
    }

    /// Transient timing pooled over the files.
    /// - Parameters:
    ///   - tolerance: the largest |detected − annotated| that counts as a hit, in seconds.
    ///   - condition: only files of this condition; nil for all.
    /// - Returns: the pooled precision, recall and F-measure.
    public func onsetScore(tolerance: Double, condition: String? = nil) -> OnsetScore {
        files.filter { condition == nil || $0.truth.condition == condition }
            .reduce(OnsetScore.empty) { $0 + OnsetScore(detected: $1.detected, truth: $1.truth.onsets, tolerance: tolerance) }
    }

    /// The conditions of the files scored, sorted.
    public var conditions: [String] { Array(Set(files.map(\.truth.condition))).sorted() }

    /// Mean of a per-file metric over the files where it is defined, and how many those are.
    /// - Parameter metric: a file's value, or nil where it is undefined.
    /// - Returns: the mean (0 when no file defines it) and the number of files averaged.
    public func mean(_ metric: (Fidelity) -> Double?) -> (value: Double, count: Int) {
        let values = files.compactMap { metric($0.fidelity) }
        return (values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count), values.count)
    }

    /// Transient timing of one condition's files, or of all of them: what the report's table and
    /// its JSON give per row.
    public struct ConditionTiming {
        /// The condition, or `ALL` for every file.
        public let condition: String
        /// Files in it.
        public let files: Int
        /// Pooled scores at ±25 ms and ±50 ms.
        public let at25: OnsetScore, at50: OnsetScore
        /// Median and 90th percentile of |detected − annotated| of the hits at ±50 ms, in ms.
        public let medianMs: Double, p90Ms: Double
        /// Mean detected − annotated of those hits, in ms (0 without hits).
        public let biasMs: Double
    }

    /// Transient timing per condition, then `ALL`.
    /// - Returns: one row per condition, sorted, and the row of every file last.
    public func conditionTimings() -> [ConditionTiming] {
        (conditions + ["ALL"]).map { condition in
            let c = condition == "ALL" ? nil : condition
            let s50 = onsetScore(tolerance: 0.05, condition: c)
            let abs50 = s50.errors.map { abs($0) * 1000 }
            return ConditionTiming(condition: condition, files: files.filter { c == nil || $0.truth.condition == c }.count,
                                   at25: onsetScore(tolerance: 0.025, condition: c), at50: s50,
                                   medianMs: Statistics.median(abs50), p90Ms: Statistics.percentile(abs50, 0.9),
                                   biasMs: s50.errors.isEmpty ? 0 : s50.errors.reduce(0, +) / Double(s50.errors.count) * 1000)
        }
    }

    /// Spearman correlation of the body's sharpness with the log centroid over every file's frames
    /// pooled; nil when undefined.
    public var pooledSharpnessCorrelation: Double? {
        let pairs = files.flatMap(\.fidelity.sharpnessPairs)
        return Statistics.spearman(pairs.map(\.sharpness), pairs.map(\.logCentroid))
    }

    /// AHAP control points per second, the mean over files (0 for none).
    public var meanControlPointsPerSecond: Double {
        files.isEmpty ? 0 : files.map(\.controlPointsPerSecond).reduce(0, +) / Double(files.count)
    }

    /// A per-file count summed over the files.
    /// - Parameter count: a file's count.
    /// - Returns: the sum.
    public func total(_ count: (Fidelity) -> Int) -> Int {
        files.reduce(0) { $0 + count($1.fidelity) }
    }

    /// A plain-text report: the onset table per condition, then the envelope metrics.
    /// - Returns: the report's text, lines ending with newlines.
    public func table() -> String {
        var lines = ["condition  files   P@25   R@25   F@25   F@50  med ms  p90 ms bias ms"]
        for row in conditionTimings() {
            lines.append(row.condition.padded(toLength: 10) + String(printf: " %5d %6.3f %6.3f %6.3f %6.3f %7.2f %7.2f %7.2f",
                                row.files, row.at25.precision, row.at25.recall, row.at25.fMeasure, row.at50.fMeasure,
                                row.medianMs, row.p90Ms, row.biasMs))
        }
        let intensity = mean(\.intensityCorrelation), felt = mean(\.playedCorrelation)
        let sharpness = mean(\.sharpnessCorrelation)
        let pooledFrames = files.reduce(0) { $0 + $1.fidelity.sharpnessPairs.count }
        let pooled = pooledSharpnessCorrelation ?? 0
        lines.append("")
        lines.append("continuous intensity↔loudness Pearson, mean of \(counted(intensity.count, "file")): "
                     + String(printf: "%.3f", intensity.value))
        lines.append("felt intensity (continuous + transients)↔loudness Pearson, mean of \(counted(felt.count, "file")): "
                     + String(printf: "%.3f", felt.value))
        lines.append("sharpness↔log centroid Spearman, mean of \(counted(sharpness.count, "file")): "
                     + String(printf: "%.3f", sharpness.value) + "; pooled over \(counted(pooledFrames, "frame")): "
                     + String(printf: "%.3f", pooled))
        lines.append(String(printf: "control points per second: %.1f   AHAP bytes per second: %.0f",
                            meanControlPointsPerSecond, mean { $0.bytesPerSecond }.value))
        lines.append(String(printf: "curve points per second, as played: %.1f", mean(\.curvePointsPerSecond).value))
        lines.append("validator errors: \(total(\.validatorErrors))   warnings: \(total(\.validatorWarnings))   "
                     + "harmony warnings: \(total(\.harmonyWarnings))")
        lines.append("")
        lines.append("how far it moves (Movement: frames of 10 ms; body: played intensity ≥ 0.05; sharpness r and /octave "
                     + "against the log2 centroid; moving: centroid p90−p10 ≥ 1 octave; intensity and envelope where the "
                     + "played intensity or the 20 ms level over 60 dB exceeds 0.05, best lag of ±1 frame; spreads p90−p10, "
                     + "means over files)")
        lines.append(MovementSummary.header)
        lines += movementSummaries().map(\.line)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `Movement` summarised: over all files, then per folder (when there are several), per
    /// category (when annotations carry one; files without form `uncategorised`).
    /// - Returns: the summaries, `ALL` first.
    public func movementSummaries() -> [MovementSummary] {
        var groups = [MovementSummary(name: "ALL", files.map(\.fidelity.movement))]
        let folders = Set(files.map(\.folder)).sorted()
        if folders.count > 1 {
            groups += folders.map { folder in
                MovementSummary(name: "folder " + (folder.isEmpty ? "." : folder),
                                files.filter { $0.folder == folder }.map(\.fidelity.movement))
            }
        }
        let categories = Set(files.map(\.truth.category)).sorted()
        if categories != [""] {
            groups += categories.map { category in
                MovementSummary(name: category.isEmpty ? "uncategorised" : "category " + category,
                                files.filter { $0.truth.category == category }.map(\.fidelity.movement))
            }
        }
        return groups
    }

    /// The evaluation as a JSON document for scripts: the onset scores per condition, the
    /// envelope means, the movement summaries and every file's numbers (times in seconds,
    /// numbers to 6 decimals, null where undefined).
    /// - Parameters:
    ///   - presetName: the preset's name.
    ///   - presetHash: the preset's hash.
    /// - Returns: the document.
    public func json(presetName: String, presetHash: String) -> JSONValue {
        func score(_ s: OnsetScore) -> JSONValue {
            .object([("tp", .number(Double(s.truePositives))), ("fp", .number(Double(s.falsePositives))),
                     ("fn", .number(Double(s.falseNegatives))), ("precision", .decimal(s.precision)),
                     ("recall", .decimal(s.recall)), ("f", .decimal(s.fMeasure))])
        }
        let conditionRows: [JSONValue] = conditionTimings().map { row in
            .object([("condition", .string(row.condition)), ("files", .number(Double(row.files))),
                     ("at25", score(row.at25)), ("at50", score(row.at50)),
                     ("medianMs", .decimal(row.medianMs)), ("p90Ms", .decimal(row.p90Ms)), ("biasMs", .decimal(row.biasMs))])
        }
        let perFile: [JSONValue] = files.map { file in
            let f = file.fidelity
            let s25 = OnsetScore(detected: file.detected, truth: file.truth.onsets, tolerance: 0.025)
            let s50 = OnsetScore(detected: file.detected, truth: file.truth.onsets, tolerance: 0.05)
            return .object([
                ("file", .string(file.folder.isEmpty ? file.truth.audio.lastPathComponent
                                                     : file.folder + "/" + file.truth.audio.lastPathComponent)),
                ("folder", .string(file.folder)), ("condition", .string(file.truth.condition)),
                ("category", .string(file.truth.category)),
                ("onsets", .array(file.truth.onsets.map { .number($0) })),
                ("detected", .array(file.detected.map { .decimal($0) })),
                ("at25", score(s25)), ("at50", score(s50)),
                ("errorsMs50", .array(s50.errors.map { .decimal($0 * 1000) })),
                ("intensityCorrelation", .decimal(f.intensityCorrelation)), ("playedCorrelation", .decimal(f.playedCorrelation)),
                ("sharpnessCorrelation", .decimal(f.sharpnessCorrelation)),
                ("controlPointsPerSecond", .decimal(file.controlPointsPerSecond)),
                ("curvePointsPerSecond", .decimal(f.curvePointsPerSecond)), ("bytesPerSecond", .decimal(f.bytesPerSecond)),
                ("validatorErrors", .number(Double(f.validatorErrors))), ("validatorWarnings", .number(Double(f.validatorWarnings))),
                ("harmonyWarnings", .number(Double(f.harmonyWarnings))), ("movement", f.movement.json)])
        }
        return .object([
            ("preset", .object([("name", .string(presetName)), ("hash", .string(presetHash))])),
            ("conditions", .array(conditionRows)),
            ("intensityCorrelation", .decimal(mean(\.intensityCorrelation).value)),
            ("playedCorrelation", .decimal(mean(\.playedCorrelation).value)),
            ("sharpnessCorrelation", .decimal(mean(\.sharpnessCorrelation).value)),
            ("sharpnessPooled", .decimal(pooledSharpnessCorrelation)),
            ("controlPointsPerSecond", .decimal(meanControlPointsPerSecond)),
            ("curvePointsPerSecond", .decimal(mean(\.curvePointsPerSecond).value)),
            ("validatorErrors", .number(Double(total(\.validatorErrors)))),
            ("validatorWarnings", .number(Double(total(\.validatorWarnings)))),
            ("harmonyWarnings", .number(Double(total(\.harmonyWarnings)))),
            ("movement", .array(movementSummaries().map(\.json))),
            ("files", .array(perFile))])
    }
}
