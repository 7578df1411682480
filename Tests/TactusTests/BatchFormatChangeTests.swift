import Foundation
import Tactus
import TactusTestSupport
import XCTest

/// A batch never removes what it was not asked to: the files of formats an earlier run wrote
/// stay, and stay in the manifest, until `--prune` removes them and lists them; each format's
/// own warnings reach the result (and so the summary, report and gallery).
final class BatchFormatChangeTests: XCTestCase {
    private let every = ["ahap", "haptic", "android", "rumble", "pcm", "dualsense"]

    private func makeTree(_ fixture: BatchFixture) throws {
        try fixture.sound("boom.wav", clicks: [0.05, 0.2, 0.35])
        try fixture.sound("ui/tap.ogg", format: .oggVorbis, clicks: [0.15, 0.3], seed: 3)
    }

    private func names(_ fixture: BatchFixture) throws -> Set<String> {
        Set(try fixture.outputFiles().keys.filter { !$0.hasPrefix(".") })
    }

    func testFewerFormatsKeepTheEarlierFilesAndPruneRemovesThem() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        try makeTree(fixture)
        _ = try fixture.run { $0.formats = try! HapticFormats.select(self.every) }
        let all = try names(fixture)
        XCTAssertTrue(all.isSuperset(of: ["boom.ahap", "boom.haptic", "boom.android.json", "boom.rumble.json", "boom.pcm.wav",
                                          "boom.dualsense.wav", "boom.wav", "ui/tap.ahap", "ui/tap.wav", "ui/tap.haptic"]), "\(all)")
        let bytes = try fixture.outputFiles()

        let ahapOnly = try fixture.run { $0.formats = try! HapticFormats.select(["ahap"]) }
        XCTAssertEqual(ahapOnly.count(.upToDate), 2, "the AHAPs written before are current")
        XCTAssertEqual(try names(fixture), all, "nothing is removed")
        XCTAssertEqual(try fixture.outputFiles().filter { !$0.key.hasPrefix(".") }, bytes.filter { !$0.key.hasPrefix(".") })

        let hapticOnly = try fixture.run { $0.formats = try! HapticFormats.select(["haptic"]) }
        XCTAssertEqual(hapticOnly.count(.upToDate), 2)
        XCTAssertEqual(try names(fixture), all, "the AHAPs and their audio stay")
        XCTAssertEqual(fixture.outcome("boom.wav", in: hapticOnly)?.hapticOutputs, ["boom.haptic"])

        let pruned = try fixture.run {
            $0.formats = try! HapticFormats.select(["haptic"])
            $0.prune = true
        }
        XCTAssertEqual(pruned.count(.converted), 2, "pruning converts again to know what the run writes")
        let boom = fixture.outcome("boom.wav", in: pruned)!
        XCTAssertEqual(Set(boom.pruned), ["boom.ahap", "boom.wav", "boom.android.json", "boom.rumble.json", "boom.pcm.wav", "boom.dualsense.wav"])
        XCTAssertEqual(try names(fixture), ["boom.haptic", "ui/tap.haptic"])
        XCTAssertTrue(pruned.summary.contains("pruned 12 outputs of formats not requested"), pruned.summary)
    }

    /// Files kept from a conversion with another preset are recorded as stale: asking for
    /// that format again converts the source, rather than taking the old file as current.
    func testAFileKeptFromAnotherPresetIsNotTakenAsCurrent() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        try makeTree(fixture)
        _ = try fixture.run { $0.formats = try! HapticFormats.select(["ahap", "haptic"]) }
        let heavier = { (options: inout BatchOptions) in options.overrides = ["feel.strengthDb=3"] }
        let changed = try fixture.run {
            heavier(&$0)
            $0.formats = try! HapticFormats.select(["ahap"])
        }
        XCTAssertEqual(changed.count(.converted), 2)
        let manifest = try XCTUnwrap(BatchManifest.load(from: fixture.output).0.files["boom.wav"])
        XCTAssertEqual(manifest.stale, ["boom.haptic"])
        XCTAssertTrue(manifest.outputs.contains("boom.haptic"))

        let again = try fixture.run {
            heavier(&$0)
            $0.formats = try! HapticFormats.select(["haptic"])
        }
        XCTAssertEqual(again.count(.converted), 2, "the .haptic on disk was made with the other preset")
        XCTAssertEqual(try XCTUnwrap(BatchManifest.load(from: fixture.output).0.files["boom.wav"]).stale, [],
                       "the AHAP and its audio were made with this preset")
        let back = try fixture.run {
            heavier(&$0)
            $0.formats = try! HapticFormats.select(["ahap"])
        }
        XCTAssertEqual(back.count(.upToDate), 2)
    }

    /// Android's envelope beyond the 16 control points every device guarantees is a warning of
    /// the file, in the result, in the summary, and again when the file is up to date.
    func testFormatWarningsAreReportedAndRemembered() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        try fixture.sound("rattle.wav", clicks: stride(from: 0.05, to: 1.9, by: 0.09).map { $0 }, seconds: 2)
        try fixture.sound("tick.wav", clicks: [0.1])
        let first = try fixture.run { $0.formats = try! HapticFormats.select(["ahap", "android"]) }
        let warnings = fixture.outcome("rattle.wav", in: first)!.warnings
        XCTAssertEqual(warnings.map(\.output), ["rattle.android.json"])
        XCTAssertTrue(warnings[0].finding.hasPrefix("warning: envelope.controlPoints: "), warnings[0].finding)
        XCTAssertTrue(warnings[0].finding.contains("devices guarantee 16"), warnings[0].finding)
        XCTAssertEqual(fixture.outcome("tick.wav", in: first)!.warnings, [])
        XCTAssertTrue(first.summary.hasSuffix("; 1 output with format warnings"), first.summary)

        let second = try fixture.run { $0.formats = try! HapticFormats.select(["ahap", "android"]) }
        XCTAssertEqual(second.count(.upToDate), 2)
        XCTAssertEqual(fixture.outcome("rattle.wav", in: second)!.warnings, warnings)
    }
}

/// The same through the `tactus batch` command: the console lists the format warnings and
/// what `--prune` removed, and the gallery links only files that exist.
final class BatchFormatChangeCommandTests: XCTestCase {
    /// Every `href` and `data-src` of the gallery, resolved against its folder.
    private func links(in gallery: URL) throws -> [URL] {
        let html = try String(contentsOf: gallery, encoding: .utf8)
        let pattern = try Regex(##"(?:href|src|data-src)="([^"#:][^"]*)""##)
        return html.matches(of: pattern).compactMap { match in
            (match.output[1].substring).map { URL(fileURLWithPath: String($0), relativeTo: gallery.deletingLastPathComponent()) }
        }
    }

    func testASecondBatchWithFewerFormatsKeepsTheFirstOnesFiles() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        try fixture.sound("rattle.wav", clicks: stride(from: 0.05, to: 1.9, by: 0.09).map { $0 }, seconds: 2)
        try fixture.sound("ui/tick.wav", clicks: [0.1])
        let batch = ["batch", fixture.input.path, "-o", fixture.output.path, "--jobs", "1", "--preview"]

        let first = try CLIRunner.run(batch + ["--format", "ahap,haptic,android,rumble,pcm,dualsense"])
        XCTAssertEqual(first.status, 0, first.description)
        XCTAssertTrue(first.stdout.contains("\(fixture.output.path)/rattle.android.json: warning: envelope.controlPoints: "), first.stdout)
        XCTAssertTrue(first.stdout.contains("; 1 output with format warnings"), first.stdout)
        let written = Set(try fixture.outputFiles().keys.filter { !$0.hasPrefix(".") })

        let second = try CLIRunner.run(batch + ["--format", "haptic"])
        XCTAssertEqual(second.status, 0, second.description)
        XCTAssertEqual(Set(try fixture.outputFiles().keys.filter { !$0.hasPrefix(".") }), written, "every file of the first run stays")
        XCTAssertTrue(second.stdout.contains("rattle.android.json: warning:"), "kept files keep their warnings: \(second.stdout)")
        let gallery = fixture.output.appendingPathComponent(".tactus-preview/index.html")
        let linked = try links(in: gallery)
        XCTAssertFalse(linked.isEmpty)
        for url in linked { XCTAssertTrue(FileManager.default.fileExists(atPath: url.path), "the gallery links \(url.path)") }
        XCTAssertTrue(try String(contentsOf: gallery, encoding: .utf8).contains("rattle.android.json: warning: envelope.controlPoints"))

        let pruned = try CLIRunner.run(batch + ["--format", "haptic", "--prune"])
        XCTAssertEqual(pruned.status, 0, pruned.description)
        XCTAssertTrue(pruned.stdout.contains("\(fixture.input.path)/rattle.wav: pruned the outputs of formats not requested: "
                                             + "\(fixture.output.path)/rattle.ahap"), pruned.stdout)
        XCTAssertEqual(Set(try fixture.outputFiles().keys.filter { !$0.hasPrefix(".") }), ["rattle.haptic", "ui/tick.haptic"])
        for url in try links(in: gallery) { XCTAssertTrue(FileManager.default.fileExists(atPath: url.path), "the gallery links \(url.path)") }
    }
}
