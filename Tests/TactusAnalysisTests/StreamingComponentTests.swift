import Foundation
import TactusCore
import TactusFFT
import TactusTestSupport
import XCTest
@testable import TactusAnalysis

/// The streaming parts of the analysis, each fed in blocks of 1, 3, 1,024 and random sizes
/// (`StreamingVerifier`) and held against a naive reference written here.
final class StreamingComponentTests: XCTestCase {
    let rate = 22_050.0
    /// Clicks, a tone burst and noise: every part sees attacks, steady tone and silence.
    lazy var signal: [Float] = Signals.mix(
        Signals.clicks(at: [0.05, 0.31, 0.52], seconds: 0.8, sampleRate: rate, seed: 4),
        Signals.sine(hz: 330, seconds: 0.8, sampleRate: rate, amplitude: 0.2),
        Signals.noise(seconds: 0.8, sampleRate: rate, amplitude: 0.01, seed: 8))

    func testDCBlockerWhateverTheBlocks() throws {
        try StreamingVerifier.verify(count: signal.count, run: { blocks -> [UInt32] in
            var blocker = DCBlocker(sampleRate: rate)
            var out: [Float] = [], scratch = [Float](repeating: 0, count: (blocks.max() ?? 1) + 3)
            for range in StreamingVerifier.ranges(count: signal.count, blocks: blocks) {
                let n = signal[range].withUnsafeBufferPointer { input in scratch.withUnsafeMutableBufferPointer { blocker.process(input, into: $0) } }
                out += scratch[0..<n]
            }
            out += scratch[0..<scratch.withUnsafeMutableBufferPointer { blocker.flush(into: $0) }]
            return StreamingVerifier.bitPatterns(out)
        }, reference: { bits in
            let p = exp(-2 * Double.pi * DCBlocker.cutoffHz / rate)
            var x1 = 0.0, y1 = 0.0
            for (x, y) in zip(signal, bits.map(Float.init(bitPattern:))) {
                let expected = Double(x) - x1 + p * y1
                (x1, y1) = (Double(x), expected)
                XCTAssertEqual(Double(y), expected, accuracy: 1e-4)
            }
        })
    }

    /// The whole analysis: the same features and onsets whatever blocks the decoder hands over.
    func testAnalysisSessionWhateverTheBlocks() throws {
        let configuration = try AnalysisConfiguration.defaults()
        struct Snapshot: Equatable { var features: [String: [UInt32]]; var onsets: [Int] }
        try StreamingVerifier.verify(count: signal.count, run: { blocks -> Snapshot in
            let session = AnalysisSession(sampleRate: rate, configuration: configuration)
            for range in StreamingVerifier.ranges(count: signal.count, blocks: blocks) {
                signal[range].withUnsafeBufferPointer { session.push($0) }
            }
            let result = session.finish()
            return Snapshot(features: result.features.mapValues(StreamingVerifier.bitPatterns), onsets: result.onsets.map(\.sample))
        }, reference: { snapshot in
            // The tone's own start (sample 0) is an attack too; each later click is found within 1 ms.
            for click in [0.31, 0.52].map({ Int($0 * rate) }) {
                XCTAssertTrue(snapshot.onsets.contains { abs($0 - click) <= Int(rate / 1000) }, "\(click) in \(snapshot.onsets)")
            }
        })
    }

    func testSampleHistoryHoldsTheLatestSamplesByAbsoluteIndex() throws {
        try StreamingVerifier.verify(count: signal.count, run: { blocks -> [Float] in
            var history = SampleHistory(capacity: 1000)
            var windows: [Float] = []
            for range in StreamingVerifier.ranges(count: signal.count, blocks: blocks) {
                signal[range].withUnsafeBufferPointer { history.append($0) }
            }
            var scratch = [Float](repeating: .nan, count: signal.count)
            scratch.withUnsafeMutableBufferPointer { scratch in
                for (from, to) in [(signal.count - 1000, signal.count), (0, signal.count - 1000)] {  // the second: dropped, empty
                    let (_, count) = history.window(from: from, to: to, into: scratch)
                    windows += scratch[0..<count]
                }
            }
            return windows
        }, reference: { windows in
            XCTAssertEqual(windows, Array(signal.suffix(1000)))
        })
    }

    /// The running median against sorting each window, frame by frame: zeros before the
    /// series' start, the window clipped at its end, the upper median for even counts.
    func testMovingMedianAgainstSortingEveryWindow() throws {
        var generator = SeededGenerator(seed: 3)
        let series = (0..<400).map { _ in Float(generator.nextSigned() * 10).rounded() }  // many ties
        for (before, after) in [(15, 6), (1, 0), (0, 3), (40, 40)] {
            var median = MovingMedian(before: before, after: after)
            for m in series.indices {
                let window = (m - before...min(series.count - 1, m + after)).map { $0 < 0 ? 0 : series[$0] }.sorted()
                XCTAssertEqual(median.median(at: m, of: series), window[window.count / 2], "frame \(m), \(before)/\(after)")
            }
        }
    }

    /// `fastDecibels` keeps its documented bound (0.001 dB) against `10·log10` over the
    /// whole float range, and silence, denormals and NaN give the floor.
    func testFastDecibelsWithinItsBound() throws {
        var worst: Float = 0
        var power: Float = 1e-29
        while power < 1e30 {
            let exact = max(10 * log10f(power), -300)
            worst = max(worst, abs(fastDecibels(power: power, floorDb: -300) - exact))
            power *= 1.0007
        }
        XCTAssertLessThan(worst, 0.001)
        for silent: Float in [0, 1e-38, .leastNonzeroMagnitude, .nan, -1] {
            XCTAssertEqual(fastDecibels(power: silent, floorDb: -120), -120, "\(silent)")
        }
    }

    func testRisingSumAndMaxFilterAgainstNaiveLoops() throws {
        var generator = SeededGenerator(seed: 5)
        for count in [0, 1, 7, 8, 9, 63, 100] {
            let a = (0..<count).map { _ in Float(generator.nextSigned()) }
            let b = (0..<count).map { _ in Float(generator.nextSigned()) }
            let expected = zip(a, b).reduce(Float(0)) { $0 + max(0, $1.0 - $1.1) }
            XCTAssertEqual(risingSum(a, over: b, count: count), expected, accuracy: 1e-5)
            for halfWidth in [0, 1, 2, 5] {
                var out = [Float](repeating: 0, count: count)
                maxFilter(a, halfWidth: halfWidth, into: &out, count: count)
                let naive = a.indices.map { k in a[max(0, k - halfWidth)...min(count - 1, k + halfWidth)].max()! }
                XCTAssertEqual(out, naive, "count \(count), half width \(halfWidth)")
            }
        }
    }

    /// Bands are log-spaced: a pure tone's energy stays in one band, higher tones land in
    /// higher bands, and an octave spans `bandsPerOctave` bands where bins are fine enough.
    func testLogFilterbankPutsATonesEnergyInItsBand() throws {
        let geometry = FrameGeometry(sampleRate: 44_100, windowMs: 20, hopMs: 10)
        let bank = LogFilterbank(geometry: geometry, minHz: 30, maxHz: 17_000, bandsPerOctave: 12)
        XCTAssertGreaterThan(bank.count, 60)
        let stft = STFT(geometry: geometry, transform: SwiftRealFFT.self)
        var bandOf: [Double: Int] = [:]
        for hz in [220.0, 1_000.0, 2_500.0, 5_000.0] {
            var loudest: [Int] = []
            let tone = Signals.sine(hz: hz, seconds: 0.2, sampleRate: 44_100, amplitude: 0.5)
            var levels: [Float] = []
            tone.withUnsafeBufferPointer { stft.push($0) { frame in
                bank.levels(of: frame, floorDb: -100, into: &levels)
                loudest.append(levels.indices.max { levels[$0] < levels[$1] }!)
            } }
            let settled = loudest.dropFirst(3)
            XCTAssertEqual(Set(settled).count, 1, "\(hz) Hz stays in one band")
            bandOf[hz] = settled.first!
        }
        XCTAssertLessThan(bandOf[220]!, bandOf[1_000]!)
        XCTAssertLessThan(bandOf[1_000]!, bandOf[2_500]!)
        XCTAssertEqual(bandOf[5_000]! - bandOf[2_500]!, 12, accuracy: 1, "one octave, twelve bands")
        stft.finish { _ in }
    }

    /// The attack locator places a click, a soft rise and an attack over a previous tail on
    /// the sample where the sound rises out of what precedes it.
    func testAttackLocatorFindsKnownAttacks() throws {
        let geometry = FrameGeometry(sampleRate: rate, windowMs: 20, hopMs: 10)
        let locator = AttackLocator(parameters: try ParameterSet(AttackLocator.parameters), geometry: geometry)
        func locate(_ x: [Float], frameNear sample: Int) -> Int {
            var history = SampleHistory(capacity: x.count)
            x.withUnsafeBufferPointer { history.append($0) }
            let centre = (sample / geometry.hop + 1) * geometry.hop
            var scratch = [Float](repeating: 0, count: locator.reach)
            return scratch.withUnsafeMutableBufferPointer { locator.locate(centre: centre, notBefore: 0, in: history, scratch: $0).sample }
        }
        var click = [Float](repeating: 0, count: 8_000)
        for i in 0..<60 { click[3_001 + i] = Float(0.8 * exp(-Double(i) / 15) * (i % 2 == 0 ? 1 : -1)) }
        XCTAssertEqual(locate(click, frameNear: 3_001), 3_001, accuracy: 1)

        var tail = Signals.sine(hz: 200, seconds: 8_000 / rate, sampleRate: rate, amplitude: 0.05)
        for i in 0..<400 { tail[4_500 + i] += Float(0.7 * sin(Double(i) * 0.9) * exp(-Double(i) / 200)) }
        XCTAssertEqual(locate(tail, frameNear: 4_500), 4_500, accuracy: 3, "rises out of a quieter tone")

        var soft = [Float](repeating: 0, count: 8_000)
        for i in 0..<1_500 { soft[2_000 + i] = Float(min(1, Double(i) / 330) * 0.6 * sin(Double(i) * 0.3)) }
        let found = locate(soft, frameNear: 2_200)
        XCTAssertTrue((2_000...2_050).contains(found), "a 15 ms fade-in starts at its first audible samples, found \(found)")
    }
}
