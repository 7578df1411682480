import Foundation
import TactusTestSupport
import XCTest

/// `preview`, `compare` and `--preset-from` on `.haptic` files, read through the format
/// registry into the neutral model (no AHAP in between): one Tactus wrote and one Lofelt
/// Studio exported (the development set, `ExternalHaptics.folder`).
final class HapticFileCommandTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = AudioFixture.temporaryDirectory(name)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testATactusHapticFilePreviewsComparesWithItsAHAPAndGivesItsPreset() throws {
        let source = Corpus.root.appendingPathComponent("clean/body_hits.ogg")
        let out = folder.appendingPathComponent("out", isDirectory: true)
        let convert = try CLIRunner.run(["convert", source.path, "-o", out.path, "--format", "ahap,haptic",
                                         "--set", "peaks.delta=2", "--quiet"])
        XCTAssertEqual(convert.status, 0, "\(convert)")
        let haptic = out.appendingPathComponent("body_hits.haptic"), ahap = out.appendingPathComponent("body_hits.ahap")

        let preview = try CLIRunner.run(["preview", haptic.path, "-o", folder.appendingPathComponent("p").path])
        XCTAssertEqual(preview.status, 0, "\(preview)")
        let page = try String(contentsOf: folder.appendingPathComponent("p/body_hits.html"), encoding: .utf8)
        XCTAssertTrue(page.contains("default"), "the preset named in the .haptic's metadata")
        let transients = try XCTUnwrap(preview.stdout.split(separator: "(").last?.split(separator: " ").first.flatMap { Int($0) })
        XCTAssertGreaterThan(transients, 2, preview.stdout)

        // The same track in two formats plays the same transients (the AHAP lifts its body
        // around each transient for its ramps: masked).
        let compare = try CLIRunner.run(["compare", ahap.path, haptic.path, "--transient-mask-ms", "10"])
        XCTAssertEqual(compare.status, 0, "\(compare)")
        XCTAssertTrue(compare.stdout.contains("transients: \(transients) paired of \(transients)"), compare.stdout)

        // Its provenance gives the preset back, --set included.
        let again = folder.appendingPathComponent("again", isDirectory: true)
        let reuse = try CLIRunner.run(["convert", source.path, "-o", again.path, "--format", "ahap",
                                       "--preset-from", haptic.path, "--quiet"])
        XCTAssertEqual(reuse.status, 0, "\(reuse)")
        XCTAssertEqual(try Data(contentsOf: again.appendingPathComponent("body_hits.ahap")), try Data(contentsOf: ahap))

        // Its metadata names Tactus as Meta's `editor`, so a second run replaces it as Tactus's own.
        let metadata = try String(contentsOf: haptic, encoding: .utf8)
        XCTAssertTrue(metadata.contains("\"editor\": \"Tactus "), metadata)
        let rerun = try CLIRunner.run(["convert", source.path, "-o", out.path, "--format", "haptic", "--quiet"])
        XCTAssertEqual(rerun.status, 0, "\(rerun)")
    }

    func testAStudioExportPreviewsAndComparesWithItsTranslation() throws {
        let file = ExternalHaptics.folder.appendingPathComponent("haptic/nv_NVLaser.haptic")
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw XCTSkip(ExternalHaptics.absent(file.path))
        }
        let preview = try CLIRunner.run(["preview", file.path, "-o", folder.path])
        XCTAssertEqual(preview.status, 0, "\(preview)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("nv_NVLaser.html").path))
        let translate = try CLIRunner.run(["convert", file.path, "-o", folder.path, "--format", "android", "--quiet"])
        XCTAssertEqual(translate.status, 0, "\(translate)")
        let compare = try CLIRunner.run(["compare", file.path, folder.appendingPathComponent("nv_NVLaser.android.json").path,
                                         "--max-envelope-rms", "0.05", "--max-time-ms", "5", "--max-intensity", "0.05"])
        XCTAssertTrue(compare.stdout.contains("continuous intensity: RMS"), "\(compare)")
        let noPreset = try CLIRunner.run(["convert", file.path, "-o", folder.path, "--preset-from", file.path])
        XCTAssertEqual(noPreset.status, 64, "\(noPreset)")
        XCTAssertTrue(noPreset.stderr.contains("has no Tactus preset metadata"), noPreset.stderr)
    }
}
