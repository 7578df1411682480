import Foundation
import Tactus
import TactusTestSupport
import XCTest

/// Reruns rewrite only what changed, outputs do not depend on the number of jobs, and the
/// outputs of deleted sources are reported, then pruned on request.
final class BatchIncrementalTests: XCTestCase {
    private func makeTree(_ fixture: BatchFixture) throws {
        try fixture.sound("boom.wav", clicks: [0.05, 0.2, 0.35])
        try fixture.sound("ui/click.flac", format: .flac16, clicks: [0.1])
        try fixture.sound("ui/tap.ogg", format: .oggVorbis, clicks: [0.15, 0.3], seed: 3)
        try fixture.sound("ui/deep/swish.wav", format: .wav24, clicks: [0.2], seconds: 0.8, seed: 4)
        try fixture.sound("impacts/hit.wav", clicks: [0.1], seed: 5)
        try fixture.sound("impacts/hit.aiff", format: .aiff16, clicks: [0.3], seed: 6)
    }

    /// A second run converts nothing and leaves every output, manifest included, untouched
    /// (same inode, same modification time); `--force` rebuilds all to the same bytes.
    func testSecondRunRewritesNothing() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        try makeTree(fixture)
        let first = try fixture.run()
        XCTAssertEqual(first.count(.converted), 6)
        let identities = try fixture.outputIdentities(), bytes = try fixture.outputFiles()

        let second = try fixture.run()

        XCTAssertEqual(second.count(.converted), 0)
        XCTAssertEqual(second.count(.upToDate), 6)
        XCTAssertEqual(fixture.outcome("ui/tap.ogg", in: second)!.transients, 2, "counts come from the manifest")
        XCTAssertEqual(try fixture.outputIdentities(), identities)

        let forced = try fixture.run { $0.force = true }
        XCTAssertEqual(forced.count(.converted), 6)
        XCTAssertNotEqual(try fixture.outputIdentities()["boom.ahap"], identities["boom.ahap"])
        XCTAssertEqual(try fixture.outputFiles(), bytes)
    }

    /// Only the sources whose content or resolved preset changed, or whose output went
    /// missing, are converted again.
    func testChangedSourcesPresetsAndMissingOutputsAreRebuilt() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        try makeTree(fixture)
        _ = try fixture.run()

        try fixture.sound("boom.wav", clicks: [0.05, 0.2, 0.35, 0.45])  // new content, same name
        try FileManager.default.removeItem(at: fixture.output.appendingPathComponent("ui/click.ahap"))
        try fixture.text("impacts/tactus.json", #"{"set": {"peaks.delta": 5}}"#)
        let result = try fixture.run()

        XCTAssertEqual(result.files.filter { $0.status == .converted }.map(\.source),
                       ["boom.wav", "impacts/hit.aiff", "impacts/hit.wav", "ui/click.flac"])
        XCTAssertEqual(fixture.outcome("boom.wav", in: result)!.transients, 4)

        let touched = try fixture.run { $0.overrides = ["mapping.intensity.gamma=0.8"] }
        XCTAssertEqual(touched.count(.converted), 6, "a --set changes every resolved preset")
    }

    /// `--jobs 1` and `--jobs 3` write byte-identical trees (AHAPs, audio and manifest).
    func testOutputDoesNotDependOnTheNumberOfJobs() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        try makeTree(fixture)
        for i in 0..<6 { try fixture.sound("many/s\(i).wav", clicks: [0.05 * Double(i + 1)], seed: UInt64(10 + i)) }

        _ = try fixture.run(jobs: 1)
        let serial = try fixture.outputFiles()
        try FileManager.default.removeItem(at: fixture.output)
        _ = try fixture.run(jobs: 3)

        XCTAssertEqual(serial.count, 1 + 2 * 12)
        XCTAssertEqual(try fixture.outputFiles(), serial)
    }

    /// Outputs of a deleted source are reported and kept; `--prune` deletes them with the
    /// folder they leave empty. Outputs a source no longer writes (its stem changed because
    /// a same-stem file appeared) are replaced.
    func testDeletedSourcesArePrunedOnRequestAndRenamedOutputsReplaced() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        try makeTree(fixture)
        try fixture.sound("ui/click.wav", clicks: [0.2])  // click.flac now shares its stem
        _ = try fixture.run()
        XCTAssertNotNil(try fixture.outputFiles()["ui/click.flac.ahap"])

        try FileManager.default.removeItem(at: fixture.input.appendingPathComponent("ui/click.wav"))
        try FileManager.default.removeItem(at: fixture.input.appendingPathComponent("ui/deep"))
        let reported = try fixture.run()
        XCTAssertEqual(reported.orphans.map(\.source), ["ui/click.wav", "ui/deep/swish.wav"])
        XCTAssertEqual(reported.orphans.map(\.pruned), [false, false])
        XCTAssertTrue(reported.succeeded)
        var files = try fixture.outputFiles()
        XCTAssertNotNil(files["ui/deep/swish.ahap"])
        XCTAssertNil(files["ui/click.flac.ahap"], "click.flac is alone again: its outputs are click.ahap, click.wav")
        XCTAssertNotNil(files["ui/click.ahap"])

        let pruned = try fixture.run { $0.prune = true }
        XCTAssertEqual(pruned.orphans.map(\.pruned), [true, true])
        files = try fixture.outputFiles()
        XCTAssertNil(files["ui/deep/swish.ahap"])
        XCTAssertNil(files["ui/click.wav.ahap"])
        XCTAssertEqual(files["ui/click.wav"], try Data(contentsOf: fixture.output.appendingPathComponent("ui/click.wav")))
        XCTAssertNotNil(files["ui/click.ahap"], "click.flac's own transcoded click.wav and AHAP stay")
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.output.appendingPathComponent("ui/deep").path))
        XCTAssertEqual(try fixture.run().orphans.count, 0)
    }

    /// Temporaries left by a killed run are removed; they never count as outputs.
    func testTemporariesOfAKilledRunAreRemoved() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        try fixture.sound("ui/click.wav")
        let stale = fixture.output.appendingPathComponent("ui/.click.ahap.k1ll3d.tactus-tmp")
        try FileManager.default.createDirectory(at: stale.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{\"Version\": 1.0, \"Pat".utf8).write(to: stale)

        _ = try fixture.run()

        XCTAssertEqual(try fixture.outputFiles().keys.sorted(), [".tactus-manifest.json", "ui/click.ahap", "ui/click.wav"])
    }
}
