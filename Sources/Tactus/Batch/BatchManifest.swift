import Foundation
import TactusCore

/// What `tactus batch` wrote for each source: `<OUT_DIR>/.tactus-manifest.json`.
///
/// It makes reruns incremental (a source is up to date when its content hash, resolved
/// preset, tool version and extra steps match its entry and its outputs still exist) and
/// tells which outputs belong to a source that was deleted. Deterministic: keys sorted,
/// paths relative, no timestamps or timings, so `--jobs 1` and `--jobs N` write the same bytes.
/// Hidden so it does not travel with the AHAPs into an app bundle.
public struct BatchManifest: Codable, Equatable, Sendable {
    public static let fileName = ".tactus-manifest.json"
    public static let currentSchema = 1

    public struct Entry: Codable, Equatable, Sendable {
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
        guard let data = try? Data(contentsOf: url),
              let manifest = try? JSONDecoder().decode(BatchManifest.self, from: data),
              manifest.schemaVersion == currentSchema else {
            return (BatchManifest(), "cannot be read or is from another version; rebuilding every output")
        }
        return (manifest, nil)
    }

    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings, numbers and arrays cannot fail.
        return (try? encoder.encode(self)).map { $0 + Data("\n".utf8) } ?? Data()
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
