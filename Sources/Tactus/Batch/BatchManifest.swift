import TactusCore
import TactusFiles
import TactusPlatform

/// What `tactus batch` wrote for each source: `<OUT_DIR>/.tactus-manifest.json`.
///
/// It makes reruns incremental (a source is up to date when its content hash, resolved
/// preset, tool version and extra steps match its entry and its outputs still exist) and
/// tells which outputs belong to a source that was deleted. Deterministic: keys sorted,
/// paths relative, no timestamps or timings, so `--jobs 1` and `--jobs N` write the same bytes.
/// Hidden so it does not travel with the AHAPs into an app bundle.
public struct BatchManifest: Equatable, Sendable {
    /// The manifest's name in the output folder (hidden).
    public static let fileName = ".tactus-manifest.json"
    /// The `schemaVersion` this build reads and writes; any other is not used.
    public static let currentSchema = 1

    /// What was written for one source, and from what.
    public struct Entry: Equatable, Sendable {
        /// `ContentHash` of the source's bytes when it was converted.
        public var contentHash: String
        /// The preset's name.
        public var preset: String
        /// `ResolvedPreset.hash` of the values used.
        public var presetHash: String
        /// `TactusVersion.current` of the tool that converted it.
        public var toolVersion: String
        /// Fingerprints of the `BatchStep`s that ran after the conversion.
        public var steps: [String]
        /// Everything written for the source, relative to the output folder, sorted.
        public var outputs: [String]
        /// Transients in the track.
        public var transients: Int
        /// The source's length in seconds.
        public var durationSeconds: Double
        /// What each written format's own checker found in its file (Android's 16-point
        /// guarantee, …), kept so an up-to-date file reports them again; in output order.
        public var warnings: [OutputWarning] = []
        /// Outputs kept from an earlier conversion made from other source bytes, another
        /// preset or another tool (files of formats not requested since): recorded, never
        /// deleted without `--prune`, never taken as up to date.
        public var stale: [String] = []

        /// Whether outputs recorded here were made from the same source bytes, preset values
        /// and tool as a conversion from `contentHash` with `presetHash` now.
        /// - Parameters:
        ///   - contentHash: `ContentHash` of the source's bytes now.
        ///   - presetHash: `ResolvedPreset.hash` of the preset used now.
        /// - Returns: true when all three match.
        func madeFromSameInputs(as contentHash: String, _ presetHash: String) -> Bool {
            self.contentHash == contentHash && self.presetHash == presetHash && toolVersion == TactusVersion.current
        }
    }

    /// The manifest format's version.
    public var schemaVersion = Self.currentSchema
    /// Entries by source path relative to the input folder.
    public var files: [String: Entry] = [:]

    /// - Parameter files: entries by source path relative to the input folder.
    public init(files: [String: Entry] = [:]) {
        self.files = files
    }

    /// Why a manifest cannot be used, as a clause for the warning that names it.
    public struct Unusable: Error {
        /// Why, e.g. "it names a path outside its folder".
        public let reason: String
    }

    /// Reads the manifest in `folder`. A missing one is empty. One that is unreadable, from
    /// another version or names a path outside its folder is empty too, so everything is
    /// rebuilt and nothing it lists is pruned, and comes back as a warning to report.
    /// - Parameter folder: the output folder.
    /// - Returns: the manifest (empty when missing or unusable) and the warning for an unusable one.
    public static func load(from folder: URL) -> (BatchManifest, warning: String?) {
        let url = folder.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return (BatchManifest(), nil) }
        let consequence = "; rebuilding every output, pruning nothing"
        guard let data = try? InputFile.contents(of: url, maxBytes: 1 << 30), let json = try? JSONReader.parse(data) else {
            return (BatchManifest(), Self.foreign + consequence)
        }
        do throws(Unusable) { return (try BatchManifest(json), nil) } catch {
            return (BatchManifest(), error.reason + consequence)
        }
    }

    private static let foreign = "cannot be read or is from another version"

    /// The manifest a JSON value holds.
    ///
    /// The file is outside data (a user or a tool may have edited it), and `--prune` deletes
    /// the outputs it lists: every source and output path must be `FilePaths.isPlainRelative`,
    /// so that it names a file inside its folder (no `..`, `.`, empty or absolute path).
    /// - Throws: `Unusable` when it is not one of this schema, or names a path that is not plain.
    /// - Parameter json: the parsed manifest file.
    public init(_ json: JSONValue) throws(Unusable) {
        guard json["schemaVersion"]?.number == Double(Self.currentSchema), case .object(let members)? = json["files"] else {
            throw Unusable(reason: Self.foreign)
        }
        for (source, value) in members {
            guard let contentHash = value["contentHash"]?.string, let preset = value["preset"]?.string,
                  let presetHash = value["presetHash"]?.string, let toolVersion = value["toolVersion"]?.string,
                  let steps = value["steps"]?.stringArray, let outputs = value["outputs"]?.stringArray,
                  let transients = value["transients"]?.number, let duration = value["durationSeconds"]?.number,
                  transients >= 0, transients <= Double(Int32.max), transients == transients.rounded(),
                  duration.isFinite, duration >= 0 else { throw Unusable(reason: Self.foreign) }
            guard FilePaths.isPlainRelative(source) else {
                throw Unusable(reason: "names the source \(JSONText.quote(source)), which is not a path inside the input folder")
            }
            if let stray = outputs.first(where: { !FilePaths.isPlainRelative($0) }) {
                throw Unusable(reason: "lists \(JSONText.quote(stray)) as an output of \(JSONText.quote(source)), "
                               + "which is not a file inside the output folder")
            }
            // Optional: manifests written before format warnings were recorded have none.
            var warnings: [OutputWarning] = []
            if let list = value["warnings"] {
                guard case .array(let items) = list else { throw Unusable(reason: Self.foreign) }
                for item in items {
                    guard let output = item["output"]?.string, let finding = item["finding"]?.string,
                          outputs.contains(output) else { throw Unusable(reason: Self.foreign) }
                    warnings.append(OutputWarning(output: output, finding: finding))
                }
            }
            let stale = value["stale"].map { $0.stringArray } ?? []
            guard let stale, stale.allSatisfy(outputs.contains) else { throw Unusable(reason: Self.foreign) }
            files[source] = Entry(contentHash: contentHash, preset: preset, presetHash: presetHash, toolVersion: toolVersion,
                                  steps: steps, outputs: outputs, transients: Int(transients), durationSeconds: duration,
                                  warnings: warnings, stale: stale)
        }
    }

    /// The manifest as JSON text: keys sorted, one value per line.
    /// - Returns: the UTF-8 bytes, ending with a newline.
    public func encoded() -> Data {
        let files = self.files.mapValues { entry in
            JSONValue.sortedObject([
                "contentHash": .string(entry.contentHash), "preset": .string(entry.preset),
                "presetHash": .string(entry.presetHash), "toolVersion": .string(entry.toolVersion),
                "steps": .array(entry.steps.map(JSONValue.string)), "outputs": .array(entry.outputs.map(JSONValue.string)),
                "transients": .number(Double(entry.transients)), "durationSeconds": .number(entry.durationSeconds),
                "stale": .array(entry.stale.map(JSONValue.string)),
                "warnings": .array(entry.warnings.map {
                    JSONValue.sortedObject(["output": .string($0.output), "finding": .string($0.finding)])
                }),
            ])
        }
        let json = JSONValue.sortedObject(["schemaVersion": .number(Double(schemaVersion)),
                                           "files": JSONValue.sortedObject(files)])
        return Data(json.prettyText().utf8)
    }

    /// Writes atomically into `folder`, and only when the bytes change, so a run that
    /// changed nothing leaves the manifest untouched too.
    /// - Parameters:
    ///   - folder: the output folder.
    ///   - log: records the committed manifest.
    /// - Throws: a `FileError` when it cannot be written.
    public func save(in folder: URL, log: CommittedFiles) throws {
        let url = folder.appendingPathComponent(Self.fileName)
        let data = encoded()
        if let existing = try? Data(contentsOf: url), existing == data { return }
        let output = StagedFile(url)
        try output.write(data)
        try output.commit(recordingIn: log)
    }
}
