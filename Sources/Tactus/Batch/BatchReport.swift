import Foundation
import TactusCore

/// The `--report` JSON: the run's settings and summary, one entry per file, the problems
/// and the outputs of deleted sources. Paths are shown as in messages (under the folders as
/// given). Unlike the manifest it holds timings, so it differs from run to run.
public struct BatchReport: Encodable {
    struct Summary: Encodable {
        var converted, upToDate, failed, notStarted, problems, orphans: Int
        var audioSeconds, wallSeconds: Double
        var interrupted: Bool
    }

    struct File: Encodable {
        var source: String
        var status: BatchFileOutcome.Status
        var outputs: [String]
        var error: String?
        var transients: Int?
        var durationSeconds: Double?
        var seconds: Double
    }

    struct Orphan: Encodable {
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

    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(self)) ?? Data()) + Data("\n".utf8)
    }

    /// Writes the report atomically (a temporary file renamed into place), recorded in `log`.
    public func write(to url: URL, log: CommittedFiles) throws {
        let output = StagedFile(url.standardizedFileURL)
        try output.write(encoded())
        try output.commit(recordingIn: log)
    }
}
