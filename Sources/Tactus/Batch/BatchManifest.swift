import TactusCore

/// What `tactus batch` wrote for each source: `<OUT_DIR>/.tactus-manifest.json`.
///
/// It makes reruns incremental (a source is up to date when its content hash, resolved
/// preset, tool version and extra steps match its entry and its outputs still exist) and
/// tells which outputs belong to a source that was deleted. Deterministic: keys sorted,
/// paths relative, no timestamps or timings, so `--jobs 1` and `--jobs N` write the same bytes.
/// Hidden so it does not travel with the AHAPs into an app bundle.
public struct BatchManifest: Equatable, Sendable {
    public static let fileName = ".tactus-manifest.json"
    public static let currentSchema = 1

    public struct Entry: Equatable, Sendable {
        /// `ContentHash` of the source's bytes when it was converted.
        public var contentHash: String
        public var preset: String
        public var presetHash: String
        public var toolVersion: String
        /// Fingerprints of the `BatchStep`s that ran after the conversion.
        public var steps: [String]
        /// Everything written for the source, relative to the output folder, sorted.
        public var outputs: [String]
        public var transients: Int
        public var durationSeconds: Double
    }

    public var schemaVersion = Self.currentSchema
    /// Entries by source path relative to the input folder.
    public var files: [String: Entry] = [:]

    public init(files: [String: Entry] = [:]) {
        self.files = files
    }

    /// Reads the manifest in `folder`. A missing one is empty; an unreadable or foreign one
    /// is empty too (so everything is rebuilt) and comes back as a warning to report.
    public static func load(from folder: URL) -> (BatchManifest, warning: String?) {
        let url = folder.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return (BatchManifest(), nil) }
        guard let data = try? InputFile.contents(of: url, maxBytes: 1 << 30), let json = try? JSONReader.parse(data),
              let manifest = BatchManifest(json) else {
            return (BatchManifest(), "cannot be read or is from another version; rebuilding every output")
        }
        return (manifest, nil)
    }

    /// The manifest a JSON value holds, or nil if it is not one of this schema.
    public init?(_ json: JSONValue) {
        guard json["schemaVersion"]?.number == Double(Self.currentSchema), case .object(let members)? = json["files"] else {
            return nil
        }
        for (source, value) in members {
            guard let contentHash = value["contentHash"]?.string, let preset = value["preset"]?.string,
                  let presetHash = value["presetHash"]?.string, let toolVersion = value["toolVersion"]?.string,
                  let steps = value["steps"]?.stringArray, let outputs = value["outputs"]?.stringArray,
                  let transients = value["transients"]?.number, let duration = value["durationSeconds"]?.number,
                  transients >= 0, transients <= Double(Int32.max), transients == transients.rounded(),
                  duration.isFinite, duration >= 0 else { return nil }
            files[source] = Entry(contentHash: contentHash, preset: preset, presetHash: presetHash, toolVersion: toolVersion,
                                  steps: steps, outputs: outputs, transients: Int(transients), durationSeconds: duration)
        }
    }

    /// The manifest as JSON text: keys sorted, one value per line.
    public func encoded() -> Data {
        let files = self.files.mapValues { entry in
            JSONValue.sortedObject([
                "contentHash": .string(entry.contentHash), "preset": .string(entry.preset),
                "presetHash": .string(entry.presetHash), "toolVersion": .string(entry.toolVersion),
                "steps": .array(entry.steps.map(JSONValue.string)), "outputs": .array(entry.outputs.map(JSONValue.string)),
                "transients": .number(Double(entry.transients)), "durationSeconds": .number(entry.durationSeconds),
            ])
        }
        let json = JSONValue.sortedObject(["schemaVersion": .number(Double(schemaVersion)),
                                           "files": JSONValue.sortedObject(files)])
        return Data(json.prettyText().utf8)
    }

    /// Writes atomically into `folder`, and only when the bytes change, so a run that
    /// changed nothing leaves the manifest untouched too.
    public func save(in folder: URL, log: CommittedFiles) throws {
        let url = folder.appendingPathComponent(Self.fileName)
        let data = encoded()
        if let existing = try? Data(contentsOf: url), existing == data { return }
        let output = StagedFile(url)
        try output.write(data)
        try output.commit(recordingIn: log)
    }
}
