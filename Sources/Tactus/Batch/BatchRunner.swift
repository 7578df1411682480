import TactusCore
import TactusFiles
import TactusPlatform

/// Progress of a running batch, delivered one event at a time (never concurrently).
public enum BatchEvent {
    /// A worker started on this job.
    case began(BatchJob)
    /// A file is done, whatever its outcome.
    case finished(BatchFileOutcome)
}

/// Runs a `BatchPlan` on `--jobs` worker threads, then brings the manifest and the output
/// tree up to date.
///
/// Each worker takes the next job, hashes the source, and converts it unless its manifest
/// entry shows it up to date. Workers share nothing but the job counter: each conversion has
/// its own decoder, analysis session and FFTW buffers (plan creation is serialised inside
/// `RealFFT`), and FFTW itself runs single-threaded, so N jobs use N cores and memory stays
/// at N streaming conversions. Results land in a slot per job, and everything written
/// afterwards is sorted, so the output tree does not depend on the number of jobs or on
/// which worker finished first.
public final class BatchRunner {
    /// The run.
    public let plan: BatchPlan
    /// Every output the run commits, synced in the background and before the manifest is saved.
    public let log: CommittedFiles
    private let lock = Lock()
    private var nextJob = 0
    private var outcomes: [BatchFileOutcome?]
    /// Output folders of the jobs being converted now, by job index.
    private var inFlight: [Int: URL] = [:]

    /// - Parameters:
    ///   - plan: the run.
    ///   - log: records every committed output.
    public init(plan: BatchPlan, log: CommittedFiles) {
        self.plan = plan
        self.log = log
        outcomes = Array(repeating: nil, count: plan.jobs.count)
    }

    /// Converts every job not yet up to date; returns when all are done or `stop` was
    /// requested and the files in progress have finished.
    /// - Parameters:
    ///   - stop: asks the run to stop early.
    ///   - observer: receives each event, one at a time, on any thread.
    /// - Returns: every file's outcome, orphans and problems; the manifest is saved.
    public func run(stop: BatchStop = BatchStop(), observer: @escaping (BatchEvent) -> Void = { _ in }) -> BatchResult {
        let started = ContinuousClock.now
        OutputTree.removeTemporaries(in: Set(plan.jobs.map(\.outputFolder)))
        let workers = min(plan.options.jobs, plan.jobs.count)
        let flush = BackgroundFlush(log: log)
        runOnThreads(workers) { [self] in work(stop: stop, observer: observer) }

        var files = plan.failures
        for (index, outcome) in outcomes.enumerated() {
            files.append(outcome ?? BatchFileOutcome(source: plan.jobs[index].source.relativePath, status: .notStarted))
        }
        files.sort { $0.source < $1.source }
        var result = BatchResult(files: files, problems: plan.problems, orphans: [],
                                 warnings: plan.manifestWarning.map { ["\(plan.displayOutput(BatchManifest.fileName)): \($0)"] } ?? [],
                                 interrupted: stop.isRequested, wallSeconds: 0)
        finish(&result, flush: flush)
        result.wallSeconds = Self.seconds(since: started)
        return result
    }

    /// Abandons the files being converted: removes their temporaries and returns how many
    /// there were. For a second interrupt, just before the process exits.
    /// - Returns: the files abandoned.
    public func abandon() -> Int {
        lock.lock()
        let folders = Set(inFlight.values), count = inFlight.count
        lock.unlock()
        OutputTree.removeTemporaries(in: folders)
        return count
    }

    private func work(stop: BatchStop, observer: (BatchEvent) -> Void) {
        while true {
            lock.lock()
            guard !stop.isRequested, nextJob < plan.jobs.count else {
                lock.unlock()
                return
            }
            let index = nextJob
            nextJob += 1
            let job = plan.jobs[index]
            inFlight[index] = job.outputFolder
            observer(.began(job))
            lock.unlock()

            let outcome = process(job)

            lock.lock()
            outcomes[index] = outcome
            inFlight[index] = nil
            observer(.finished(outcome))
            lock.unlock()
        }
    }

    private func process(_ job: BatchJob) -> BatchFileOutcome {
        let started = ContinuousClock.now
        let source = job.source.relativePath
        do {
            let contentHash = try ContentHash.of(fileAt: job.source.url)
            let steps = plan.options.steps.map(\.fingerprint)
            if !plan.options.force, let previous = job.previous, isCurrent(previous, job, contentHash, steps) {
                return BatchFileOutcome(source: source, status: .upToDate, entry: previous, hapticOutputs: job.hapticPaths,
                                        seconds: Self.seconds(since: started))
            }
            let converter = Converter(preset: job.preset, formats: job.formats, log: log)
            let result = try converter.convert(job.source.url, to: job.outputFolder, stem: job.stem,
                                               protectedPaths: plan.protectedPaths)
            var written = result.outputs.map(\.url) + [result.audio].compactMap { $0 }
            for step in plan.options.steps {
                written += try step.run(after: result, source: job.source, log: log)
            }
            let outputs = written.filter { !plan.protectedPaths.contains($0.standardizedFileURL.path) }.compactMap(relativeOutputPath)
            let earlier = earlierOutputs(of: job, besides: outputs)
            let kept = plan.options.prune ? [] : earlier
            let entry = BatchManifest.Entry(
                contentHash: contentHash, preset: job.preset.name, presetHash: job.preset.hash,
                toolVersion: TactusVersion.current, steps: steps, outputs: (outputs + kept).sorted(),
                transients: result.track.transients.count, durationSeconds: result.track.duration,
                warnings: OutputWarning.check(job.hapticPaths, under: plan.outputRoot)
                    + (job.previous?.warnings ?? []).filter { kept.contains($0.output) },
                stale: kept.filter { output in
                    job.previous.map { $0.stale.contains(output) || !$0.madeFromSameInputs(as: contentHash, job.preset.hash) } ?? true
                }.sorted())
            var outcome = BatchFileOutcome(source: source, status: .converted, entry: entry, hapticOutputs: job.hapticPaths,
                                           seconds: Self.seconds(since: started))
            if plan.options.prune { outcome.pruned = earlier }
            return outcome
        } catch {
            let cause = FileError(file: job.source.url, error)
            var failure = BatchFileOutcome(failed: source, FileError(file: plan.displayInput(source),
                                                                           reason: cause.reason, hint: cause.hint))
            failure.seconds = Self.seconds(since: started)
            return failure
        }
    }

    /// Up to date: same bytes, same resolved preset (by name and values), same tool, same
    /// extra steps, every haptic file this run asks for (names and formats) among the outputs,
    /// and every output still there. Files of other formats an earlier run wrote do not make it
    /// stale, except under `--prune`, which converts the source again to delete them.
    private func isCurrent(_ entry: BatchManifest.Entry, _ job: BatchJob, _ contentHash: String, _ steps: [String]) -> Bool {
        let haptics = hapticOutputs(of: entry, job), requested = Set(job.hapticPaths)
        return entry.contentHash == contentHash && entry.preset == job.preset.name && entry.presetHash == job.preset.hash
            && entry.toolVersion == TactusVersion.current && entry.steps == steps
            && (plan.options.prune ? haptics == requested : requested.isSubset(of: haptics.subtracting(entry.stale)))
            && entry.outputs.allSatisfy { FileManager.default.fileExists(atPath: plan.outputRoot.appendingPathComponent($0).path) }
    }

    /// The files an earlier run wrote for `job`'s source under its current name (`<prefix>.…`:
    /// formats not requested now, their paired audio) that this run's `outputs` do not include
    /// and that are still there. They stay and stay recorded unless `--prune` deletes them.
    /// Outputs under another name (the stem changed: no earlier haptic file is named
    /// `<prefix>.<a format's extension>`) or of extra steps are replaced as before.
    private func earlierOutputs(of job: BatchJob, besides outputs: [String]) -> [String] {
        guard let previous = job.previous, !hapticOutputs(of: previous, job).isEmpty else { return [] }
        let written = Set(outputs)
        return previous.outputs.filter {
            !written.contains($0) && $0.hasPrefix(job.outputPrefix + ".")
                && FileManager.default.fileExists(atPath: plan.outputRoot.appendingPathComponent($0).path)
        }
    }

    /// The files among `entry`'s outputs that some registered format would name for `job`
    /// (with its default parameters, or as the job's formats are configured).
    private func hapticOutputs(of entry: BatchManifest.Entry, _ job: BatchJob) -> Set<String> {
        Set(HapticFormats.all.map { OutputNaming.fileName(stem: job.outputPrefix, ending: $0.fileExtension) } + job.hapticPaths).intersection(entry.outputs)
    }

    private func relativeOutputPath(_ url: URL) -> String? {
        let root = plan.outputRoot.path + "/", path = url.standardizedFileURL.path
        return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : nil
    }

    /// Updates the manifest with this run's conversions, deletes outputs a source no longer
    /// writes (its stem changed), reports or prunes the outputs of deleted sources, and saves
    /// the manifest. Serial and sorted: the same result for any number of jobs.
    private func finish(_ result: inout BatchResult, flush: BackgroundFlush) {
        var manifest = plan.manifest
        var dropped: [String] = []
        for file in result.files {
            guard let entry = file.entry else { continue }
            dropped += manifest.files[file.source]?.outputs ?? []
            manifest.files[file.source] = entry
        }
        for source in manifest.files.keys.sorted() {
            let entry = manifest.files[source]!
            guard !FileManager.default.fileExists(atPath: plan.inputRoot.appendingPathComponent(source).path) else { continue }
            result.orphans.append(BatchOrphan(source: source, outputs: entry.outputs, pruned: plan.options.prune))
            if plan.options.prune {
                manifest.files[source] = nil
                dropped += entry.outputs
            }
        }
        let owned = Set(manifest.files.values.flatMap(\.outputs))
        OutputTree.remove(Set(dropped).subtracting(owned).sorted().filter {
            !plan.protectedPaths.contains(plan.outputRoot.appendingPathComponent($0).standardizedFileURL.path)
        }, under: plan.outputRoot)
        // The outputs reach the disk before the manifest that records them as done.
        result.problems += flush.finish()
        do { try manifest.save(in: plan.outputRoot, log: log) } catch {
            let cause = FileError(file: plan.outputRoot, error)
            result.problems.append(FileError(file: plan.displayOutput(BatchManifest.fileName), reason: cause.reason,
                                                   hint: "the next run will rebuild what this one converted"))
        }
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }
}
