import Foundation
import TactusTestSupport
import XCTest

/// `tactus batch --preview` as a user runs it: previews and a gallery of them all in a folder of
/// their own inside the output folder, apart from the files an app bundles.
final class BatchPreviewCommandTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = AudioFixture.temporaryDirectory(name)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testGalleryListsEveryFileAndRerunsRenderNothing() throws {
        let input = folder.appendingPathComponent("in", isDirectory: true)
        let output = folder.appendingPathComponent("out", isDirectory: true)
        try FileManager.default.createDirectory(at: input.appendingPathComponent("ui"), withIntermediateDirectories: true)
        try AudioFixture.write(Signals.clicks(at: [0.1, 0.4], seconds: 0.6, sampleRate: 44100),
                               to: input.appendingPathComponent("ui/tap.wav"), sampleRate: 44100)
        try AudioFixture.write(Signals.clicks(at: [0.2], seconds: 0.5, sampleRate: 48000, decayMs: 60),
                               to: input.appendingPathComponent("hit.flac"), sampleRate: 48000, format: .flac16)
        try Data("not audio".utf8).write(to: input.appendingPathComponent("broken.wav"))

        let first = try CLIRunner.run(["batch", input.path, "-o", output.path, "--preview", "--jobs", "2"])
        XCTAssertEqual(first.status, 1, "the broken file fails the run: \(first)")
        let previews = output.appendingPathComponent(".tactus-preview", isDirectory: true)
        for name in ["hit.html", "hit.svg", "hit.haptics.wav", "hit.side-by-side.wav", "ui/tap.html", "ui/tap.svg"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: previews.appendingPathComponent(name).path), name)
            XCTAssertFalse(FileManager.default.fileExists(atPath: output.appendingPathComponent(name).path), "not beside the AHAPs: \(name)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.appendingPathComponent("index.html").path))
        let galleryURL = previews.appendingPathComponent("index.html")
        let gallery = try String(contentsOf: galleryURL, encoding: .utf8)
        XCTAssertEqual(gallery.components(separatedBy: "<tr data-name=").count - 1, 3, "one row per source")
        XCTAssertTrue(gallery.contains("href=\"ui/tap.html\""), "relative links into the tree")
        XCTAssertTrue(gallery.contains("broken.wav") && gallery.contains("failed"))
        for attribute in ["src=\"http", "href=\"http", "url(http", "src=\"//", "href=\"//"] {
            XCTAssertFalse(gallery.contains(attribute), "self-contained: \(attribute)")
        }

        XCTAssertTrue(try String(contentsOf: previews.appendingPathComponent("ui/tap.html"), encoding: .utf8)
                        .contains("src=\"../../ui/tap.wav\""), "the page plays the sound beside the AHAP")

        let page = previews.appendingPathComponent("ui/tap.html")
        let before = try FileManager.default.attributesOfItem(atPath: page.path)[.modificationDate] as? Date
        Thread.sleep(forTimeInterval: 1.1)
        let second = try CLIRunner.run(["batch", input.path, "-o", output.path, "--preview"])
        XCTAssertEqual(second.status, 1, "\(second)")
        XCTAssertTrue(second.stdout.contains("0 converted"), second.stdout)
        let after = try FileManager.default.attributesOfItem(atPath: page.path)[.modificationDate] as? Date
        XCTAssertEqual(before, after, "an up-to-date preview is not rendered again")
        XCTAssertEqual(try String(contentsOf: galleryURL, encoding: .utf8), gallery, "the gallery is the same")

        let moved = try CLIRunner.run(["batch", input.path, "-o", output.path, "--preview", "--preview-dir", "previews/all"])
        XCTAssertTrue(moved.stdout.contains("2 converted"), "another folder rebuilds the previews: \(moved.stdout)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: output.appendingPathComponent("previews/all/ui/tap.html").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: output.appendingPathComponent("previews/all/index.html").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: page.path), "the previews in the old folder are removed")
        for bad in [["--preview-dir", "../elsewhere"], ["--preview-dir", "/tmp/x"], ["--preview-dir", "p"]] {
            let outcome = try CLIRunner.run(["batch", input.path, "-o", output.path] + (bad[1] == "p" ? bad : ["--preview"] + bad))
            XCTAssertEqual(outcome.status, 64, "\(bad): \(outcome)")
        }
    }
}
