import TactusCore

/// What a person watching a batch sees: a bar redrawn in place on a terminal, or one plain
/// line per converted file when the output goes to a log.
public struct BatchProgress {
    /// Files in the run.
    public let total: Int
    /// Files finished so far (converted, up to date or failed).
    public private(set) var done = 0
    /// The file begun most recently, relative to the input folder.
    public private(set) var current = ""
    private let plan: BatchPlan
    private let started: ContinuousClock.Instant
    /// Each source's first haptic file (of the first format asked for), relative to the output
    /// folder, by the source's path relative to the input folder.
    private let firstHapticFile: [String: String]

    /// - Parameters:
    ///   - plan: the run.
    ///   - started: when the run started, for the rate and the ETA.
    public init(plan: BatchPlan, started: ContinuousClock.Instant = .now) {
        self.plan = plan
        self.started = started
        total = plan.jobs.count
        firstHapticFile = Dictionary(plan.jobs.compactMap { job in job.hapticPaths.first.map { (job.source.relativePath, $0) } },
                                     uniquingKeysWith: { first, _ in first })
    }

    /// Counts a finished file and remembers the file last begun.
    /// - Parameter event: the runner's event.
    public mutating func record(_ event: BatchEvent) {
        switch event {
        case .began(let job): current = job.source.relativePath
        case .finished: done += 1
        }
    }

    /// `[#######-------------]  123/500  41.0 files/s  ETA 0:09  ui/click.wav`, at most
    /// `width` characters: a long path loses its start, so the file name stays readable.
    /// - Parameters:
    ///   - width: the terminal's width in characters.
    ///   - now: the current time.
    /// - Returns: the bar, without a newline.
    public func bar(width: Int, now: ContinuousClock.Instant = .now) -> String {
        let cells = 20
        let filled = total == 0 ? cells : cells * done / total
        var text = "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: cells - filled) + "]"
        text += "  \(done)/\(total)"
        let elapsed = now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        if done > 0, seconds > 0 {
            let rate = Double(done) / seconds
            let eta = Int((Double(total - done) / rate).rounded())
            text += String(printf: "  %.1f files/s  ETA %d:%02d", rate, eta / 60, eta % 60)
        }
        let room = width - text.count - 2
        guard room > 1 else { return String(text.prefix(max(width, 0))) }
        return text + "  " + (current.count <= room ? current : "…" + current.suffix(room - 1))
    }

    /// The log line for a finished file: converted files only (failures go to standard
    /// error, and a rerun should not list hundreds of up-to-date files). It names the file's
    /// first haptic output: the first file of the first format asked for, whatever the format.
    /// - Parameter outcome: a finished file.
    /// - Returns: the line, or nil for a file that was not converted.
    public func line(for outcome: BatchFileOutcome) -> String? {
        guard outcome.status == .converted, let haptics = firstHapticFile[outcome.source], outcome.outputs.contains(haptics) else {
            return nil
        }
        return "[\(done)/\(total)] \(plan.displayInput(outcome.source)) → \(plan.displayOutput(haptics))  "
            + "(\(counted(outcome.transients ?? 0, "transient")), \(String(printf: "%.2f", outcome.durationSeconds ?? 0)) s)"
    }
}
