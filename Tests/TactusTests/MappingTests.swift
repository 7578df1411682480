import Foundation
import XCTest
import Tactus
import TactusAHAP
import TactusMapping
import TactusTestSupport
import TactusCore
import TactusFiles

/// The continuous part of the mapping, judged the way Core Haptics would play it.
final class MappingTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = AudioFixture.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    func convert(_ signal: [Float], _ name: String, sampleRate: Int = 44100,
                 overrides: [String] = []) throws -> (ConversionResult, PatternEvaluator, ReferenceEnvelope) {
        let audio = try AudioFixture.write(signal, to: dir.appendingPathComponent(name), sampleRate: sampleRate)
        let result = try Converter(preset: try shippedPreset(overrides: overrides), log: CommittedFiles()).convert(audio, to: dir.appendingPathComponent("out"))
        let document = try AHAPDecoder().decode(Data(contentsOf: result.output(AHAPFormat.id)!))
        return (result, PatternEvaluator(document), try ReferenceEnvelope.measure(audio, sound: SoundActivity.measure(audio)))
    }

    /// A noise swell rising over 1 s and falling over 1 s: the felt intensity must follow its
    /// loudness closely, with few control points.
    func testIntensityFollowsASwell() throws {
        let sr = 44100.0
        let noise = Signals.noise(seconds: 2, sampleRate: sr, amplitude: 1)
        let swell = noise.enumerated().map { i, x in x * Float(0.8 * sin(Double.pi * Double(i) / (2 * sr))) }
        let (result, evaluator, reference) = try convert(swell, "swell.wav")
        let played = reference.loudness.indices.map { evaluator.continuousIntensity(at: (Double($0) + 0.5) * 0.01) }
        let r = try XCTUnwrap(Statistics.pearson(played, reference.loudness))
        XCTAssertGreaterThan(r, 0.95)
        let fidelity = try Fidelity.measure(file: result.output(AHAPFormat.id)!, format: AHAPFormat(),
                                            reference: reference, sound: SoundActivity.measure(dir.appendingPathComponent("swell.wav")))
        XCTAssertGreaterThan(try XCTUnwrap(fidelity.intensityCorrelation), 0.95)
        XCTAssertLessThan(Double(try Self.controlPoints(result.output(AHAPFormat.id)!)) / reference.duration, 40)
        XCTAssertEqual(fidelity.validatorErrors, 0)
    }

    /// Two bursts separated by a second of silence: two continuous regions, nothing felt in
    /// between, nothing after the sound ends.
    func testSilenceSeparatesRegionsAndNeverBuzzes() throws {
        let sr = 44100.0
        let burst = Signals.noise(seconds: 0.5, sampleRate: sr, amplitude: 0.5)
        let signal = burst + [Float](repeating: 0, count: Int(sr)) + burst + [Float](repeating: 0, count: Int(sr / 2))
        let (result, evaluator, _) = try convert(signal, "bursts.wav")
        XCTAssertEqual(result.track.regions.count, 2)
        for t in stride(from: 0.56, to: 1.45, by: 0.01) { XCTAssertEqual(evaluator.continuousIntensity(at: t), 0, "at \(t)") }
        for t in stride(from: 2.06, to: 2.5, by: 0.01) { XCTAssertEqual(evaluator.continuousIntensity(at: t), 0, "at \(t)") }
        XCTAssertGreaterThan(evaluator.continuousIntensity(at: 0.25), 0.5)
    }

    /// A long steady bed (70 s) becomes three continuous events of ≤ 30 s, with only a few
    /// control points: the simplification keeps points where the sound moves, not where it
    /// is steady.
    func testALongSteadyBedIsSplitAndCompact() throws {
        let sr = 8000.0
        let bed = Signals.noise(seconds: 70, sampleRate: sr, amplitude: 0.3)
        let (result, evaluator, _) = try convert(bed, "bed.wav", sampleRate: Int(sr))
        let document = try AHAPDecoder().decode(Data(contentsOf: result.output(AHAPFormat.id)!))
        let continuous = document.pattern.compactMap { element -> AHAPEvent? in
            if case .event(let e) = element, e.type == .hapticContinuous { return e }
            return nil
        }
        XCTAssertEqual(continuous.count, 3)
        XCTAssertTrue(continuous.allSatisfy { ($0.duration ?? 99) <= 30 })
        XCTAssertGreaterThan(evaluator.continuousIntensity(at: 35), 0.3)

        // The same bed with a 3 Hz tremolo moves, and must get several times more points.
        let tremolo = Signals.noise(seconds: 10, sampleRate: sr, amplitude: 0.3).enumerated().map { i, x in
            x * Float(0.55 + 0.45 * sin(2 * Double.pi * 3 * Double(i) / sr))
        }
        let (moving, _, _) = try convert(tremolo, "tremolo.wav", sampleRate: Int(sr))
        let steadyRate = Double(try Self.controlPoints(result.output(AHAPFormat.id)!)) / 70
        let movingRate = Double(try Self.controlPoints(moving.output(AHAPFormat.id)!)) / 10
        XCTAssertLessThan(steadyRate * 3, movingRate, "fewer points where the sound is steady")
    }

    static func controlPoints(_ ahap: URL) throws -> Int {
        try AHAPDecoder().decode(Data(contentsOf: ahap)).controlPointCount
    }

    /// Sharpness follows brightness: a low rumble feels duller than a bright hiss, and a quiet
    /// gap does not make the sharpness jump to 0 or 1.
    func testSharpnessFollowsBrightnessAndHoldsThroughQuiet() throws {
        let sr = 44100.0
        let low = Signals.sine(hz: 120, seconds: 1, sampleRate: sr, amplitude: 0.5)
        let high = Signals.noise(seconds: 1, sampleRate: sr, amplitude: 0.5)
        let (_, lowEval, _) = try convert(low, "low.wav")
        let (_, highEval, _) = try convert(high, "high.wav")
        let dull = try XCTUnwrap(lowEval.continuousSharpness(at: 0.5))
        let sharp = try XCTUnwrap(highEval.continuousSharpness(at: 0.5))
        XCTAssertLessThan(dull, 0.1)
        XCTAssertGreaterThan(sharp, 0.8)
    }

    /// Steady rumbles far below the scale keep their order: a 60 Hz sine's body plays rounder
    /// than a 120 Hz one's (both placed near `edge`, each counting about four octaves of weight
    /// in the lows: reference brightnesses about −10.8 and −9.2 octaves, which the place's bound,
    /// nearing its end as 1/u², keeps 0.001 apart, 0.0746 and 0.0754; a bound saturating as tanh
    /// tied them at 0.0702). A rumble that moves is ordered by its moves more than by this.
    func testRumblesBelowTheScaleKeepTheirOrder() throws {
        let sr = 44100.0
        func body(_ hz: Double) throws -> Double {
            let (_, played, _) = try convert(Signals.sine(hz: hz, seconds: 1, sampleRate: sr, amplitude: 0.5), "sine\(Int(hz)).wav")
            return try XCTUnwrap(played.continuousSharpness(at: 0.5))
        }
        let low = try body(60), high = try body(120)
        XCTAssertLessThan(low, high - 0.0005, "60 Hz \(low), 120 Hz \(high)")
        XCTAssertLessThan(high, 0.1)
    }

    /// Two tones at `low` and `high` Hz whose balance swings twice a second over 2 s.
    func balance(_ low: Double, _ high: Double) -> [Float] {
        let sr = 44100.0
        return (0..<Int(2 * sr)).map { i -> Float in
            let t = Double(i) / sr, share = 0.5 + 0.5 * sin(2 * Double.pi * 2 * t)
            return Float(0.4 * share * sin(2 * Double.pi * low * t) + 0.4 * (1 - share) * sin(2 * Double.pi * high * t))
        }
    }

    /// The body's sharpness as the AHAP plays it and the reference's log centroid, every 10 ms
    /// block within 40 dB of the loudest (as `tactus evaluate` ranks them).
    func playedSharpness(_ signal: [Float], overrides: [String] = []) throws -> (sharpness: [Double], logCentroid: [Double]) {
        let (_, played, reference) = try convert(signal, "balance.wav", overrides: overrides)
        let loudest = reference.levelDb.max() ?? 0
        var sharpness: [Double] = [], centroid: [Double] = []
        for k in reference.levelDb.indices where reference.levelDb[k] > loudest - 40 {
            guard let s = played.continuousSharpness(at: Double(k) * ReferenceEnvelope.hopSeconds) else { continue }
            sharpness.append(s)
            centroid.append(reference.logCentroid[k])
        }
        return (sharpness, centroid)
    }

    /// 50 and 70 Hz: a body octaves darker than the scale's low end. It is placed near the
    /// scale's `edge` (0.07) and moves from there with its brightness, well above the AHAP's 4
    /// decimals (a single scale pressed it to about 0.008).
    func testADarkBodyStillMovesWithItsBrightness() throws {
        try assertBodyOf(balance(50, 70), playsAbove: 0.02, below: 0.2)
    }

    /// 6 and 9 kHz: a body octaves brighter than the scale's high end. It is placed near
    /// 1 − `edge` (0.93) and moves from there with its brightness, well under 1.
    func testABrightBodyStillMovesWithItsBrightness() throws {
        try assertBodyOf(balance(6000, 9000), playsAbove: 0.8, below: 0.99)
    }

    /// The body of `signal` plays its sharpness strictly between `low` and `high`, in more
    /// than 8 distinct values, ranked as its brightness (Spearman above 0.75).
    func assertBodyOf(_ signal: [Float], playsAbove low: Double, below high: Double,
                      file: StaticString = #filePath, line: UInt = #line) throws {
        let (sharpness, centroid) = try playedSharpness(signal)
        XCTAssertGreaterThan(sharpness.min() ?? 0, low, file: file, line: line)
        XCTAssertLessThan(sharpness.max() ?? 1, high, file: file, line: line)
        XCTAssertGreaterThan(Set(sharpness).count, 8, file: file, line: line)
        XCTAssertGreaterThan(Statistics.spearman(sharpness, centroid) ?? 0, 0.75, file: file, line: line)
    }
}
