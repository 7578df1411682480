import Foundation
import Tactus
import TactusAnalysis
import TactusCore
import TactusFiles
import TactusTestSupport
import XCTest

/// `tactus analyze` lists exactly the outputs the analyzers declare, with their units, and
/// every frame column has one value per frame.
final class AnalysisReportTests: XCTestCase {
    func testReportsEveryDeclaredOutput() throws {
        let folder = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try AudioFixture.write(Signals.clicks(at: [0.1, 0.3], seconds: 0.5, sampleRate: 16_000, seed: 2),
                                            to: folder.appendingPathComponent("clicks.wav"), sampleRate: 16_000)
        let preset = try shippedPreset()
        let (format, analysis, track) = try Converter(preset: preset, log: CommittedFiles()).analyze(source)
        let report = AnalysisReport(file: "clicks.wav", format: format, analysis: analysis, track: track, preset: preset)
        let declared = AnalysisSession.outputDescriptors.map(\.id)
        XCTAssertEqual(Set(declared), Set(analysis.features.keys), "the session declares what it produces")

        let json = try JSONReader.parse(Data(report.json().utf8))
        guard case .array(let outputs)? = json["outputs"], case .object(let frames)? = json["frames"] else {
            return XCTFail("no outputs or frames")
        }
        XCTAssertEqual(outputs.compactMap { $0["id"]?.string }, declared)
        XCTAssertEqual(outputs.compactMap { $0["unit"]?.string }, AnalysisSession.outputDescriptors.map(\.unit))
        XCTAssertEqual(frames.map(\.key), ["time"] + declared)
        let frameCount = try analysis.feature(LevelAnalyzer.output).count
        for (key, value) in frames {
            guard case .array(let values) = value else { return XCTFail(key) }
            XCTAssertEqual(values.count, frameCount, key)
        }
        guard case .array(let onsets)? = json["onsets"] else { return XCTFail("no onsets") }
        XCTAssertEqual(onsets.count, 2)

        let csv = report.csv().split(separator: "\n", omittingEmptySubsequences: false)
        let header = csv.firstIndex { $0.hasPrefix("time,") }!
        XCTAssertEqual(String(csv[header]), (["time"] + declared).joined(separator: ","))
        XCTAssertEqual(csv.count - header - 2, frameCount, "one row per frame, then the final newline")
    }

    /// The JSON's layout: members one per line, each onset on one line, each frame series on
    /// one line without spaces; no onsets is `[]`; a frame value that is not finite is `null`.
    func testJSONLayoutEmptyOnsetsAndNonFiniteValues() throws {
        let folder = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try AudioFixture.write(Signals.clicks(at: [0.1], seconds: 0.3, sampleRate: 16_000, seed: 3),
                                            to: folder.appendingPathComponent("click.wav"), sampleRate: 16_000)
        let preset = try shippedPreset()
        let (format, analysis, track) = try Converter(preset: preset, log: CommittedFiles()).analyze(source)
        let one = AnalysisReport(file: "click.wav", format: format, analysis: analysis, track: track, preset: preset).json()
        let onsetLines = one.split(separator: "\n").filter { $0.hasPrefix("    {\"time\": ") }
        XCTAssertEqual(onsetLines.count, 1, one)
        XCTAssertTrue(onsetLines[0].hasSuffix("}"), "an onset closes on its own line")

        var empty = analysis
        empty.onsets = []
        empty.features[LevelAnalyzer.output]![0] = -.infinity
        let text = AnalysisReport(file: "click.wav", format: format, analysis: empty, track: track, preset: preset).json()
        XCTAssertTrue(text.contains("\n  \"onsets\": [],\n"), text)
        XCTAssertTrue(text.contains("\n    \"\(LevelAnalyzer.output)\": [null,"), text)
        XCTAssertTrue(text.contains("\n    \"time\": [0,"), text)
        let json = try JSONReader.parse(Data(text.utf8))
        guard case .object(let frames)? = json["frames"], case .array(let level)? = frames.first(where: { $0.key == LevelAnalyzer.output })?.value else {
            return XCTFail("no level column")
        }
        guard case .null? = level.first else { return XCTFail("\(String(describing: level.first)) for -inf") }
        XCTAssertEqual(level.count, analysis.features[LevelAnalyzer.output]!.count)
    }
}
