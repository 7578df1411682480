import Foundation
import Tactus
import TactusAnalysis
import TactusCore
import TactusMapping
import TactusTestSupport
import XCTest

/// Transient sharpness measures how an attack feels, not only where its centroid lies: a
/// broadband burst with heavy lows (a boom) is round, a light bright tick crisp, even though
/// the burst's centroid alone is high.
final class TransientSharpnessTests: XCTestCase {
    private let rate = 44_100.0

    private func transientSharpness(_ samples: [Float], _ overrides: [String] = []) throws -> [Double] {
        let session = AnalysisSession(sampleRate: rate, configuration: try shippedPreset(overrides: overrides).analysisConfiguration())
        session.push(samples)
        return try shippedPreset(overrides: overrides).mapper().map(session.finish()).transients.map(\.sharpness)
    }

    /// A burst: a 55 Hz thump under broadband noise, decaying over 300 ms, at 0.2 s.
    private var boom: [Float] {
        var x = [Float](repeating: 0, count: Int(rate))
        var generator = SeededGenerator(seed: 17)
        for i in 0..<Int(0.3 * rate) {
            let t = Double(i) / rate, decay = exp(-t / 0.08)
            x[Int(0.2 * rate) + i] = Float(decay * (0.7 * sin(2 * .pi * 55 * t) + 0.25 * generator.nextSigned()))
        }
        return x
    }

    /// A tick: 3 kHz for 15 ms at 0.2 s.
    private var tick: [Float] {
        var x = [Float](repeating: 0, count: Int(rate))
        for i in 0..<Int(0.015 * rate) {
            let t = Double(i) / rate
            x[Int(0.2 * rate) + i] = Float(exp(-t / 0.004) * 0.8 * sin(2 * .pi * 3_000 * t))
        }
        return x
    }

    func testABoomFeelsRoundAndATickCrisp() throws {
        let boom = try transientSharpness(self.boom), tick = try transientSharpness(self.tick)
        XCTAssertEqual(boom.count, 1)
        XCTAssertEqual(tick.count, 1)
        XCTAssertLessThan(boom[0], 0.35, "the boom")
        XCTAssertGreaterThan(tick[0], 0.7, "the tick")
        XCTAssertGreaterThanOrEqual(tick[0] - boom[0], 0.4)
    }

    /// The centroid alone (the earlier measure, still selectable for transients and the body)
    /// rates the boom's noise bright.
    func testTheCentroidAloneCannotTellThemApartAsWell() throws {
        let centroid = ["mapping.transients.sharpnessFrom=centroid", "mapping.sharpness.from=centroid"]
        let boom = try transientSharpness(self.boom, centroid)[0], tick = try transientSharpness(self.tick, centroid)[0]
        let weighted = try transientSharpness(self.tick)[0] - transientSharpness(self.boom)[0]
        XCTAssertGreaterThan(weighted, tick - boom, "the weighted measure separates them further")
    }
}

/// The converter keeps only `HapticMapper.inputs` through mapping (to lower the peak memory),
/// so they must be all the mapper reads: with the other features dropped the track is the same.
final class MapperInputsTests: XCTestCase {
    func testTheMapperReadsOnlyItsDeclaredInputs() throws {
        let rate = 44_100.0
        var generator = SeededGenerator(seed: 5)
        var samples = [Float](repeating: 0, count: Int(2 * rate))
        for start in [0.3, 1.1] {
            for i in 0..<Int(0.2 * rate) {
                samples[Int(start * rate) + i] = Float(exp(-Double(i) / (0.05 * rate)) * 0.6 * generator.nextSigned())
            }
        }
        for name in ["default", "impacts", "ui", "explosions", "textures", "dialogue"] {
            let preset = try shippedPreset(name)
            let session = AnalysisSession(sampleRate: rate, configuration: preset.analysisConfiguration())
            session.push(samples)
            var analysis = session.finish()
            let whole = try preset.mapper().map(analysis)
            analysis.features = analysis.features.filter { HapticMapper.inputs.contains($0.key) }
            XCTAssertEqual(try preset.mapper().map(analysis), whole, name)
            XCTAssertFalse(whole.transients.isEmpty, name)
        }
    }
}
