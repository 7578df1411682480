import Foundation
import Tactus
import TactusAHAP
import TactusAnalysis
import TactusCore
import TactusFiles
import TactusMapping
import TactusPresets
import TactusTestSupport
import XCTest

// The DocC articles' code samples, compiled here and run by the tests below. The last test
// checks that every ```swift block of every article stands verbatim in the tests or in the
// example package (which CI builds and runs), so a sample cannot drift from code that compiles.

/// Novelty as the rise of the frame's level in dB over the previous frame's.
struct LevelRise: OnsetMethod {
    static let id = "levelRise"
    static let summary = "Rise of the frame level in dB (a minimal example)."
    static let floorDb = ParameterDescriptor.number("floorDb", -120 ... 0, default: -80, unit: "dB",
                                                    help: "Levels below this count as silence.")
    static let parameters = [floorDb]
    static let peakPickingDefaults = [PeakPicker.delta.setting(.number(6))]

    private let floor: Float
    private var previous: Float

    init(parameters: ParameterSet, geometry: FrameGeometry) {
        floor = Float(parameters.number(Self.floorDb))
        previous = floor
    }

    mutating func novelty(of frame: SpectralFrame) -> Float {
        let level = max(frame.levelDb, floor)
        defer { previous = level }
        return max(0, level - previous)
    }
}

func checkPattern(at url: URL) throws -> (valid: Bool, transientIntensities: [Double]) {
    let report = AHAPValidator(baseDirectory: url.deletingLastPathComponent()).validate(contentsOf: url)
    for finding in report.diagnostics {
        print(finding)  // "warning: Pattern[3].Event.Time: …", one line each
    }
    let document = try AHAPDecoder().decode(Data(contentsOf: url))
    let player = PatternEvaluator(document)
    let felt = player.transients.map(\.effectiveIntensity)  // what each transient plays at
    print("continuous intensity at 0.5 s:", player.continuousIntensity(at: 0.5))
    return (report.isValid, felt)
}

final class DocumentationSampleTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func testConvertingInCode() throws {
        let folder = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try AudioFixture.write(Signals.clicks(at: [0.1, 0.4], seconds: 0.6, sampleRate: 16_000, seed: 1),
                                   to: folder.appendingPathComponent("boom.wav"), sampleRate: 16_000)
        let previous = FileManager.default.currentDirectoryPath
        FileManager.default.changeCurrentDirectoryPath(folder.path)
        defer { FileManager.default.changeCurrentDirectoryPath(previous) }

        let preset = try PresetLibrary.standard().resolve("impacts")
        do {
            let preset = try PresetLibrary.standard().resolve("impacts", overrides: ["mapping.intensity.gamma=0.7"])
            XCTAssertEqual(preset.overrides, ["mapping.intensity.gamma=0.7"])
        }
        let log = CommittedFiles()
        let converter = Converter(preset: preset, formats: try HapticFormats.select(["ahap"]), log: log)
        let result = try converter.convert(URL(fileURLWithPath: "boom.wav"), to: URL(fileURLWithPath: "out"))
        print(result.track.transients.count, result.outputs.map(\.url.lastPathComponent))
        _ = log.flush()  // sync what was written to disk

        XCTAssertEqual(result.track.transients.count, 2)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/boom.ahap").path))
    }

    func testCheckingAPatternInAnApp() throws {
        let folder = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try AudioFixture.write(Signals.clicks(at: [0.1, 0.4], seconds: 0.6, sampleRate: 16_000, seed: 4),
                                            to: folder.appendingPathComponent("tap.wav"), sampleRate: 16_000)
        let result = try Converter(preset: try shippedPreset(), log: CommittedFiles()).convert(source, to: folder)
        let (valid, felt) = try checkPattern(at: result.outputs[0].url)
        XCTAssertTrue(valid)
        // Each plays its designed intensity (written as intensity ÷ the body's control, to 4 decimals).
        XCTAssertEqual(felt.count, result.track.transients.count)
        for (played, designed) in zip(felt, result.track.transients.map(\.intensity)) {
            XCTAssertEqual(played, designed, accuracy: 0.001)
        }
    }

    func testTheOnsetMethodSampleDetectsClicks() throws {
        OnsetMethods.register(LevelRise.self)
        defer { OnsetMethods.unregister(LevelRise.id) }
        let preset = try shippedPreset(overrides: ["onset.method=levelRise"])
        let samples = Signals.clicks(at: [0.2, 0.5], seconds: 0.8, sampleRate: 16_000, seed: 2)
        let session = AnalysisSession(sampleRate: 16_000, configuration: preset.analysisConfiguration())
        session.push(samples)
        XCTAssertEqual(session.finish().onsets.map { ($0.time * 100).rounded() / 100 }, [0.2, 0.5])
    }

    func testEveryArticleSampleIsCompiledHere() throws {
        let catalogue = Self.repository.appendingPathComponent("Sources/Tactus/Tactus.docc")
        // Samples live in the tests, or in the example package that CI builds and runs.
        let tests = try ["Tests", "Examples"].flatMap { folder in
            try FileManager.default.subpathsOfDirectory(atPath: Self.repository.appendingPathComponent(folder).path)
                .filter { $0.hasSuffix(".swift") && !$0.contains(".build/") }
                .map { try String(contentsOf: Self.repository.appendingPathComponent(folder).appendingPathComponent($0), encoding: .utf8) }
        }.joined(separator: "\n")
        let articles = try FileManager.default.contentsOfDirectory(atPath: catalogue.path).filter { $0.hasSuffix(".md") }
        XCTAssertGreaterThanOrEqual(articles.count, 4)
        var samples = 0
        for article in articles {
            let text = try String(contentsOf: catalogue.appendingPathComponent(article), encoding: .utf8)
            for block in text.components(separatedBy: "```swift\n").dropFirst() {
                let code = block.components(separatedBy: "```")[0]
                let lines = code.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { !$0.isEmpty && !$0.hasPrefix("import ") }
                for line in lines {
                    XCTAssertTrue(tests.contains(line), "\(article): sample line not in any test: \(line)")
                }
                samples += 1
            }
        }
        XCTAssertGreaterThanOrEqual(samples, 5)
    }

    /// Samples that call Apple's frameworks cannot be compiled on Linux: they are fenced as
    /// `swift-apple-sdk` (so the test above passes them over), and their article says so.
    func testSamplesOfApplesFrameworksAreMarkedAsNotCompiledHere() throws {
        let catalogue = Self.repository.appendingPathComponent("Sources/Tactus/Tactus.docc")
        let appleOnly = ["import CoreHaptics", "import GameController", "import UIKit", "import AVFoundation", "CHHaptic"]
        var marked = 0
        for article in try FileManager.default.contentsOfDirectory(atPath: catalogue.path) where article.hasSuffix(".md") {
            let text = try String(contentsOf: catalogue.appendingPathComponent(article), encoding: .utf8)
            for block in text.components(separatedBy: "```swift\n").dropFirst() {
                let code = block.components(separatedBy: "```")[0]
                for name in appleOnly {
                    XCTAssertFalse(code.contains(name), "\(article): a sample compiled here names \(name); fence it as swift-apple-sdk")
                }
            }
            let notCompiled = text.components(separatedBy: "```swift-apple-sdk\n").count - 1
            if notCompiled > 0 {
                XCTAssertTrue(text.contains("not compiled here"), "\(article): says its samples are not compiled here")
            }
            marked += notCompiled
        }
        XCTAssertGreaterThanOrEqual(marked, 3, "the Core Haptics article's samples")
    }
}
