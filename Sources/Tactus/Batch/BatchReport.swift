import TactusCore

/// The `--report` JSON: the run's settings and summary, one entry per file, the problems
/// and the outputs of deleted sources. Paths are shown as in messages (under the folders as
/// given). Unlike the manifest it holds timings, so it differs from run to run.
public struct BatchReport {
    struct Summary {
        var converted, upToDate, failed, notStarted, problems, orphans: Int
        var audioSeconds, wallSeconds: Double
        var interrupted: Bool
    }

    struct File {
        var source: String
        var status: BatchFileOutcome.Status
        var outputs: [String]
        var error: String?
        var transients: Int?
        var durationSeconds: Double?
        var seconds: Double
    }

    struct Orphan {
        var source: String
        var outputs: [String]
        var pruned: Bool
    }

    var input, output, preset: String
    var jobs: Int
    var toolVersion = TactusVersion.current
    var summary: Summary
    var files: [File]
    var problems: [String]
    var warnings: [String]
    var orphans: [Orphan]

    public init(_ result: BatchResult, plan: BatchPlan) {
        let options = plan.options
        input = options.input
        output = options.output
        preset = ([options.preset] + options.overrides.map { "--set \($0)" }).joined(separator: " ")
        jobs = options.jobs
        summary = Summary(converted: result.count(.converted), upToDate: result.count(.upToDate),
                          failed: result.count(.failed), notStarted: result.count(.notStarted),
                          problems: result.problems.count, orphans: result.orphans.count,
                          audioSeconds: result.convertedAudioSeconds, wallSeconds: result.wallSeconds,
                          interrupted: result.interrupted)
        files = result.files.map {
            File(source: plan.displayInput($0.source), status: $0.status, outputs: $0.outputs.map(plan.displayOutput),
                 error: $0.error.map { "\($0.reason)" + ($0.hint.map { " (\($0))" } ?? "") },
                 transients: $0.transients, durationSeconds: $0.durationSeconds, seconds: $0.seconds)
        }
        problems = result.problems.map(\.description)
        warnings = result.warnings
        orphans = result.orphans.map {
            Orphan(source: plan.displayInput($0.source), outputs: $0.outputs.map(plan.displayOutput), pruned: $0.pruned)
        }
    }

    /// The report as JSON text: keys sorted, one value per line.
    public func encoded() -> Data {
        let strings = { (values: [String]) in JSONValue.array(values.map(JSONValue.string)) }
        let summary = JSONValue.sortedObject([
            "converted": .number(Double(self.summary.converted)), "upToDate": .number(Double(self.summary.upToDate)),
            "failed": .number(Double(self.summary.failed)), "notStarted": .number(Double(self.summary.notStarted)),
            "problems": .number(Double(self.summary.problems)), "orphans": .number(Double(self.summary.orphans)),
            "audioSeconds": .number(self.summary.audioSeconds), "wallSeconds": .number(self.summary.wallSeconds),
            "interrupted": .bool(self.summary.interrupted),
        ])
        let files = self.files.map { file in
            JSONValue.sortedObject([
                "source": .string(file.source), "status": .string(file.status.rawValue), "outputs": strings(file.outputs),
                "error": .optional(file.error, JSONValue.string),
                "transients": .optional(file.transients) { .number(Double($0)) },
                "durationSeconds": .optional(file.durationSeconds, JSONValue.number), "seconds": .number(file.seconds),
            ])
        }
        let orphans = self.orphans.map {
            JSONValue.sortedObject(["source": .string($0.source), "outputs": strings($0.outputs), "pruned": .bool($0.pruned)])
        }
        let json = JSONValue.sortedObject([
            "input": .string(input), "output": .string(output), "preset": .string(preset), "jobs": .number(Double(jobs)),
            "toolVersion": .string(toolVersion), "summary": summary, "files": .array(files),
            "problems": strings(problems), "warnings": strings(warnings), "orphans": .array(orphans),
        ])
        return Data(json.prettyText().utf8)
    }

    /// Writes the report atomically (a temporary file renamed into place), recorded in `log`.
    public func write(to url: URL, log: CommittedFiles) throws {
        let output = StagedFile(url.standardizedFileURL)
        try output.write(encoded())
        try output.commit(recordingIn: log)
    }
}
