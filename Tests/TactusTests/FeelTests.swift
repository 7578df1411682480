import Foundation
import XCTest
import Tactus
import TactusAnalysis
import TactusCore
import TactusFiles
import TactusMapping
import TactusPresets
import TactusTestSupport

/// The `feel` controls on Corpus sounds: each moves what is played the way its name says, by
/// the formula `FeelSettings` states, and at 0 changes nothing at all.
final class FeelTests: XCTestCase {
    func track(_ path: String, _ overrides: [String], preset: String = "default") throws -> HapticTrack {
        try Converter(preset: try shippedPreset(preset, overrides: overrides), log: CommittedFiles())
            .analyze(Corpus.root.appendingPathComponent(path)).2
    }

    func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(max(1, values.count)) }

    func testFeelAtZeroChangesNoValueAndNoHash() throws {
        let zeros = FeelSettings.parameters.map { "feel.\($0.name)=0" }
        for name in ["default", "impacts", "textures"] {
            let plain = try shippedPreset(name), zeroed = try shippedPreset(name, overrides: zeros)
            XCTAssertEqual(zeroed.hash, plain.hash, name)
            XCTAssertEqual(zeroed.sections, zeroed.declaredSections, name)
        }
        // A control away from 0 changes what plays, so the hash.
        XCTAssertNotEqual(try shippedPreset(overrides: ["feel.crispness=0.1"]).hash, try shippedPreset().hash)
    }

    /// −12 dB: every transient and the body play at 10^(−12/20) = 0.251 of their intensity,
    /// at the same times and over the same regions.
    func testStrengthScalesTransientsAndBody() throws {
        let file = "clean/explosion.wav"
        let full = try track(file, []), weak = try track(file, ["feel.strengthDb=-12"])
        let gain = pow(10, -12.0 / 20)
        XCTAssertFalse(full.transients.isEmpty)
        XCTAssertEqual(weak.transients.map(\.time), full.transients.map(\.time))
        for (w, f) in zip(weak.transients, full.transients) {
            XCTAssertEqual(w.intensity, gain * f.intensity, accuracy: 1e-9)
            XCTAssertEqual(w.sharpness, f.sharpness)
        }
        XCTAssertFalse(full.regions.isEmpty)
        XCTAssertEqual(weak.regions.map(\.start), full.regions.map(\.start))
        XCTAssertEqual(weak.regions.map(\.end), full.regions.map(\.end))
        let fullPeak = full.regions.flatMap(\.intensity).map(\.value).max()!
        let weakPeak = weak.regions.flatMap(\.intensity).map(\.value).max()!
        XCTAssertGreaterThan(fullPeak, 0.5)
        XCTAssertEqual(weakPeak / fullPeak, gain, accuracy: 1e-3)
    }

    /// transientsDb moves only the transients, bodyDb only the body.
    func testTransientAndBodyStrengthAreSeparate() throws {
        let file = "clean/anvil_hits.aiff"
        let base = try track(file, [])
        let lighterHits = try track(file, ["feel.transientsDb=-6"]), lighterBody = try track(file, ["feel.bodyDb=-6"])
        XCTAssertFalse(base.regions.isEmpty)
        XCTAssertEqual(lighterHits.regions, base.regions)
        XCTAssertLessThan(mean(lighterHits.transients.map(\.intensity)), 0.6 * mean(base.transients.map(\.intensity)))
        XCTAssertEqual(lighterBody.transients, base.transients)
        XCTAssertEqual(lighterBody.regions.map(\.start), base.regions.map(\.start))
        let bodyPeak = { (t: HapticTrack) in t.regions.flatMap(\.intensity).map(\.value).max()! }
        XCTAssertEqual(bodyPeak(lighterBody) / bodyPeak(base), pow(10, -6.0 / 20), accuracy: 1e-3)
    }

    /// Rounder to crisper: the transients' and the body's sharpness rise together, by about
    /// what the shift predicts on the default scales (one octave per 0.5 over 5.5 and 4
    /// octaves, less where a value nears 0 or 1).
    func testCrispnessMovesTransientAndBodySharpnessTogether() throws {
        // A bell: its body sits mid-scale (an explosion's is round enough to clip at 0).
        let file = "clean/bell.wav"
        let levels = [-0.5, 0, 0.5].map { try! track(file, ["feel.crispness=\($0)"]) }
        let transient = levels.map { mean($0.transients.map(\.sharpness)) }
        let body = levels.map { mean($0.regions.flatMap(\.sharpness).map(\.value)) }
        XCTAssertLessThan(transient[0], transient[1])
        XCTAssertLessThan(transient[1], transient[2])
        XCTAssertLessThan(body[0], body[1])
        XCTAssertLessThan(body[1], body[2])
        XCTAssertGreaterThan(body[2] - body[0], 0.15, "\(body)")
        XCTAssertGreaterThan(transient[2] - transient[0], 0.15, "\(transient)")
        XCTAssertEqual(levels[1].transients.map(\.intensity), levels[2].transients.map(\.intensity), "crispness leaves strength alone")
        // The body's octaves: crispness above 0, twice crispness below.
        for (crispness, octaves) in [(0.5, 0.5), (-0.5, -1.0), (-1, -2)] {
            let sharpness = try shippedPreset(overrides: ["feel.crispness=\(crispness)"]).parameters(SharpnessSettings.id)
            XCTAssertEqual(sharpness.number(SharpnessSettings.brightenOctaves), octaves, "\(crispness)")
        }
    }

    /// Hits in rain at 10 dB SNR: each step of density finds more onsets (the peak picker's
    /// thresholds fall), fewest at −1, most at +1.
    func testDensityChangesTheOnsetCountMonotonically() throws {
        let counts = try [-1, -0.5, 0, 0.5, 1].map { try track("ambience/hits_rain_snr10.wav", ["feel.density=\($0)"]).transients.count }
        for (a, b) in zip(counts, counts.dropFirst()) { XCTAssertLessThan(a, b, "\(counts)") }
        let denser = try shippedPreset(overrides: ["feel.density=1"]).parameters(PeakPicker.id)
        XCTAssertEqual(denser.number(PeakPicker.delta), 1, "the superflux delta 4, quartered")
        XCTAssertEqual(denser.number(PeakPicker.jumpDb), 9.0 / 4)
    }

    /// What `presets init` writes keeps the controls and the values they move, not the
    /// values they make: the written preset resolves to the same hash as the one it came from.
    func testAPrintedPresetKeepsDeclaredValues() throws {
        let dir = AudioFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let preset = try shippedPreset("explosions", overrides: ["feel.strengthDb=-6", "feel.density=0.5"])
        let url = dir.appendingPathComponent("mine.json")
        try Data(PresetPrinter.json(preset, name: "mine", description: "").utf8).write(to: url)
        let again = try PresetLibrary(directories: []).resolve(url.path)
        XCTAssertEqual(again.hash, preset.hash)
        XCTAssertEqual(again.declaredSections, preset.declaredSections)
    }

    /// A folder's `tactus.json` sets a control like any parameter: its files convert with it.
    func testAFolderSettingSetsAControl() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        try fixture.sound("loud.wav")
        try fixture.sound("soft/quiet.wav")
        try fixture.text("soft/tactus.json", #"{"set": {"feel.strengthDb": -12}}"#)
        let result = try fixture.run()
        XCTAssertTrue(result.succeeded, "\(result.problems)")
        XCTAssertEqual(try fixture.metadata("soft/quiet.ahap")["PresetHash"],
                       try BatchFixture.library.resolve("default", overrides: ["feel.strengthDb=-12"]).hash)
        XCTAssertNotEqual(try fixture.metadata("soft/quiet.ahap")["PresetHash"], try fixture.metadata("loud.ahap")["PresetHash"])
    }
}
