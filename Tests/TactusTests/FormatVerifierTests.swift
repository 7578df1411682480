import Foundation
import Tactus
import TactusCore
import TactusFiles
import TactusTestSupport
import XCTest

/// Every built-in format (`HapticFormats.builtIn`, the registration list) through
/// `FormatVerifier`: a format added to the list is verified without a line here.
final class FormatVerifierTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = AudioFixture.temporaryDirectory(name)
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    private var formats: [any HapticFormat.Type] { HapticFormats.builtIn }

    func testEveryFormatIsReadableAndStatesItsTolerance() {
        for format in formats {
            XCTAssertTrue(format is any HapticReadableFormat.Type, "\(format.id): every format reads back, so it can be verified")
            XCTAssertNotNil(FormatVerifier.tolerances[format.id], "\(format.id): state its read-back tolerance in FormatVerifier.tolerances")
        }
    }

    /// Checks 1 (in-process runs), 2 and 3 on the Corpus sounds, then 4 on each format's first file.
    func testEveryFormatWritesTheSameBytesValidatesReadsBackAndSurvivesHostileInput() throws {
        let selected = formats.map { $0.init() }
        var measurements: [FormatVerifier.Measurement] = []
        var firstFiles: [String: URL] = [:]
        for sound in FormatVerifier.sounds {
            let source = Corpus.root.appendingPathComponent("clean").appendingPathComponent(sound)
            var results: [ConversionResult] = []
            for run in ["first", "second"] {
                let converter = Converter(preset: try shippedPreset(), formats: selected, log: CommittedFiles())
                results.append(try converter.convert(source, to: folder.appendingPathComponent(run)))
            }
            for format in formats {
                let files = results.map { $0.outputs.filter { $0.formatID == format.id }.map(\.url) }
                XCTAssertFalse(files[0].isEmpty, "\(format.id) \(sound): nothing written")
                for (a, b) in zip(files[0], files[1]) {
                    XCTAssertEqual(try Data(contentsOf: a), try Data(contentsOf: b), "\(format.id) \(sound): a second run wrote other bytes")
                }
                guard let readable = format.init() as? any HapticReadableFormat, let tolerance = FormatVerifier.tolerances[format.id],
                      let file = files[0].first else { continue }
                measurements.append(try FormatVerifier.checkReadBack(readable, file: file, track: results[0].track,
                                                                     tolerance: tolerance, sound: sound))
                if firstFiles[format.id] == nil { firstFiles[format.id] = file }
            }
        }
        print(measurements.map(\.description).joined(separator: "\n"))
        for format in formats {
            guard let readable = format.init() as? any HapticReadableFormat, let file = firstFiles[format.id] else { continue }
            FormatVerifier.checkHostile(readable, valid: try Data(contentsOf: file))
        }
    }

    /// Check 1 across processes: `tactus batch` with every format gives the same bytes with
    /// `--jobs 1` and `--jobs 3`, and writes each format's files.
    func testEveryFormatWritesTheSameBytesOnAnyNumberOfJobs() throws {
        let inputs = folder.appendingPathComponent("in", isDirectory: true)
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        for sound in FormatVerifier.sounds {
            try FileManager.default.copyItem(at: Corpus.root.appendingPathComponent("clean").appendingPathComponent(sound),
                                             to: inputs.appendingPathComponent(sound))
        }
        var outputs: [[String: Data]] = []
        for jobs in [1, 3] {
            let out = folder.appendingPathComponent("out-\(jobs)")
            let outcome = try CLIRunner.run(["batch", inputs.path, "-o", out.path, "--jobs", "\(jobs)", "--quiet",
                                             "--format", formats.map { $0.id }.joined(separator: ",")], in: folder)
            XCTAssertEqual(outcome.status, 0, "\(outcome)")
            outputs.append(try FileTree.contents(below: out))
        }
        for format in formats {
            let ending = "." + format.fileExtension
            let written = outputs[0].filter { $0.key.hasSuffix(ending) }
            XCTAssertEqual(written.count, FormatVerifier.sounds.count, "\(format.id): one file per sound")
            for (path, bytes) in written {
                XCTAssertEqual(outputs[1][path], bytes, "\(format.id): \(path) differs between --jobs 1 and --jobs 3")
            }
        }
    }
}
