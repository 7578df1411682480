import TactusCore
import TactusFiles

/// What happened to one source file.
public struct BatchFileOutcome {
    /// What the run did with the file.
    public enum Status: String, Sendable {
        /// Converted now; left as it was (its outputs match the source, preset and tool); could not be converted.
        case converted, upToDate, failed
        /// The run was stopped before this file started.
        case notStarted
    }

    /// Path relative to the input folder.
    public let source: String
    /// What the run did with the file.
    public var status: Status
    /// Outputs relative to the output folder (for up-to-date files: those already there),
    /// including the files of formats an earlier run wrote and this one was not asked for.
    public var outputs: [String] = []
    /// This run's haptic files (one per requested format, in format order), relative to the
    /// output folder: what a preview of the file shows first.
    public var hapticOutputs: [String] = []
    /// What the formats' own checkers found in the outputs (`OutputWarning.check`), those kept
    /// from earlier runs included.
    public var warnings: [OutputWarning] = []
    /// Files of formats not requested this run that `--prune` deleted, relative to the output folder.
    public var pruned: [String] = []
    /// Why it failed; nil unless `status` is `.failed`.
    public var error: FileError?
    /// Transients in its track, when it was converted or is up to date.
    public var transients: Int?
    /// The source's length in seconds, when known.
    public var durationSeconds: Double?
    /// Wall time spent on the file (hashing, and converting when it was converted).
    public var seconds: Double = 0
    /// The manifest entry a conversion produced.
    var entry: BatchManifest.Entry?

    init(source: String, status: Status) {
        self.source = source
        self.status = status
    }

    init(failed source: String, _ error: FileError) {
        self.init(source: source, status: .failed)
        self.error = error
    }

    init(source: String, status: Status, entry: BatchManifest.Entry, hapticOutputs: [String], seconds: Double) {
        self.init(source: source, status: status)
        outputs = entry.outputs
        self.hapticOutputs = hapticOutputs
        warnings = entry.warnings
        transients = entry.transients
        durationSeconds = entry.durationSeconds
        self.seconds = seconds
        if status == .converted { self.entry = entry }
    }
}

/// Outputs whose source no longer exists.
public struct BatchOrphan: Sendable {
    /// The deleted source, relative to the input folder.
    public let source: String
    /// Its outputs, relative to the output folder.
    public let outputs: [String]
    /// Whether `--prune` deleted them.
    public let pruned: Bool
}

/// Everything a batch run did, files in path order.
public struct BatchResult {
    /// Every source file, in path order.
    public var files: [BatchFileOutcome]
    /// Problems not tied to one file (link loops, unreadable folders, bad `tactus.json`).
    public var problems: [FileError]
    /// Outputs of sources that no longer exist, pruned or only reported.
    public var orphans: [BatchOrphan]
    /// Notes that are not failures (a manifest that could not be read).
    public var warnings: [String]
    /// Whether the run was stopped before every file started.
    public var interrupted: Bool
    /// The run's wall-clock time, in seconds.
    public var wallSeconds: Double

    /// - Parameter status: a status.
    /// - Returns: the files with that status.
    public func count(_ status: BatchFileOutcome.Status) -> Int {
        files.reduce(0) { $0 + ($1.status == status ? 1 : 0) }
    }

    /// Seconds of audio converted in this run (up-to-date files cost nothing, so they do not count).
    public var convertedAudioSeconds: Double {
        files.reduce(0) { $0 + ($1.status == .converted ? $1.durationSeconds ?? 0 : 0) }
    }

    /// True when no file failed and no problem was found (exit 0).
    public var succeeded: Bool { count(.failed) == 0 && problems.isEmpty }

    /// One line: `12 converted, 3 up to date, 1 failed; 8.40 s of audio in 1.20 s (7.0× real time)`.
    public var summary: String {
        var parts = ["\(count(.converted)) converted", "\(count(.upToDate)) up to date", "\(count(.failed)) failed"]
        if !problems.isEmpty { parts.append(counted(problems.count, "other problem")) }
        if interrupted { parts.append("\(count(.notStarted)) not started (interrupted)") }
        var line = parts.joined(separator: ", ")
        line += String(printf: "; %.2f s of audio in %.2f s", convertedAudioSeconds, wallSeconds)
        if convertedAudioSeconds > 0, wallSeconds > 0 {
            line += String(printf: " (%.1f× real time)", convertedAudioSeconds / wallSeconds)
        }
        let kept = orphans.filter { !$0.pruned }.count, pruned = orphans.count - kept
        if kept > 0 { line += "; \(counted(kept, "deleted source")) still \(kept == 1 ? "has" : "have") outputs (--prune removes them)" }
        if pruned > 0 { line += "; pruned the outputs of \(counted(pruned, "deleted source"))" }
        let prunedFiles = files.reduce(0) { $0 + $1.pruned.count }
        if prunedFiles > 0 { line += "; pruned \(counted(prunedFiles, "output")) of formats not requested" }
        let warned = Set(files.flatMap { $0.warnings.map(\.output) }).count
        if warned > 0 { line += "; \(counted(warned, "output")) with format warnings" }
        return line
    }
}
