import Foundation
import XCTest
@testable import TactusAnalysis
import TactusTestSupport

/// The DC blocker filters four samples per step; these check it is still the one-pole
/// high-pass `y[n] = x[n] − x[n−1] + p·y[n−1]`, whatever blocks the samples arrive in.
final class DCBlockerTests: XCTestCase {
    let sampleRate = 44_100.0

    /// Filters `signal` handed over in blocks of the given sizes (cycled), then flushes.
    func filter(_ signal: [Float], blocks: [Int]) -> [Float] {
        var blocker = DCBlocker(sampleRate: sampleRate)
        var output: [Float] = []
        var start = 0, b = 0
        var scratch = [Float](repeating: 0, count: (blocks.max() ?? 1) + 3)
        while start < signal.count {
            let end = min(signal.count, start + blocks[b % blocks.count])
            let written = signal[start..<end].withUnsafeBufferPointer { input in
                scratch.withUnsafeMutableBufferPointer { blocker.process(input, into: $0) }
            }
            output += scratch[0..<written]
            start = end
            b += 1
        }
        let last = scratch.withUnsafeMutableBufferPointer { blocker.flush(into: $0) }
        output += scratch[0..<last]
        return output
    }

    /// The recursion one sample at a time, in double precision.
    func reference(_ signal: [Float]) -> [Double] {
        let p = exp(-2 * Double.pi * DCBlocker.cutoffHz / sampleRate)
        var x1 = 0.0, y1 = 0.0
        return signal.map { x in
            let y = Double(x) - x1 + p * y1
            (x1, y1) = (Double(x), y)
            return y
        }
    }

    func testMatchesTheOnePoleRecursion() {
        let signal = Signals.mix(Signals.noise(seconds: 1, sampleRate: sampleRate, amplitude: 0.5),
                                 Signals.sine(hz: 30, seconds: 1, sampleRate: sampleRate, amplitude: 0.4))
            .map { $0 + 0.25 }  // an offset, so the carry between groups matters
        let filtered = filter(signal, blocks: [4096])
        XCTAssertEqual(filtered.count, signal.count)
        let expected = reference(signal)
        // Any float recursion with a pole this close to 1 drifts from the exact one by
        // rounding (about 1e-5 here); grouping must not add to that.
        let p = Float(exp(-2 * Double.pi * DCBlocker.cutoffHz / sampleRate))
        var x1: Float = 0, y1: Float = 0
        let serial: [Float] = signal.map { x in
            let y = x - x1 + p * y1
            (x1, y1) = (x, y)
            return y
        }
        func worst(_ values: [Float]) -> Double { zip(values, expected).map { abs(Double($0) - $1) }.max()! }
        XCTAssertLessThan(worst(filtered), max(2 * worst(serial), 1e-6), "grouped filtering drifted from the recursion")
    }

    func testTheBlocksDoNotChangeABit() {
        let signal = Signals.noise(seconds: 0.3, sampleRate: sampleRate, amplitude: 0.8, seed: 11)
        let whole = filter(signal, blocks: [signal.count])
        for blocks in [[1], [3], [5, 2, 7], [4096], [1021, 1, 2]] {
            XCTAssertEqual(filter(signal, blocks: blocks), whole, "blocks \(blocks)")
        }
    }

    func testRemovesAnOffsetAndKeepsBass() {
        let offset = [Float](repeating: 0.5, count: Int(sampleRate))
        let settled = filter(offset, blocks: [1000]).suffix(100)
        XCTAssertLessThan(settled.map(abs).max()!, 1e-3, "a constant offset must decay to nothing within a second")
        let bass = Signals.sine(hz: 40, seconds: 1, sampleRate: sampleRate, amplitude: 0.5)
        let kept = filter(bass, blocks: [1000]).suffix(Int(sampleRate / 2))
        let rms = (kept.map { Double($0 * $0) }.reduce(0, +) / Double(kept.count)).squareRoot()
        XCTAssertEqual(rms, 0.5 / 2.0.squareRoot(), accuracy: 0.01, "40 Hz must pass nearly untouched")
    }

    /// A sound with an offset that stops dead, then digital silence, then the sound again: the
    /// output is exactly zero once the input has been zero for `silentSeconds` (not the offset's
    /// step ringing out for 100 ms), the silence's first 2 ms still ring, and whatever blocks
    /// the samples come in, the resumed sound is filtered exactly as without the silence rule.
    func testDigitalSilenceStaysSilent() {
        let sound = Signals.sine(hz: 200, seconds: 0.2, sampleRate: sampleRate, amplitude: 0.3).map { $0 + 0.4 }
        let silence = [Float](repeating: 0, count: Int(0.1 * sampleRate))
        let signal = sound + silence + sound
        let run = Int(DCBlocker.silentSeconds * sampleRate)
        for blocks in [[4096], [1], [3], [1024, 7, 333]] {
            let filtered = filter(signal, blocks: blocks)
            XCTAssertEqual(filtered.count, signal.count)
            let gap = filtered[sound.count..<(sound.count + silence.count)]
            XCTAssertGreaterThan(abs(gap.first!), 0.3, "the offset's step at the end, as before")
            // Whole groups of four count: the group the sound resumes in is filtered as usual.
            XCTAssertTrue(gap.dropFirst(run + 3).dropLast(3).allSatisfy { $0 == 0 }, "exact zeros in the silence (\(blocks))")
            // The same signal with the silence nudged off zero (below any level that matters)
            // runs the same filter without the rule: from the resumed sound on they agree.
            let nudged = filter(sound + silence.map { _ in Float.leastNormalMagnitude } + sound, blocks: blocks)
            let resumed = (sound.count + silence.count)...
            XCTAssertEqual(Array(filtered[resumed]), Array(nudged[resumed]), "the resumed sound is filtered as before (\(blocks))")
        }
    }
}
