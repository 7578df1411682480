import TactusPresets
import TactusCore
import TactusFiles
import TactusPlatform

/// One source to convert (or to find up to date), with everything decided up front.
public struct BatchJob {
    /// The source file, with its paths.
    public let source: BatchSource
    /// The preset for the source's folder (`tactus.json`, or the run's).
    public let preset: ResolvedPreset
    /// The source's folder mirrored under the output folder.
    public let outputFolder: URL
    /// Base name of the outputs (`OutputNaming`: `hit`, or `hit.wav` when `hit.ogg` is beside it).
    public let stem: String
    /// What the previous run wrote for this source, if anything.
    public let previous: BatchManifest.Entry?
    /// The outputs' path relative to the output folder, without extension (`sub/hit`).
    public let outputPrefix: String
    /// The formats written, in order.
    public let formats: [any HapticFormat]
    /// The haptic files' paths relative to the output folder, one per format, in format order.
    public let hapticPaths: [String]
}

/// The work of one batch run, decided before any file is converted: which sources, with
/// which preset, under which names, and which files already failed.
public struct BatchPlan {
    /// What the run was asked to do.
    public let options: BatchOptions
    /// The input folder, resolved.
    public let inputRoot: URL
    /// The output folder, resolved (created by `init`).
    public let outputRoot: URL
    /// Longest audio first, so the last file to finish is a short one and workers end together.
    public let jobs: [BatchJob]
    /// Files that cannot be converted (undecodable, dangling links, unusable folder settings).
    public let failures: [BatchFileOutcome]
    /// Problems not tied to one file: link loops, unreadable folders, bad `tactus.json`.
    public let problems: [FileError]
    /// What the previous run wrote (empty when there was none or it is unusable).
    public let manifest: BatchManifest
    /// Why the previous manifest was not used, or nil.
    public let manifestWarning: String?
    /// Every input file of the run: outputs never replace or delete one of these.
    public let protectedPaths: Set<String>
    let discovery: SourceDiscovery

    /// Walks the input folder and plans the run. Creates the output folder; writes nothing else.
    /// - Parameter options: what the run is asked to do.
    /// - Throws: a `BatchUsageError` for an input that is missing or not a folder, `jobs`
    ///   below 1, or an output folder that cannot be created.
    public init(_ options: BatchOptions) throws {
        self.options = options
        inputRoot = options.inputURL
        outputRoot = options.outputURL
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: inputRoot.path, isDirectory: &isDirectory) else {
            throw BatchUsageError(message: "\(options.input): does not exist (tactus batch takes a folder of sounds)")
        }
        guard isDirectory else {
            throw BatchUsageError(message: "\(options.input): is not a folder (tactus batch takes a folder; use tactus convert for files)")
        }
        guard options.jobs >= 1 else { throw BatchUsageError(message: "--jobs must be at least 1") }
        do { try FileManager.default.createDirectory(at: outputRoot, withIntermediateDirectories: true) } catch {
            throw BatchUsageError(message: "\(options.output): cannot create the output folder (\(FileErrorReason.describe(error)))")
        }

        discovery = SourceDiscovery(root: inputRoot, displayRoot: options.input, filter: options.filter,
                                    skippedFolder: outputRoot, jobs: options.jobs)
        var tree = discovery.discover()
        let presets = FolderPresets(library: options.library, root: inputRoot, preset: options.preset,
                                    overrides: options.overrides, display: discovery.display)
        (manifest, manifestWarning) = BatchManifest.load(from: outputRoot)
        // What earlier runs wrote is never a source: with the outputs beside the sources
        // (OUT_DIR = IN_DIR), a transcoded `zap.wav` would otherwise be converted next time.
        let outputRoot = self.outputRoot
        let written = Set(manifest.files.values.flatMap(\.outputs).map { outputRoot.appendingPathComponent($0).standardizedFileURL.path })
        tree.sources.removeAll { written.contains($0.url.standardizedFileURL.path) }
        protectedPaths = Set(tree.sources.map { $0.url.standardizedFileURL.path })

        let byURL = Dictionary(uniqueKeysWithValues: tree.sources.map { ($0.url, $0) })
        let stems = OutputNaming.stems(for: tree.sources.map(\.url)) { Self.outputFolder(of: byURL[$0]!, in: outputRoot) }
        var failures = tree.rejected.map { BatchFileOutcome(failed: $0.relativePath, $0.error) }
        var jobs: [BatchJob] = []
        var claimed: [String: String] = [:]
        for source in tree.sources {
            switch presets.preset(forFolder: source.relativeFolder) {
            case .failure(let error):
                failures.append(BatchFileOutcome(failed: source.relativePath, FileError(
                    file: discovery.display(source.relativePath), reason: "not converted because \(error.file) \(error.reason)")))
            case .success(let preset):
                let formats: [any HapticFormat]
                do { formats = try options.formats ?? HapticFormats.select(for: preset) } catch {
                    failures.append(BatchFileOutcome(failed: source.relativePath, FileError(
                        file: discovery.display(source.relativePath),
                        reason: "not converted because preset \(preset.name)'s output.formats names \(error)")))
                    continue
                }
                let stem = stems[source.url]!
                let prefix = source.relativeFolder.isEmpty ? stem : source.relativeFolder + "/" + stem
                let job = BatchJob(source: source, preset: preset,
                                   outputFolder: Self.outputFolder(of: source, in: outputRoot),
                                   stem: stem, previous: manifest.files[source.relativePath], outputPrefix: prefix,
                                   formats: formats, hapticPaths: formats.flatMap { format in
                                       OutputNaming.hapticFileNames(stem: prefix, format: HapticFormats.configured(format, for: preset))
                                   })
                // Stems are unique per folder except in contrived cases (`a.wav`, `a.flac` and
                // `a.wav.ogg` all want `a.wav.ahap`): the first in path order keeps the name.
                if let (path, owner) = job.hapticPaths.lazy.compactMap({ path in claimed[path].map { (path, $0) } }).first {
                    failures.append(BatchFileOutcome(failed: source.relativePath, FileError(
                        file: discovery.display(source.relativePath),
                        reason: "would write \(path), which \(owner) already writes", hint: "rename one of them")))
                    continue
                }
                for path in job.hapticPaths { claimed[path] = source.relativePath }
                jobs.append(job)
            }
        }
        self.jobs = jobs.sorted {
            ($0.source.format.duration, $1.source.relativePath) > ($1.source.format.duration, $0.source.relativePath)
        }
        self.failures = failures
        problems = tree.problems + presets.problems
    }

    /// Whether the input folder holds no audio to convert (after `--include`/`--exclude`).
    public var foundNoAudio: Bool { jobs.isEmpty && failures.isEmpty }

    /// The source's folder mirrored under the output folder.
    static func outputFolder(of source: BatchSource, in outputRoot: URL) -> URL {
        source.relativeFolder.isEmpty ? outputRoot : outputRoot.appendingPathComponent(source.relativeFolder, isDirectory: true)
    }

    /// A path below the input folder as messages and the report show it.
    /// - Parameter relativePath: a path relative to the input folder.
    /// - Returns: the path under the input folder as the user wrote it.
    public func displayInput(_ relativePath: String) -> String {
        discovery.display(relativePath)
    }

    /// A path below the output folder as messages and the report show it.
    /// - Parameter relativePath: a path relative to the output folder.
    /// - Returns: the path under the output folder as the user wrote it.
    public func displayOutput(_ relativePath: String) -> String {
        options.output.trimmingSuffix("/") + "/" + relativePath
    }
}
