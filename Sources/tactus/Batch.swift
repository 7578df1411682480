import ArgumentParser
import Tactus
import TactusCommandLine
import TactusCore
import TactusFiles
import TactusPlatform
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Convert every audio file in a folder tree, in parallel and incrementally.",
        discussion: """
        Finds every file libsndfile can read under IN_DIR (judged by content; other files are skipped, as are names starting with "."), mirrors the folders in OUT_DIR and writes <stem>.ahap plus its paired audio for each, as `tactus convert` does. Same-stem sources such as hit.wav and hit.ogg keep their whole name: hit.wav.ahap, hit.ogg.ahap.

        Per-folder presets: a tactus.json in any folder sets the preset and overrides for its subtree, e.g. {"preset": "impacts", "set": {"peaks.delta": 4}}. Nearest wins, value by value; --preset/--set (or --preset-from) act as a tactus.json above IN_DIR, so they apply wherever no tactus.json says otherwise.

        Incremental: OUT_DIR/.tactus-manifest.json records what each source produced. A source is rebuilt only when its content, resolved preset or the tool version changed, or an output is missing; --force rebuilds all. Outputs of deleted sources are reported, and removed with --prune. Files of formats a run was not asked for (an earlier run's .haptic when this one writes --format ahap) stay and stay in the manifest; --prune removes them and lists them. What each format's checker finds in its files (an Android envelope beyond the 16 points every device guarantees) is listed and counted in the summary. A folder with no audio (after --include and --exclude) is reported in one line and exits 1, after the deleted sources' outputs are reported or pruned. A manifest that cannot be read, or that names a path outside OUT_DIR, is ignored with a warning: everything is rebuilt and nothing pruned.

        Ctrl-C finishes the files in progress, saves the manifest and exits 130; a second Ctrl-C abandons them at once. No partial output is ever left under a real name.

        Examples:
          tactus batch sfx -o out
          tactus batch sfx -o out --preset impacts --jobs 2 --report report.json
          tactus batch sfx -o out --exclude drafts --include '*.wav' --prune
          tactus batch sfx -o out --preview  # out/.tactus-preview/index.html
          tactus batch sfx -o out --preview --preview-dir previews
        """)

    @Argument(help: ArgumentHelp("Folder to convert, walked recursively.", valueName: "IN_DIR"))
    var input: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Output folder (created if missing).", valueName: "OUT_DIR"))
    var output: String

    @OptionGroup var presetOptions: PresetOptions
    @OptionGroup var formatOptions: FormatOptions

    @Option(help: "Files converted at once (default: the number of cores).")
    var jobs: Int?

    @Option(name: .customLong("report"), help: ArgumentHelp(
        "Write a JSON report with one entry per file. It may lie inside OUT_DIR (as the batch's own file: never pruned, never read as a source); refused before any work if it is a source, or takes the name of the manifest or of an output.",
        valueName: "REPORT.json"))
    var reportPath: String?

    @Flag(help: "Rebuild every output, even those up to date.")
    var force = false

    @Flag(help: "Delete the outputs of sources that no longer exist, and earlier files of formats not requested this run.")
    var prune = false

    @Option(help: ArgumentHelp("Convert only files matching this glob (repeatable). A pattern without / matches names; with /, paths below IN_DIR.",
                               valueName: "GLOB"))
    var include: [String] = []

    @Option(help: ArgumentHelp("Skip files and folders matching this glob (repeatable; wins over --include).", valueName: "GLOB"))
    var exclude: [String] = []

    @Flag(help: "Also write a preview (haptics as sound, plot, page) of each conversion (its first output in a format Tactus reads back), and index.html, a gallery of them all, into the previews' folder (--preview-dir).")
    var preview = false

    @Option(name: .customLong("preview-dir"), help: ArgumentHelp(
        "With --preview: the previews' folder, inside OUT_DIR and given relative to it; it mirrors the output tree and holds the gallery. Default: \(PreviewStep.defaultFolder), hidden (as the manifest is) so it stays out of the resources an app bundles from OUT_DIR.",
        valueName: "DIR"))
    var previewDir: String?

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let previewDir {
            guard preview else { throw ValidationError("--preview-dir needs --preview") }
            guard FilePaths.isPlainRelative(previewDir) else {
                throw ValidationError("--preview-dir must be a folder inside OUT_DIR, given relative to it (such as previews)")
            }
        }
    }

    func run() throws {
        // A bad --preset, --set or --preset-from is a usage error before any work.
        let base = try presetOptions.resolve()
        var options = BatchOptions(input: input, output: output)
        options.preset = presetOptions.presetFrom == nil ? presetOptions.preset : base.name
        options.overrides = presetOptions.presetFrom == nil ? presetOptions.overrides : base.overrides
        options.filter = PathFilter(include: include, exclude: exclude)
        options.jobs = jobs ?? options.jobs
        options.force = force
        options.prune = prune
        options.formats = try formatOptions.resolve()
        let previews = preview ? PreviewStep(outputRoot: options.outputURL, folderName: previewDir ?? PreviewStep.defaultFolder) : nil
        options.steps = previews.map { [$0] } ?? []
        let plan: BatchPlan
        do {
            plan = try BatchPlan(options)
            if let reportPath { try BatchReport.checkDestination(reportPath, of: plan) }
        } catch let error as BatchUsageError {
            report(error)
            throw ExitCode(64)
        }
        for problem in plan.problems { report(problem) }
        for failure in plan.failures { report(failure.error!) }
        if plan.foundNoAudio {
            report(FileError(file: input, reason: "no audio files found",
                             hint: "batch converts the files libsndfile reads" + (include.isEmpty && exclude.isEmpty ? "" : " that --include and --exclude let through")))
        }

        let log = CommittedFiles()
        let runner = BatchRunner(plan: plan, log: log)
        let stop = BatchStop()
        let interrupts = InterruptHandler(runner: runner, stop: stop)
        let display = ProgressDisplay(plan: plan, quiet: quiet)
        let result = runner.run(stop: stop) { display.show($0) }
        display.clear()

        for warning in result.warnings { report(warning) }
        for problem in result.problems.dropFirst(plan.problems.count) { report(problem) }
        for file in result.files where !quiet {
            if !file.pruned.isEmpty {
                print("\(plan.displayInput(file.source)): pruned the outputs of formats not requested: "
                      + file.pruned.map(plan.displayOutput).joined(separator: ", "))
            }
            for warning in file.warnings { print("\(plan.displayOutput(warning.output)): \(warning.finding)") }
        }
        for orphan in result.orphans where !orphan.pruned && !quiet {
            print("\(plan.displayInput(orphan.source)): deleted; its outputs remain (--prune removes them): "
                  + orphan.outputs.map(plan.displayOutput).joined(separator: ", "))
        }
        var failed = !result.succeeded || plan.foundNoAudio
        if let previews, interrupts.received == nil {
            do {
                let gallery = try BatchGallery.write(result, previews: previews, log: log)
                if !quiet { print("gallery: \(gallery.path)") }
            } catch {
                report(error)
                failed = true
            }
        }
        if let reportPath {
            do { try BatchReport(result, plan: plan).write(to: URL(fileURLWithPath: reportPath), log: log) } catch {
                report(error)
                failed = true
            }
        }
        for problem in log.flush() {  // the gallery and the report
            report(problem)
            failed = true
        }
        if let signal = interrupts.received {
            report("interrupted; " + result.summary)
            throw ExitCode(128 + signal)
        }
        if !quiet { print(result.summary) }
        if failed { throw ExitCode(1) }
    }
}

/// The first SIGINT/SIGTERM stops the batch after the files in progress; the second
/// abandons them (their temporaries are removed) and exits at once.
private final class InterruptHandler {
    private let queue = DispatchQueue(label: "tactus.batch.signals")
    private var sources: [DispatchSourceSignal] = []
    private var first: Int32?

    init(runner: BatchRunner, stop: BatchStop) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [unowned self] in
                guard first == nil else {
                    let abandoned = runner.abandon()
                    report("interrupted again; abandoned \(counted(abandoned, "file")) in progress, no outputs written for them")
                    _exit(128 + number)
                }
                first = number
                stop.request()
                report("stopping after the files in progress (interrupt again to abandon them)")
            }
            source.resume()
            sources.append(source)
        }
    }

    var received: Int32? { queue.sync { first } }
}

/// A progress bar on standard error when it is a terminal, else one line per converted file
/// on standard output; failures always go to standard error as `tactus: …` lines.
private final class ProgressDisplay {
    private var progress: BatchProgress
    private let quiet: Bool
    private let terminal = isatty(STDERR_FILENO) != 0
    private var barShown = false

    init(plan: BatchPlan, quiet: Bool) {
        progress = BatchProgress(plan: plan)
        self.quiet = quiet
    }

    func show(_ event: BatchEvent) {
        progress.record(event)
        if case .finished(let outcome) = event {
            if let error = outcome.error {
                clear()
                report(error)
            } else if !terminal, !quiet, let line = progress.line(for: outcome) {
                print(line)
                fflush(stdout)
            }
        }
        if terminal, !quiet {
            writeToStandardError(("\r" + progress.bar(width: Self.width() - 1) + "\u{1B}[K"))
            barShown = true
        }
    }

    func clear() {
        guard barShown else { return }
        writeToStandardError("\r\u{1B}[K")
        barShown = false
    }

    private static func width() -> Int {
        var size = winsize()
        return ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
    }
}
