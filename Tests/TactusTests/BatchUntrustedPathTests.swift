import Foundation
@testable import Tactus
import TactusTestSupport
import TactusCore
import XCTest

/// Paths a batch takes from outside, the `--report` path and the outputs a manifest lists,
/// never make it replace or delete a file that is not its own to replace or delete.
final class BatchUntrustedPathTests: XCTestCase {
    /// A report path that is a source, an output or the manifest (also through a link, or
    /// `..`) is refused with one line and exit 64 before any work: sources and outputs keep
    /// their bytes and inodes, nothing is added. Any other name inside the output folder is the
    /// batch's report: written, and kept by a later run that prunes.
    func testAReportPathAmongTheBatchsOwnFilesIsRefusedBeforeAnyWork() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        let source = try fixture.sound("a.wav")
        let link = fixture.root.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: fixture.output)

        let fresh = try CLIRunner.run(["batch", fixture.input.path, "-o", fixture.output.path, "--quiet",
                                       "--report", fixture.output.path + "/report.json"], timeout: CLIRunner.hangLimit)
        XCTAssertEqual(fresh.status, 0, "\(fresh)")
        XCTAssertEqual(try fixture.outputFiles().keys.sorted(), [BatchManifest.fileName, "a.ahap", "a.wav", "report.json"])
        XCTAssertNotNil(try JSONReader.parse(Data(contentsOf: fixture.output.appendingPathComponent("report.json")))["files"])
        XCTAssertEqual(try CLIRunner.run(["batch", fixture.input.path, "-o", fixture.output.path, "--quiet", "--prune"],
                                         timeout: CLIRunner.hangLimit).status, 0)
        XCTAssertNotNil(try fixture.outputFiles()["report.json"], "a later run does not prune the report")
        try FileManager.default.removeItem(at: fixture.output.appendingPathComponent("report.json"))

        let sourceBytes = try Data(contentsOf: source), outputs = try fixture.outputFiles(), identities = try fixture.outputIdentities()
        XCTAssertEqual(outputs.keys.sorted(), [BatchManifest.fileName, "a.ahap", "a.wav"])
        let refused = [
            (source.path, "names a source of this batch"),
            (link.path + "/../in/a.wav", "names a source of this batch"),
            (fixture.output.path + "/a.ahap", "names one of the batch's own files"),
            (fixture.output.path + "/" + BatchManifest.fileName, "names one of the batch's own files"),
            (fixture.output.path + "/a.haptic", "names one of the batch's own files"),
            (link.path + "/a.ahap", "names one of the batch's own files"),
            (fixture.input.path + "/../out/./a.ahap", "names one of the batch's own files"),
        ]
        for (report, reason) in refused {
            let outcome = try CLIRunner.run(["batch", fixture.input.path, "-o", fixture.output.path, "--report", report, "--force"],
                                            timeout: CLIRunner.hangLimit)
            XCTAssertEqual(outcome.status, 64, "\(report): \(outcome)")
            XCTAssertEqual(outcome.stdout, "", report)
            XCTAssertEqual(outcome.stderrLines.count, 1, "\(report): \(outcome)")
            XCTAssertTrue(outcome.stderr.hasPrefix("tactus: \(report): --report \(reason)"), outcome.stderr)
            XCTAssertEqual(try Data(contentsOf: source), sourceBytes, report)
            XCTAssertEqual(try fixture.outputFiles(), outputs, report)
            XCTAssertEqual(try fixture.outputIdentities(), identities, "\(report): --force rebuilt nothing")
        }
    }

    /// With the outputs beside the sources (`-o` the input folder), the folder is not all the
    /// batch's: a report there is written, unless it takes the name of the manifest, of an
    /// output the manifest records or of one this run writes.
    func testBesideTheSourcesOnlyTheBatchsOwnNamesAreRefused() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        let source = try fixture.sound("a.wav")
        let folder = fixture.input.path
        XCTAssertEqual(try CLIRunner.run(["batch", folder, "-o", folder, "--quiet"], timeout: CLIRunner.hangLimit).status, 0)
        for name in ["a.ahap", BatchManifest.fileName, "a.wav"] {
            let outcome = try CLIRunner.run(["batch", folder, "-o", folder, "--report", folder + "/" + name], timeout: CLIRunner.hangLimit)
            XCTAssertEqual(outcome.status, 64, "\(name): \(outcome)")
            XCTAssertEqual(outcome.stderrLines.count, 1, "\(name): \(outcome)")
        }
        let sourceBytes = try Data(contentsOf: source)
        let written = try CLIRunner.run(["batch", folder, "-o", folder, "--report", folder + "/report.json", "--quiet"], timeout: CLIRunner.hangLimit)
        XCTAssertEqual(written.status, 0, "\(written)")
        XCTAssertNotNil(try JSONReader.parse(Data(contentsOf: fixture.input.appendingPathComponent("report.json")))["files"])
        XCTAssertEqual(try Data(contentsOf: source), sourceBytes)
    }

    /// An output a manifest lists that is not a plain path inside the output folder (`..`,
    /// absolute, empty, `.`) makes the whole manifest unusable: one warning naming it and the
    /// path, exit 0, nothing outside the folder deleted, every output rebuilt and a manifest of
    /// this run written. An absolute one used to hang `--prune` at full CPU.
    func testAManifestListingAPathOutsideTheOutputFolderPrunesNothing() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        try fixture.sound("a.wav")
        let victim = fixture.root.appendingPathComponent("victim.txt")
        try Data("not the batch's".utf8).write(to: victim)
        XCTAssertEqual(try CLIRunner.run(["batch", fixture.input.path, "-o", fixture.output.path, "--quiet"], timeout: CLIRunner.hangLimit).status, 0)
        let manifestURL = fixture.output.appendingPathComponent(BatchManifest.fileName)
        let manifest = try Data(contentsOf: manifestURL)
        var entry = try XCTUnwrap(try BatchManifest(JSONReader.parse(manifest)).files["a.wav"])

        for stray in ["../victim.txt", victim.path, "/x/y.ahap", "", "./a.ahap", "sub/../../victim.txt"] {
            entry.outputs = [stray]
            var hostile = try BatchManifest(JSONReader.parse(manifest))
            hostile.files["gone.wav"] = entry
            try hostile.encoded().write(to: manifestURL)

            let outcome = try CLIRunner.run(["batch", fixture.input.path, "-o", fixture.output.path, "--prune", "--quiet"],
                                            timeout: CLIRunner.hangLimit)
            XCTAssertFalse(outcome.timedOut, stray)
            XCTAssertEqual(outcome.status, 0, "\(stray): \(outcome)")
            XCTAssertEqual(outcome.stderrLines, [
                "tactus: \(manifestURL.path): lists \(JSONText.quote(stray)) as an output of \"gone.wav\", which is not a "
                    + "file inside the output folder; rebuilding every output, pruning nothing",
            ], stray)
            XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "not the batch's", stray)
            XCTAssertEqual(try Data(contentsOf: manifestURL), manifest, "\(stray): rebuilt, and recorded as before")
        }
    }

    /// Pruning removes the folders a file leaves empty, never the root, and ends whatever
    /// the path's text: "/x/y.ahap" walked up to "/", its own parent, forever.
    func testRemovingOutputsEndsAndKeepsTheRootWhateverThePath() throws {
        let root = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("a/b/c.ahap")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data().write(to: file)

        XCTAssertEqual(OutputTree.folders(leadingTo: "a/b/c.ahap"), ["a", "a/b"])
        XCTAssertEqual(OutputTree.folders(leadingTo: "c.ahap"), [])
        // Outside `remove`'s contract (a manifest never hands it such paths), and still finite.
        XCTAssertEqual(OutputTree.folders(leadingTo: "/x/y.ahap"), ["x"])
        XCTAssertEqual(OutputTree.folders(leadingTo: "/"), [])
        OutputTree.remove(["a/b/c.ahap"], under: root)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path), [], "the file and the folders it leaves empty")
    }
}
