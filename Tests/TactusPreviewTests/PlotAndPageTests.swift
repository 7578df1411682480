import Foundation
import Tactus
import TactusAHAP
import TactusMapping
import TactusPresets
import TactusTestSupport
@testable import TactusPreview
import XCTest
import TactusCore
import TactusFiles

/// The plot and page of a real conversion: a Corpus sound through the default preset.
final class PlotAndPageTests: XCTestCase {
    private var folder: URL!
    private var summary: PreviewSummary!
    private var evaluator: HapticPlayback!

    override func setUpWithError() throws {
        folder = AudioFixture.temporaryDirectory(name)
        let source = Corpus.root.appendingPathComponent("multi/door_open_close.wav")
        let preset = try PresetLibrary.standard().resolve("default")
        let result = try Converter(preset: preset, log: CommittedFiles()).convert(source, to: folder)
        summary = try PreviewRenderer.render(file: result.output(AHAPFormat.id)!, format: AHAPFormat(), into: folder, log: CommittedFiles())
        evaluator = playbackOf(try AHAPDecoder().decode(Data(contentsOf: result.output(AHAPFormat.id)!)))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testPlotIsWellFormedWithOneMarkerPerTransientAndTheCurves() throws {
        let text = try String(contentsOf: summary.plot, encoding: .utf8)
        let svg = try ParsedMarkup(text)
        XCTAssertGreaterThan(evaluator.transients.count, 0, "the fixture must have transients to test markers")
        // Transient markers carry their time; the legend's sample dots do not.
        let markers = svg.all("circle", class: "tp-transient").filter { $0.attributes["data-time"] != nil }
        XCTAssertEqual(markers.count, evaluator.transients.count)
        let layout = PreviewPlot.Layout.self
        for (marker, transient) in zip(markers, evaluator.transients) {
            XCTAssertEqual(Double(marker.attributes["data-time"] ?? "") ?? -1, transient.time, accuracy: 1e-6)
            let x = try XCTUnwrap(Double(marker.attributes["cx"] ?? ""))
            XCTAssertEqual(x, layout.left + transient.time / summary.duration * layout.plotWidth, accuracy: 0.06)
            let radius = try XCTUnwrap(Double(marker.attributes["r"] ?? ""))
            XCTAssertEqual(radius, 3 + 6 * transient.intensity, accuracy: 0.06, "sized by intensity")
            XCTAssertEqual(marker.attributes["fill"],
                           PlotStyle.sharpnessColour(transient.sharpness), "coloured by sharpness")
        }
        XCTAssertEqual(svg.all("path", class: "tp-intensity").count, 1)
        XCTAssertEqual(svg.all("path", class: "tp-sharpness").count, 1)
        XCTAssertEqual(svg.all("path", class: "tp-wave").count, 1)
        XCTAssertGreaterThan(svg.all("rect", class: "tp-span").count, 1, "the legend swatch plus the continuous spans")
        XCTAssertEqual(svg.all("line", class: "tp-playhead").count, 1)
        XCTAssertTrue(svg.all("text").contains { $0.text == "preset: default" })
        XCTAssertTrue(svg.all("text").contains { $0.text == "time (s)" })
        XCTAssertTrue(svg.references(in: text).allSatisfy(isLocalRelative), "\(svg.references(in: text))")
    }

    func testPageIsWellFormedSelfContainedAndPlaysItsThreeSoundsByRelativePath() throws {
        let text = try String(contentsOf: summary.page, encoding: .utf8)
        let page = try ParsedMarkup(text)
        XCTAssertEqual(page.all("svg", class: "tp-plot").count, 1, "the plot is inline")
        XCTAssertEqual(page.all("script").count, 1)
        XCTAssertTrue(page.all("script").allSatisfy { $0.attributes["src"] == nil }, "no external script")
        XCTAssertTrue(page.all("link").isEmpty, "no external style sheet")

        let sources = page.all("audio").compactMap { $0.attributes["src"] }
        XCTAssertEqual(sources, ["door_open_close.wav", "door_open_close.haptics.wav", "door_open_close.side-by-side.wav"])
        for source in sources {
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent(source).path), source)
        }
        XCTAssertTrue(page.references(in: text).allSatisfy(isLocalRelative), "\(page.references(in: text))")
        let withoutNamespaces = ["http://www.w3.org/2000/svg", "http://www.w3.org/1999/xhtml"]
            .reduce(text) { $0.replacingOccurrences(of: $1, with: "") }
        XCTAssertFalse(withoutNamespaces.contains("http:") || withoutNamespaces.contains("https:"), "no network address")

        let numbers = page.all("li").map(\.text)
        XCTAssertTrue(numbers.contains("\(evaluator.transients.count)transients"), "\(numbers)")
        XCTAssertTrue(numbers.contains("defaultpreset"), "\(numbers)")
        XCTAssertTrue(numbers.contains("\(summary.curvePointCount)curve points"), "\(numbers)")
    }

    /// Same input, same bytes: every output of a second run into another folder is identical.
    func testOutputsAreByteIdenticalAcrossRuns() throws {
        let again = folder.appendingPathComponent("again", isDirectory: true)
        let second = try PreviewRenderer.render(file: summary.file, format: AHAPFormat(), into: again, log: CommittedFiles())
        let pairs = [(summary.hapticsAudio, second.hapticsAudio), (summary.plot, second.plot),
                     (summary.sideBySideAudio!, second.sideBySideAudio!)]
        for (first, repeated) in pairs {
            XCTAssertEqual(try Data(contentsOf: first), try Data(contentsOf: repeated), first.lastPathComponent)
        }
        // The page differs only in where it finds the original sound (one folder up).
        let page = try String(contentsOf: second.page, encoding: .utf8)
            .replacingOccurrences(of: "src=\"../door_open_close.wav\"", with: "src=\"door_open_close.wav\"")
        XCTAssertEqual(page, try String(contentsOf: summary.page, encoding: .utf8))
    }
}
