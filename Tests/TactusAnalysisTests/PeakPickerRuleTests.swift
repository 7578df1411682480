import Foundation
import XCTest
@testable import TactusAnalysis
import TactusCore

/// Each rule of `PeakPicker` tested on its own, on novelty and level arrays rather than on
/// audio (librosa's `peak_pick` tests are the model): a table of cases per rule, the other
/// rules switched off by their parameters where they could decide the case.
///
/// Frames are 10 ms apart (`geometry`), so a parameter of N ms spans N / 10 frames: the
/// default `preMaxMs` 30 is 3 frames, `riseWindowMs` 80 is 8, the bed 16, `swellAttackMs` 50
/// is 5. Levels are frame levels in dBFS; novelty is in the picker's own units, and with zero
/// novelty around a peak its threshold is `delta` (3).
final class PeakPickerRuleTests: XCTestCase {
    static let geometry = FrameGeometry(sampleRate: 8000, windowMs: 20, hopMs: 10)

    /// A picker with the descriptors' defaults changed by `overrides`.
    func picker(_ overrides: [String: ParameterValue] = [:]) throws -> PeakPicker {
        PeakPicker(parameters: try ParameterSet(PeakPicker.parameters, overrides), geometry: Self.geometry)
    }

    /// The frames `isPeak` accepts, each judged in order against the moving median as
    /// `OnsetDetector` judges them; `blockJump` is the short-block jump every frame reports.
    func peaks(_ novelty: [Float], levels: [Float], picker: PeakPicker, blockJump: Float = 0) -> [Int] {
        var median = picker.medianWindow()
        return novelty.indices.filter { m in
            let threshold = median.median(at: m, of: novelty) + picker.delta
            return picker.isPeak(m, threshold: threshold, novelty: novelty, levels: levels, blockJump: { blockJump })
        }
    }

    /// `count` frames of zero novelty with `spikes` (frame: value) set.
    func novelty(_ spikes: [Int: Float], count: Int = 80, bed: Float = 0) -> [Float] {
        var values = [Float](repeating: bed, count: count)
        for (frame, value) in spikes { values[frame] = value }
        return values
    }

    /// `count` frame levels: `base`, then from each frame of `steps` on, its level.
    func levels(_ base: Float, steps: [(from: Int, db: Float)] = [], count: Int = 80) -> [Float] {
        var values = [Float](repeating: base, count: count)
        for step in steps { for m in step.from..<count { values[m] = step.db } }
        return values
    }

    /// Every test of a rule runs with the rules that could also decide its cases switched off.
    static let onlyThreshold: [String: ParameterValue] = [
        "minRiseDb": .number(0), "weakRiseDb": .number(0), "jumpDb": .number(0), "bedJumpDb": .number(0), "bedRiseSpreads": .number(0),
    ]
    static let noSubThresholdRules: [String: ParameterValue] = ["jumpDb": .number(0), "bedJumpDb": .number(0), "bedRiseSpreads": .number(0)]

    // MARK: 1. Threshold: a local maximum that clears the local median + delta

    func testThresholdAndLocalMaximum() throws {
        let picker = try picker(Self.onlyThreshold)
        let flat = levels(-20)
        let cases: [(String, [Float], [Int])] = [
            ("a spike over silence", novelty([20: 10]), [20]),
            ("a spike under delta", novelty([20: 2.5]), []),
            ("a smaller spike within preMaxMs after a larger one", novelty([20: 10, 22: 8]), [20]),
            ("a smaller spike within postMaxMs before a larger one", novelty([20: 8, 23: 10]), [23]),
            ("two spikes further apart than the maximum's span", novelty([20: 10, 24: 8]), [20, 24]),
            ("a plateau: its first frame", novelty([20: 10, 21: 10]), [20]),
            ("a spike 2 over a bed of 2: under its median + delta", novelty([40: 4], bed: 2), []),
            ("a spike 4 over a bed of 2: over it", novelty([40: 6], bed: 2), [40]),
        ]
        for (name, values, expected) in cases {
            XCTAssertEqual(peaks(values, levels: flat, picker: picker), expected, name)
        }
    }

    // MARK: 2. Rise: the level rises minRiseDb within riseWindowMs

    func testRise() throws {
        let picker = try picker(Self.noSubThresholdRules.merging(["weakRiseDb": .number(0)]) { $1 })
        let spike = novelty([40: 10])
        let decay = (0..<80).map { -Float($0) }
        let cases: [(String, [Float], [Int])] = [
            ("a novelty peak on a steady level (a wobble inside a sound)", levels(-20), []),
            ("inside a decay", decay, []),
            ("a step of 20 dB at the peak", levels(-40, steps: [(40, -20)]), [40]),
            ("a step of 1.5 dB", levels(-40, steps: [(40, -38.5)]), []),
            ("a step of 2.5 dB", levels(-40, steps: [(40, -37.5)]), [40]),
            ("a step within riseWindowMs before the peak", levels(-60, steps: [(34, -20)]), [40]),
            ("a step longer than riseWindowMs before the peak", levels(-60, steps: [(30, -20)]), []),
        ]
        for (name, values, expected) in cases {
            XCTAssertEqual(peaks(spike, levels: values, picker: picker), expected, name)
        }
        XCTAssertEqual(peaks(novelty([2: 10]), levels: levels(-20), picker: picker), [2],
                       "a sound from the signal's first frames rises out of the silence before it")
    }

    // MARK: 3. Weak peaks: under strongFactor × the threshold, the level must rise weakRiseDb

    func testWeakPeaksNeedALevelRise() throws {
        let picker = try picker(Self.noSubThresholdRules)
        let cases: [(String, Float, Float, [Int])] = [
            // (case, novelty (threshold 3, strong from 6), level rise in dB, expected)
            ("a weak peak with a small rise (grain, flutter, a bed's event)", 4, 4, []),
            ("a weak peak with a rise of weakRiseDb", 4, 8, [40]),
            ("a strong peak with a small rise (a note change, a fast roll)", 7, 3, [40]),
            ("a strong peak with no rise at all", 7, 1, []),
        ]
        for (name, peak, rise, expected) in cases {
            XCTAssertEqual(peaks(novelty([40: peak]), levels: levels(-40, steps: [(40, -40 + rise)]), picker: picker),
                           expected, name)
        }
    }

    // MARK: Live, liveDecision rise: the newest frame, nothing after it

    /// The frames `isRising` releases, each judged as the newest (the arrays cut after it).
    func rising(_ novelty: [Float], levels: [Float], picker: PeakPicker) -> [Int] {
        novelty.indices.filter { picker.isRising($0, novelty: Array(novelty[...$0]), levels: Array(levels[...$0])) }
    }

    func testRisingFrameIsReleasedWithoutLookahead() throws {
        let picker = try picker()
        let step = levels(-60, steps: [(40, -40)])
        let cases: [(String, [Float], [Float], [Int])] = [
            // (case, novelty (causal threshold 3 over silence, riseFactor 2: 6), levels, expected)
            ("a strong spike on a 20 dB step: its own frame", novelty([40: 10]), step, [40]),
            ("a rising novelty: each frame while it rises (the minimum interval keeps the first)",
             novelty([39: 7, 40: 10, 41: 8]), levels(-60, steps: [(39, -40)]), [39, 40]),
            ("a rising novelty before the level rises riseDb: the frame where it does",
             novelty([39: 7, 40: 10]), step, [40]),
            ("a spike under riseFactor × the threshold", novelty([40: 5]), step, []),
            ("a strong spike on a 5 dB step (under riseDb)", novelty([40: 10]), levels(-60, steps: [(40, -55)]), []),
            ("a smaller spike within preMaxMs after a larger one", novelty([37: 12, 40: 10]),
             levels(-60, steps: [(37, -40), (40, -20)]), [37]),
            ("a spike 8 over a bed of 4: under 2 × (4 + delta)", novelty([40: 12], bed: 4), step, []),
            ("a spike 12 over a bed of 4: over it", novelty([40: 16], bed: 4), step, [40]),
        ]
        for (name, values, levels, expected) in cases {
            XCTAssertEqual(rising(values, levels: levels, picker: picker), expected, name)
        }
    }

    // MARK: 4. Level jump: a peak under the threshold, above the median, where the level jumps jumpDb

    func testLevelJump() throws {
        let picker = try picker(["bedJumpDb": .number(0), "bedRiseSpreads": .number(0)])
        let weak = novelty([40: 2])
        let cases: [(String, [Float], [Int])] = [
            ("a jump of 12 dB at the peak (a thud in noise)", levels(-40, steps: [(40, -28)]), [40]),
            ("a jump of 6 dB", levels(-40, steps: [(40, -34)]), []),
            ("a jump starting in the frame before, which holds half the attack", levels(-40, steps: [(39, -28)]), [40]),
            ("a frame just after an attack gains nothing", levels(-40, steps: [(38, -28)]), []),
            ("the attack's level in the two frames after the peak", levels(-40, steps: [(42, -28)]), [40]),
        ]
        for (name, values, expected) in cases {
            XCTAssertEqual(peaks(weak, levels: values, picker: picker), expected, name)
        }
        // A bed of novelty 2 with a dip of zeros around frame 40, where a peak of 1 stays under the median (2).
        var dip = novelty([:], bed: 2)
        for m in 36...44 { dip[m] = m == 40 ? 1 : 0 }
        XCTAssertFalse(peaks(dip, levels: levels(-40, steps: [(40, -20)]), picker: picker).contains(40),
                       "a local maximum under the local median is no onset, however the level jumps")
    }

    // MARK: 5. Bed hits: over a steady bed, bedRiseSpreads of its spread or bedJumpDb in short blocks

    /// A bed alternating between `low` and `low + wobble` dB, then the attack's level from `frame` on.
    func bed(_ low: Float, wobble: Float, attack: Float, from frame: Int = 40) -> [Float] {
        (0..<80).map { $0 >= frame ? attack : ($0.isMultiple(of: 2) ? low : low + wobble) }
    }

    func testBedRiseInSpreads() throws {
        let picker = try picker(["jumpDb": .number(0), "bedJumpDb": .number(0)])
        let weak = novelty([40: 2])
        // The bed: median −39.5 dB, spread 1.4826 × 0.5 + 0.5 = 1.24 dB; 5 spreads = 6.2 dB.
        let cases: [(String, [Float], [Int])] = [
            ("a hit 7.5 dB out of a steady bed (6 spreads)", bed(-40, wobble: 1, attack: -32), [40]),
            ("a hit 5.5 dB out of it (4.4 spreads)", bed(-40, wobble: 1, attack: -34), []),
            ("a hit 7.5 dB out of a bed that wavers by 8 dB: not steady", bed(-44, wobble: 8, attack: -32), []),
            ("a bed under absoluteFloorDb: silence, not a bed", bed(-90, wobble: 1, attack: -82), []),
        ]
        for (name, values, expected) in cases {
            XCTAssertEqual(peaks(weak, levels: values, picker: picker), expected, name)
        }
        XCTAssertEqual(peaks(novelty([10: 2]), levels: bed(-40, wobble: 1, attack: -32, from: 10), picker: picker), [],
                       "no bed before the first bedSpanMs")
        // A peak that clears the threshold but is weak (novelty 4 < 2 × 3) and rises 3 dB (under
        // weakRiseDb): found over a bed that stays within a fraction of a dB (spread 0.5 dB).
        XCTAssertEqual(peaks(novelty([40: 4]), levels: bed(-40, wobble: 0, attack: -37), picker: picker), [40],
                       "a weak peak the rise tests refuse is judged over the bed too")
    }

    func testBedJumpInShortBlocks() throws {
        let picker = try picker(["jumpDb": .number(0), "bedRiseSpreads": .number(0)])
        let weak = novelty([40: 2])
        let steady = bed(-40, wobble: 1, attack: -39)
        let cases: [(String, [Float], Float, [Int])] = [
            ("a click whose 2.5 ms blocks jump 8 dB over a steady bed", steady, 8, [40]),
            ("blocks that jump 4 dB", steady, 4, []),
            ("blocks that jump 8 dB over a bed that is not steady", bed(-44, wobble: 8, attack: -39), 8, []),
        ]
        for (name, values, jump, expected) in cases {
            XCTAssertEqual(peaks(weak, levels: values, picker: picker, blockJump: jump), expected, name)
        }
    }

    func testBlockJumpMeasuresTheLoudestShortBlock() throws {
        let picker = try picker()
        let frame = 40
        // A noise-like bed of alternating ±0.01, then 2.5 ms at 0.05 (14 dB louder) inside frame 40's span.
        var samples = (0..<(60 * 80)).map { $0.isMultiple(of: 2) ? Float(0.01) : -0.01 }
        for i in (frame * 80)..<(frame * 80 + 20) { samples[i] = 0.05 }
        var history = SampleHistory(capacity: samples.count)
        samples.withUnsafeBufferPointer { history.append($0) }
        XCTAssertEqual(picker.blockJump(atFrame: frame, in: history), 20 * log10(5), accuracy: 0.01)
        XCTAssertEqual(picker.blockJump(atFrame: 20, in: history), 0, accuracy: 0.01, "the bed alone")
    }

    // MARK: 6. Silence gates: absoluteFloorDb and relativeGateDb

    func testSilenceGates() throws {
        let picker = try picker(["swellDb": .number(0)])
        let flat = levels(-30)
        let cases: [(String, Float, Float, Bool)] = [
            // (case, attack level, the file's loudest frame, passes)
            ("an attack under absoluteFloorDb (-70 dBFS)", -75, -70, false),
            ("an attack over it", -65, -60, true),
            ("an attack more than relativeGateDb (40 dB) under the loudest frame", -45, 0, false),
            ("an attack within it", -35, 0, true),
        ]
        for (name, level, loudest, expected) in cases {
            XCTAssertEqual(picker.passesGates(frame: 40, levelDb: level, loudestDb: loudest, levels: flat), expected, name)
        }
    }

    // MARK: 7. Swell gate, and steps out of silence

    func testSwellGateAndSteps() throws {
        let picker = try picker()
        // Onsets at frame 10; the gate compares the first 5 frames with the 30 after them.
        let fadeIn = (0..<60).map { $0 < 10 ? -120 : min(-60 + 2 * Float($0 - 10), 0) }
        let build = (0..<60).map { $0 < 10 ? -120 : min(-30 + 6 * Float($0 - 10), 0) }
        let stepThenGrow = levels(-120, steps: [(10, -30), (21, 0)], count: 60)
        let smallStepThenGrow = levels(-45, steps: [(10, -30), (21, 0)], count: 60)
        let cases: [(String, [Float], Bool)] = [
            ("a fade-in: 50 ms still 40 dB under what follows", fadeIn, false),
            ("an explosion building over 50 ms", build, true),
            ("a step out of silence at its own level that grows 30 dB later", stepThenGrow, true),
            ("the same step 15 dB out of the frames before it (under stepRiseDb)", smallStepThenGrow, false),
        ]
        for (name, values, expected) in cases {
            let attack = PeakPicker.attackLevel(at: 10, levels: values)
            XCTAssertEqual(picker.passesGates(frame: 10, levelDb: attack, loudestDb: attack, levels: values), expected, name)
        }
    }

    // MARK: 8. Minimum interval, where a faint precursor gives way

    /// A candidate at `time` seconds detected at its 10 ms frame, with the attack level of `levels` there.
    func onset(_ time: Double, levels: [Float]) -> DetectedOnset {
        let frame = Int((time * 100).rounded())
        return DetectedOnset(time: time, sample: Int(time * Self.geometry.sampleRate), frame: frame, strength: 10,
                             threshold: 3, levelDb: PeakPicker.attackLevel(at: frame, levels: levels), peakDb: 0)
    }

    func testMinimumIntervalAndPrecursors() throws {
        let picker = try picker()
        // A bump of −50 dB at frame 10 inside a sound at −55, then a hit at −20 from frame 14.
        let bumpThenHit = levels(-55, steps: [(10, -50), (13, -55), (14, -20)])
        // The same, the bump a step out of silence (−120 before it).
        let stepThenHit = levels(-120, steps: [(10, -50), (13, -55), (14, -20)])
        // Two hits of −20 dB, 40 or 70 ms apart.
        let close = levels(-60, steps: [(10, -20), (13, -60), (14, -20)])
        let apart = levels(-60, steps: [(10, -20), (13, -60), (17, -20)])
        // A tick under the relative gate (−65 dB, 45 dB under the hit) 40 ms before the hit.
        let tickThenHit = levels(-120, steps: [(10, -65), (13, -120), (14, -20)])
        let cases: [(String, [Float], [Double], [Double])] = [
            ("two hits 40 ms apart: the first", close, [0.10, 0.14], [0.10]),
            ("two hits 70 ms apart: both", apart, [0.10, 0.17], [0.10, 0.17]),
            ("a faint precursor 40 ms before a hit 30 dB louder gives way", bumpThenHit, [0.10, 0.14], [0.14]),
            ("unless the precursor is a step out of silence", stepThenHit, [0.10, 0.14], [0.10]),
            ("a tick the gates refuse holds nothing back", tickThenHit, [0.10, 0.14], [0.14]),
        ]
        for (name, values, times, expected) in cases {
            let kept = picker.onsets(from: times.map { onset($0, levels: values) }, levels: values)
            XCTAssertEqual(kept.map(\.time), expected, name)
        }
    }
}
