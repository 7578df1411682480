import Foundation
import Tactus
import TactusAHAP
import TactusMapping
import TactusPresets
import TactusTestSupport
import TactusCore
import TactusFiles

/// A temporary input tree of generated sounds for the batch tests, with helpers to run a
/// batch on it and to inspect what it wrote.
struct BatchFixture {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let library = PresetLibrary(directories: [repository.appendingPathComponent("Presets", isDirectory: true)])
    static let sampleRate = 16_000

    let root: URL
    var input: URL { root.appendingPathComponent("in", isDirectory: true) }
    var output: URL { root.appendingPathComponent("out", isDirectory: true) }

    init(_ name: String = #function) {
        root = AudioFixture.temporaryDirectory(name)
        try? FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }

    /// Writes a short sound with noise clicks at `clicks` (seconds) below the input folder.
    @discardableResult
    func sound(_ path: String, format: AudioFixture.Format = .wav16, clicks: [Double] = [0.1, 0.3],
               seconds: Double = 0.5, seed: UInt64 = 1) throws -> URL {
        let url = input.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let samples = Signals.clicks(at: clicks, seconds: seconds, sampleRate: Double(Self.sampleRate), seed: seed)
        return try AudioFixture.write(samples, to: url, sampleRate: Self.sampleRate, format: format)
    }

    /// Writes a text file below the input folder.
    func text(_ path: String, _ contents: String) throws {
        let url = input.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
    }

    func options(jobs: Int = 2) -> BatchOptions {
        var options = BatchOptions(input: input.path, output: output.path)
        options.library = Self.library
        options.jobs = jobs
        return options
    }

    func run(jobs: Int = 2, _ configure: (inout BatchOptions) -> Void = { _ in }) throws -> BatchResult {
        var options = options(jobs: jobs)
        configure(&options)
        return BatchRunner(plan: try BatchPlan(options), log: CommittedFiles()).run()
    }

    /// Every file below the output folder (hidden ones included) by relative path.
    func outputFiles() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: output.path)!
        while let path = enumerator.nextObject() as? String {
            let url = output.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = try Data(contentsOf: url)
            }
        }
        return files
    }

    /// Inode and modification time of every output file: a rewrite (a rename into place)
    /// changes both.
    func outputIdentities() throws -> [String: String] {
        var identities: [String: String] = [:]
        for path in try outputFiles().keys {
            let attributes = try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent(path).path)
            identities[path] = "\(attributes[.systemFileNumber]!) \((attributes[.modificationDate] as! Date).timeIntervalSince1970)"
        }
        return identities
    }

    /// The AHAP's metadata (Preset, PresetHash, Source…) by key.
    func metadata(_ ahapPath: String) throws -> [String: String] {
        let document = try AHAPDecoder().decode(Data(contentsOf: output.appendingPathComponent(ahapPath)))
        return Dictionary(document.metadata.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    func outcome(_ source: String, in result: BatchResult) -> BatchFileOutcome? {
        result.files.first { $0.source == source }
    }
}
