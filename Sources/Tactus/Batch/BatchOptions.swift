import TactusAHAP
import TactusCore
import TactusFiles
import TactusPresets
import TactusPlatform

/// Everything a `tactus batch` run is asked to do.
public struct BatchOptions {
    /// The input folder, as the user wrote it (messages and the report show paths this way).
    public var input: String
    /// The output folder, as the user wrote it; created if missing. The input tree's folder
    /// structure is mirrored inside it.
    public var output: String
    /// The preset and `section.key=value` overrides for folders no `tactus.json` configures.
    public var preset = "default"
    /// `section.key=value` overrides applied on top of `preset`.
    public var overrides: [String] = []
    /// Which input files take part (`--include`, `--exclude`).
    public var filter = PathFilter()
    /// Files converted at once, each on its own thread with its own converter state.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Rebuild every output even when it is up to date.
    public var force = false
    /// Delete the outputs of sources that no longer exist (otherwise they are only reported).
    public var prune = false
    /// The haptic formats written for every source, in order; nil: each source's preset's
    /// `output.formats`.
    public var formats: [any HapticFormat]?
    /// Extra per-file work after each conversion (e.g. previews), in order.
    public var steps: [BatchStep] = []
    /// Where presets are looked up by name.
    public var library = PresetLibrary.standard()

    /// Options with the defaults above.
    /// - Parameters:
    ///   - input: the input folder, as the user wrote it.
    ///   - output: the output folder, as the user wrote it.
    public init(input: String, output: String) {
        self.input = input
        self.output = output
    }

    var inputURL: URL { URL(fileURLWithPath: input, isDirectory: true).standardizedFileURL }
    /// The output folder as an absolute, standardized URL (the batch's `outputRoot`).
    public var outputURL: URL { URL(fileURLWithPath: output, isDirectory: true).standardizedFileURL }
}

/// A per-file step that runs after a successful conversion, on the same worker thread: the
/// hook for writers that build on the AHAP (previews, plots). Steps must be thread-safe.
public protocol BatchStep {
    /// Identifies the step and every setting that changes what it writes. Part of the
    /// up-to-date check: changing it rebuilds the files the step ran on.
    var fingerprint: String { get }

    /// Writes the step's outputs for one converted source (atomically, inside the output
    /// folder, each committed into `log`) and returns them, so the
    /// manifest tracks and prunes them with the source. Throwing fails the file.
    /// - Parameters:
    ///   - result: the source's conversion.
    ///   - source: the source, with its paths.
    ///   - log: records every file the step commits.
    /// - Returns: the files written.
    /// - Throws: any error; it fails the file with its message.
    func run(after result: ConversionResult, source: BatchSource, log: CommittedFiles) throws -> [URL]
}

/// A usage problem that stops a batch before it starts (exit 64 in the CLI).
public struct BatchUsageError: Error, CustomStringConvertible {
    /// What is wrong, on one line.
    public let message: String

    /// The message.
    public var description: String { message }
}
