import Foundation
import XCTest
import Tactus
import TactusAHAP
import TactusMapping
import TactusPresets
import TactusTestSupport
import TactusCore
import TactusFiles

/// The default preset as shipped in Presets/.
func shippedPreset(_ name: String = "default", overrides: [String] = []) throws -> ResolvedPreset {
    let presets = Corpus.presetsFolder
    return try PresetLibrary(directories: [presets]).resolve(name, overrides: overrides)
}

final class CorpusTests: XCTestCase {
    /// Every Corpus file converts to an AHAP that validates with zero errors, and its
    /// transients hit the ground truth.
    func testCorpusConvertsToValidAHAPsOnTheAttacks() throws {
        let (entries, refused) = try GroundTruth.find(in: Corpus.root)
        XCTAssertEqual(refused, [])
        XCTAssertGreaterThanOrEqual(entries.count, 20)
        let converter = Converter(preset: try shippedPreset(), log: CommittedFiles())
        let out = AudioFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        var at50 = OnsetScore(), at25 = OnsetScore()
        for entry in entries {
            let dir = out.appendingPathComponent(entry.condition, isDirectory: true)
            let result = try converter.convert(entry.audio, to: dir)
            let report = AHAPValidator(baseDirectory: dir).validate(contentsOf: result.output(AHAPFormat.id)!)
            XCTAssertTrue(report.isValid, "\(entry.audio.lastPathComponent): \(report)")
            let times = result.track.transients.map(\.time)
            at50 = at50 + OnsetScore(detected: times, truth: entry.onsets, tolerance: 0.05)
            at25 = at25 + OnsetScore(detected: times, truth: entry.onsets, tolerance: 0.025)
        }
        print("Corpus transients ±50 ms: \(at50)")
        print("Corpus transients ±25 ms: \(at25)")
        XCTAssertGreaterThanOrEqual(at50.fMeasure, 0.9)
    }
}
