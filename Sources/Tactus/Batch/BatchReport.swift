import TactusCore
import TactusFiles
import TactusPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        var warnings: [String]
        var pruned: [String]
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

    /// - Parameters:
    ///   - result: what the run did.
    ///   - plan: the run's plan, for paths and presets.
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
                 transients: $0.transients, durationSeconds: $0.durationSeconds, seconds: $0.seconds,
                 warnings: $0.warnings.map { "\(plan.displayOutput($0.output)): \($0.finding)" },
                 pruned: $0.pruned.map(plan.displayOutput))
        }
        problems = result.problems.map(\.description)
        warnings = result.warnings
        orphans = result.orphans.map {
            Orphan(source: plan.displayInput($0.source), outputs: $0.outputs.map(plan.displayOutput), pruned: $0.pruned)
        }
    }

    /// The report as JSON text: keys sorted, one value per line.
    /// - Returns: the UTF-8 bytes, ending with a newline.
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
                "warnings": strings(file.warnings), "pruned": strings(file.pruned),
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

    /// Refuses, before the batch converts anything, a report path that would take the place
    /// of one of the batch's own files:
    /// - inside the output folder, the batch's own names: the manifest, an output it records
    ///   (previews included), or a name that begins as one of this run's outputs
    ///   (`<outputPrefix>.`). Any other name there is the report's, a file of the batch like
    ///   its outputs: written by it, never pruned, and not read as a source.
    /// - a source of this batch (or a link to one): sources are never modified.
    ///
    /// Judged on resolved paths and by identity (device and inode) of the folders and the file,
    /// so symbolic links, `..` and letter case disguise none of them.
    /// - Throws: `BatchUsageError` naming `path` and the reason; also when the report's folder
    ///   does not exist (it is not created), rather than after the whole run.
    /// - Parameters:
    ///   - path: the report's path, as the user wrote it.
    ///   - plan: the run, whose inputs the report must not replace.
    public static func checkDestination(_ path: String, of plan: BatchPlan) throws(BatchUsageError) {
        // The folder as the kernel reaches it: `..` after a link leads out of the link's target.
        guard let folder = resolved(FilePaths.parent(of: path)) else {
            throw BatchUsageError(message: "\(path): the report's folder cannot be used: \(String(cString: strerror(errno)))")
        }
        if let outputFolder = resolved(plan.outputRoot.path), let inside = relative(folder, under: outputFolder) {
            let name = FilePaths.lastComponent(path)
            let report = inside.isEmpty ? name : inside + "/" + name
            if report == BatchManifest.fileName || plan.manifest.files.values.contains(where: { $0.outputs.contains(report) })
                || plan.jobs.contains(where: { report.hasPrefix($0.outputPrefix + ".") }) {
                throw BatchUsageError(message: "\(path): --report names one of the batch's own files in \(plan.options.output) "
                                      + "(write the report under another name)")
            }
        }
        if let file = FileID(path: path), plan.protectedPaths.contains(where: { FileID(path: $0) == file }) {
            throw BatchUsageError(message: "\(path): --report names a source of this batch, which is never replaced "
                                  + "(write the report elsewhere)")
        }
    }

    /// `path` with every link and `..` resolved (nil when it cannot be: it does not exist).
    private static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Where the resolved `path` lies under the resolved `folder`: "" for the folder itself,
    /// "a/b" below it, nil outside it. Each folder on the way up is compared by identity.
    private static func relative(_ path: String, under folder: String) -> String? {
        let target = FileID(path: folder)
        var (ancestor, below) = (path, [String]())
        while true {  // up a resolved absolute path, to "/", its own parent
            if target != nil, FileID(path: ancestor) == target { return below.reversed().joined(separator: "/") }
            let parent = FilePaths.parent(of: ancestor)
            if parent == ancestor { return nil }
            below.append(FilePaths.lastComponent(ancestor))
            ancestor = parent
        }
    }

    /// Writes the report atomically (a temporary file renamed into place), recorded in `log`.
    /// Check the path with `checkDestination` before the run.
    /// - Parameters:
    ///   - url: the report's path.
    ///   - log: records the committed report.
    /// - Throws: a `FileError` when it cannot be written.
    public func write(to url: URL, log: CommittedFiles) throws {
        let output = StagedFile(url.standardizedFileURL)
        try output.write(encoded())
        try output.commit(recordingIn: log)
    }
}
