import TactusCore

/// Decides which novelty peaks are onsets, by the rules below, in this order. Rules 1–5 judge
/// each frame as it comes (`isPeak`), a few frames behind the signal; rules 6–8 need the whole
/// file and act once it is done (`onsets(from:levels:)`). Levels are the frames' levels in dBFS;
/// a threshold is the local median of the novelty + `delta`. Each rule is tested on its own, on
/// novelty and level arrays, in `PeakPickerRuleTests`. "Earns" is what turning the rule off
/// costs F@25 on the real-sound corpus, default preset: dev (held-out), each half without its
/// reverb mixtures, 2026-11-26 (docs/REALCORPUS.md, "The peak picker's rules, measured").
///
/// | # | rule | parameters | the case it exists for | earns |
/// |---|---|---|---|---|
/// | 1 | **Threshold**: a local maximum of the novelty over `preMaxMs` before and `postMaxMs` after (the first of equal values) that reaches the median of `preMedianMs` before to `postMedianMs` after, + `delta` | `delta`, `preMaxMs`, `postMaxMs`, `preMedianMs`, `postMedianMs` | an attack: the novelty rises above what the sound around it does | the detector itself |
/// | 2 | **Rise**: a peak over the threshold is an onset only when the level rises `minRiseDb` (the loudest of its frame and the next two over the quietest of the `riseWindowMs` before) | `minRiseDb`, `riseWindowMs` | a wobble of the spectrum inside one sound's decay | dev +0.007 (+0.003) |
/// | 3 | **Weak peaks**: a peak under `strongFactor` × its threshold needs a rise of `weakRiseDb` | `weakRiseDb`, `strongFactor` | grain, flutter and a noise bed's events, whose novelty barely clears the threshold; a strong peak (a note change, a fast roll) needs only rule 2 | dev +0.022 (+0.020) |
/// | 4 | **Level jump**: a peak under the threshold but at or above the median is an onset when the loudest of its frame and the next two stands `jumpDb` over the loudest of the three before the previous frame | `jumpDb` | a thud in noise: it lifts a few bands, so the mean flux barely moves while the level jumps | dev +0.006 (+0.003) |
/// | 5 | **Bed hit**: over a steady bed (the 160 ms of frame levels before the peak's previous frame within `bedSteadyDb` and above `absoluteFloorDb`), a peak at or above the median that rules 1–4 refuse is an onset when its attack stands `bedRiseSpreads` × the bed's spread over the bed's median level, or its loudest 2.5 ms block `bedJumpDb` over the loudest of the 60 ms before | `bedSteadyDb`, `bedRiseSpreads`, `bedJumpDb` | a hit a few dB out of steady noise; a click, whose attack a 20 ms frame dilutes with the bed around it | spreads: dev +0.003 (+0.002); blocks: dev −0.001 (+0.001), the Corpus 0, 3.2 M instructions a minute of audio: does not earn its place; both: dev +0.006 (+0.006) |
/// | 6 | **Silence gates**: an onset's attack at or above `absoluteFloorDb` and within `relativeGateDb` of the file's loudest frame | `absoluteFloorDb`, `relativeGateDb` | a faint tick or noise far under the sound a designer hears | relative: dev +0.001 (−0.002), the Corpus +0.002; absolute: 0 on the corpus (no sound there peaks under −40 dBFS), a file of −80 dBFS hiss with −66 dBFS ticks gets no transient with it and 3 without |
/// | 7 | **Swell gate**: an onset whose first `swellAttackMs` stay `swellDb` under the loudest of the `swellWindowMs` after it is a swell, not an attack, unless it starts as a step: its first two frames within `stepDb` of its first `swellAttackMs`, and a jump (as rule 4) of `stepRiseDb` | `swellDb`, `swellWindowMs`, `swellAttackMs`, `stepDb`, `stepRiseDb` | a fade-in or swell gets no transient; a sound that comes in at its own level out of silence and grows later (a hum, a fuse, a wind-up) keeps its transient | swell: dev +0.012 (+0.004); steps: dev +0.015 (+0.020) |
/// | 8 | **Minimum interval**: of two onsets that pass the gates closer than `minIntervalMs`, the first is kept, unless it is a faint precursor: the later one's attack `precursorDb` louder and the first not a step (its jump under `stepRiseDb`) | `minIntervalMs`, `precursorDb` | Apple's HIG (transients must not overwhelm); a faint bump 30–60 ms before a hit must not take the hit's transient | interval: dev +0.015 (+0.014); precursor: dev +0.006 (0) |
///
/// The gates act before the minimum interval, so a peak they refuse holds back nothing.
///
/// A live stream (`OnsetDetector` with `live`) judges each frame `lookahead` frames after it,
/// and applies rules 6–8 to what it has heard. With `liveDecision` `rise` it also releases
/// the newest frame at once when it passes rules 1–3 with nothing after it (`isRising`,
/// `riseFactor`, `riseDb`): most clear attacks are then felt 10–20 ms after their time
/// instead of the look-ahead's 60 ms more, at the cost of agreement with the offline onsets
/// (BENCHMARKS.md, "Live"). The offline picker never reads these three parameters.
public struct PeakPicker: TunablePart {
    public static let id = "peaks"
    public static let summary = "Adaptive-threshold peak picking with minimum interval, rise check and silence gates."
    public static let delta = ParameterDescriptor.number("delta", 0...100, default: 3, unit: "novelty",
                help: "How far a peak must rise above the local median of the novelty (dB per bin for the flux methods).")
    public static let preMaxMs = ParameterDescriptor.number("preMaxMs", 0...500, default: 30, unit: "ms", help: "A peak must be the maximum over this span before it.")
    public static let postMaxMs = ParameterDescriptor.number("postMaxMs", 0...200, default: 30, unit: "ms", help: "…and over this span after it.")
    public static let preMedianMs = ParameterDescriptor.number("preMedianMs", 10...2000, default: 150, unit: "ms", help: "Span before the peak for the adaptive median.")
    public static let postMedianMs = ParameterDescriptor.number("postMedianMs", 0...200, default: 60, unit: "ms", help: "Span after the peak for the adaptive median.")
    public static let minIntervalMs = ParameterDescriptor.number("minIntervalMs", 0...2000, default: 60, unit: "ms",
                help: "Minimum time between two transients (Apple's HIG: do not overwhelm).")
    public static let minRiseDb = ParameterDescriptor.number("minRiseDb", 0...40, default: 2, unit: "dB",
                help: "The level after the peak must exceed the quietest level in the rise window by this much.")
    public static let riseWindowMs = ParameterDescriptor.number("riseWindowMs", 10...1000, default: 80, unit: "ms", help: "Span before the peak searched for its quietest level.")
    public static let weakRiseDb = ParameterDescriptor.number("weakRiseDb", 0...60, default: 6, unit: "dB",
                help: "Level rise (as for minRiseDb) a weak peak needs, one whose novelty is under strongFactor × its threshold: grain, flutter and noise beds make weak peaks without a new sound; 0 = off.")
    public static let strongFactor = ParameterDescriptor.number("strongFactor", 1...100, default: 2,
                help: "A peak whose novelty reaches this many times its threshold needs only minRiseDb (a note change or a fast roll may barely change the level).")
    public static let jumpDb = ParameterDescriptor.number("jumpDb", 0...60, default: 9, unit: "dB",
                help: "A peak under the threshold but above the local median is still an onset when the level jumps this much: the loudest of its frame and the next two over the loudest of the three before the previous frame. A hit in a noise bed lifts a few bands, so the mean flux barely moves while the level does (0 = off).")
    public static let bedJumpDb = ParameterDescriptor.number("bedJumpDb", 0...60, default: 6, unit: "dB",
                help: "Over a steady bed (see bedSteadyDb), a peak above the local median that the threshold or the rise tests refuse is still an onset when the loudest 2.5 ms of its frame and the next hop stand this far above the loudest 2.5 ms of the 60 ms before its frame: a hit's attack stands out of noise in short blocks more than in whole frames (0 = off).")
    public static let bedRiseSpreads = ParameterDescriptor.number("bedRiseSpreads", 0...100, default: 5, unit: "spreads",
                help: "Over a steady bed (see bedSteadyDb), a peak above the local median that the threshold or the rise tests refuse is still an onset when its attack level stands this many times the bed's own spread above the bed's median level (the spread: 1.48 × the median absolute deviation of the bed's frame levels, plus 0.5 dB): a hit 3 dB out of steady noise is as sure as one 10 dB out of a wavering ambience (0 = off).")
    public static let bedSteadyDb = ParameterDescriptor.number("bedSteadyDb", 0...40, default: 6, unit: "dB",
                help: "A bed is steady when the frame levels of the 160 ms before a peak (up to the frame before it) stay within this span and above absoluteFloorDb.")
    public static let swellDb = ParameterDescriptor.number("swellDb", 0...60, default: 12, unit: "dB",
                help: "Refuse an onset whose first swellAttackMs stay this far below the loudest level of the swell window after it: a fade-in or swell, not an attack (0 = off).")
    public static let swellWindowMs = ParameterDescriptor.number("swellWindowMs", 50...2000, default: 300, unit: "ms", help: "Span after an onset searched for the swell's loudest level.")
    public static let swellAttackMs = ParameterDescriptor.number("swellAttackMs", 10...500, default: 50, unit: "ms",
                help: "Span after an onset within which an attack comes within swellDb of the swell's loudest level (an explosion building for 50 ms is still an attack).")
    public static let stepDb = ParameterDescriptor.number("stepDb", 0...60, default: 6, unit: "dB",
                help: "An onset the swell gate would refuse is still an attack when it starts as a step: its first two frames come within this of the loudest level of its first swellAttackMs, and it stands stepRiseDb out of the frames before it (a sound that starts at its own level out of silence, then grows; 0 = off).")
    public static let stepRiseDb = ParameterDescriptor.number("stepRiseDb", 0...120, default: 20, unit: "dB",
                help: "How far a step (see stepDb) stands out of the frames before it: the loudest of its first three frames over the loudest of the three before the previous frame.")
    public static let precursorDb = ParameterDescriptor.number("precursorDb", 0...60, default: 12, unit: "dB",
                help: "An onset within minIntervalMs after the one before takes its place when its attack is this much louder and the one before is not a step (it does not stand stepRiseDb out of the frames before it, measured as for stepDb): a faint precursor, not the hit (0 = off).")
    public static let relativeGateDb = ParameterDescriptor.number("relativeGateDb", 10...120, default: 40, unit: "dB",
                help: "Ignore onsets whose attack is more than this below the file's loudest frame.")
    public static let absoluteFloorDb = ParameterDescriptor.number("absoluteFloorDb", -140 ... 0, default: -70, unit: "dB",
                help: "Ignore onsets whose attack level is below this (dBFS), whatever the file.")
    public static let liveDecision = ParameterDescriptor.choice("liveDecision", LiveDecision.self, default: .peak,
                help: "When a live stream (tactus live, TactusLive) releases a transient: peak = once the picker has judged its frame, postMaxMs/postMedianMs and half a window after it (the onsets convert finds); rise = also at once, half a window after the centre of the frame where its novelty reaches riseFactor × the median of the preMedianMs before (+ delta) and its level rises riseDb over the riseWindowMs before (a clear attack comes 10–20 ms after its time; where the peak's attack differs, live and convert disagree). tactus convert always decides on the peak.")
    public static let riseFactor = ParameterDescriptor.number("riseFactor", 1...100, default: 2,
                help: "Live, liveDecision rise: how many times its causal threshold (the median novelty of the preMedianMs before it and itself, + delta) a frame's novelty must reach to be released at once.")
    public static let riseDb = ParameterDescriptor.number("riseDb", 0...60, default: 10, unit: "dB",
                help: "Live, liveDecision rise: how far a frame's level must stand above the quietest of the riseWindowMs before it to be released at once.")
    public static let parameters: [ParameterDescriptor] = [delta, preMaxMs, postMaxMs, preMedianMs, postMedianMs, minIntervalMs, minRiseDb, riseWindowMs, weakRiseDb, strongFactor, jumpDb, bedJumpDb, bedRiseSpreads, bedSteadyDb, swellDb, swellWindowMs, swellAttackMs, stepDb, stepRiseDb, precursorDb, relativeGateDb, absoluteFloorDb, liveDecision, riseFactor, riseDb]
    /// The attack span lies within the swell window it is compared with.
    public static let orderedPairs = [OrderedPair(swellAttackMs, below: swellWindowMs, allowsEqual: true)]

    let delta: Float
    let preMax: Int, postMax: Int, preMedian: Int, postMedian: Int
    let minInterval: Double
    let minRiseDb: Float
    let weakRiseDb: Float
    let strongFactor: Float
    let jumpDb: Float
    let bedJumpDb: Float
    let bedRiseSpreads: Float
    let bedSteadyDb: Float
    /// `bedSpanMs` in frames.
    let bedSpan: Int
    /// `blockMs` and `blockBeforeMs` in samples.
    let block: Int, blockBefore: Int
    /// Half the analysis window, samples: the frame's span starts this far before its centre.
    let halfWindow: Int
    /// Samples between frame centres.
    let hop: Int
    let riseWindow: Int
    let relativeGateDb: Float
    let absoluteFloorDb: Float
    let swellDb: Float
    let swellWindow: Int
    let attackFrames: Int
    let stepDb: Float
    let stepRiseDb: Float
    let precursorDb: Float
    /// When a live stream releases an onset (`liveDecision`).
    let decision: LiveDecision
    /// `riseFactor` and `riseDb` (`isRising`).
    let riseFactor: Float, riseDb: Float
    /// Frames of novelty needed after a frame before it can be judged: the longest of
    /// `postMaxMs`, `postMedianMs` and the two frames an attack's level spans.
    let lookahead: Int

    /// Converts the millisecond settings into frames of this geometry.
    /// - Parameters:
    ///   - parameters: values of `PeakPicker.parameters`.
    ///   - geometry: the frames the novelty is computed on.
    public init(parameters: ParameterSet, geometry: FrameGeometry) {
        func frames(_ descriptor: ParameterDescriptor) -> Int {
            Int((parameters.number(descriptor) / 1000 / geometry.hopSeconds).rounded())
        }
        delta = Float(parameters.number(Self.delta))
        weakRiseDb = Float(parameters.number(Self.weakRiseDb))
        strongFactor = Float(parameters.number(Self.strongFactor))
        jumpDb = Float(parameters.number(Self.jumpDb))
        bedJumpDb = Float(parameters.number(Self.bedJumpDb))
        bedRiseSpreads = Float(parameters.number(Self.bedRiseSpreads))
        bedSteadyDb = Float(parameters.number(Self.bedSteadyDb))
        bedSpan = max(1, Int((Self.bedSpanMs / 1000 / geometry.hopSeconds).rounded()))
        block = max(1, Int((Self.blockMs / 1000 * geometry.sampleRate).rounded()))
        blockBefore = Int((Self.blockBeforeMs / 1000 * geometry.sampleRate).rounded())
        halfWindow = geometry.windowLength / 2
        hop = geometry.hop
        preMax = frames(Self.preMaxMs)
        postMax = frames(Self.postMaxMs)
        preMedian = max(1, frames(Self.preMedianMs))
        postMedian = frames(Self.postMedianMs)
        minInterval = parameters.number(Self.minIntervalMs) / 1000
        minRiseDb = Float(parameters.number(Self.minRiseDb))
        riseWindow = max(1, frames(Self.riseWindowMs))
        relativeGateDb = Float(parameters.number(Self.relativeGateDb))
        absoluteFloorDb = Float(parameters.number(Self.absoluteFloorDb))
        swellDb = Float(parameters.number(Self.swellDb))
        swellWindow = max(1, frames(Self.swellWindowMs))
        attackFrames = max(1, frames(Self.swellAttackMs))
        stepDb = Float(parameters.number(Self.stepDb))
        stepRiseDb = Float(parameters.number(Self.stepRiseDb))
        precursorDb = Float(parameters.number(Self.precursorDb))
        lookahead = max(postMax, postMedian, 2)
        decision = parameters.choice(Self.liveDecision, as: LiveDecision.self)
        riseFactor = Float(parameters.number(Self.riseFactor))
        riseDb = Float(parameters.number(Self.riseDb))
    }

    /// When a live stream releases an onset (`PeakPicker.liveDecision`).
    public enum LiveDecision: String, CaseIterable, Sendable {
        /// Once the picker has judged the onset's frame, `lookahead` frames after it.
        case peak
        /// Also on the frame where the onset rises (`isRising`), with no frame after it.
        case rise
    }

    /// Whether frame `k`, the newest (no frame after it is known), already shows an attack a
    /// live stream releases at once (`LiveDecision.rise`): its novelty reaches `riseFactor`
    /// × its causal threshold (the median of the novelty over `preMedianMs` before it and
    /// itself, silence before the signal, + `delta`) and stands above every frame of the
    /// `preMaxMs` before it, and its level rises `riseDb` over the quietest of the
    /// `riseWindowMs` before: rules 1–3 with nothing after the frame. `novelty` and `levels` end at frame `k`.
    func isRising(_ k: Int, novelty: [Float], levels: [Float]) -> Bool {
        let value = novelty[k]
        guard value > 0 else { return false }
        for j in max(0, k - preMax)..<k where novelty[j] >= value { return false }
        guard value >= riseFactor * (causalMedian(at: k, of: novelty) + delta) else { return false }
        let quietest = levels[max(0, k - riseWindow)...k].min()!
        let before = k < riseWindow ? min(quietest, Self.silenceDb) : quietest
        return levels[k] - before >= riseDb
    }

    /// The median of `series` over the `preMedianMs` before index `k` and `k` itself, zeros
    /// standing for what lies before index 0 (sorted on the stack: no allocation).
    func causalMedian(at k: Int, of series: [Float]) -> Float {
        withUnsafeTemporaryAllocation(of: Float.self, capacity: preMedian + 1) { scratch in
            for i in scratch.indices {
                let j = k - preMedian + i
                let value = j >= 0 ? series[j] : 0
                var at = i
                while at > 0, scratch[at - 1] > value {
                    scratch[at] = scratch[at - 1]
                    at -= 1
                }
                scratch[at] = value
            }
            return TactusCore.median(ofSorted: scratch)!
        }
    }

    /// The running median behind the adaptive threshold (local median + delta). The signal
    /// is preceded by silence, whose novelty is zero, so early frames are judged against it
    /// rather than against themselves alone.
    func medianWindow() -> MovingMedian {
        MovingMedian(before: preMedian, after: postMedian)
    }

    /// Whether frame `m` is an onset candidate, given its threshold (local median + `delta`):
    /// a local maximum of the novelty that clears the threshold and whose level rises by
    /// `minRiseDb`, or by `weakRiseDb` when its novelty is under `strongFactor` × the threshold;
    /// or a local maximum under the threshold but above the median where the level jumps by
    /// `jumpDb`, or, over a steady bed, where the attack reaches `bedRiseSpreads` (`bedRise`)
    /// or `blockJump()` (`blockJump(atFrame:in:)`) reaches `bedJumpDb`. A peak that clears the
    /// threshold but fails the rise tests is judged over a bed the same way. `levels` are
    /// frame levels in dB.
    func isPeak(_ m: Int, threshold: Float, novelty: [Float], levels: [Float], blockJump: () -> Float) -> Bool {
        let value = novelty[m]
        let clears = value >= threshold
        guard value > 0, clears || ((jumpDb > 0 || bedJumpDb > 0 || bedRiseSpreads > 0) && value >= threshold - delta)
        else { return false }
        let lo = max(0, m - preMax), hi = min(novelty.count - 1, m + postMax)
        for j in lo...hi where novelty[j] > value || (novelty[j] == value && j < m) { return false }
        guard clears else {
            if jumpDb > 0, jump(at: m, levels: levels) >= jumpDb { return true }
            return isBedHit(m, levels: levels, blockJump: blockJump)
        }
        let rise = rise(at: m, levels: levels)
        if rise >= minRiseDb && (value >= strongFactor * threshold || rise >= weakRiseDb) { return true }
        return isBedHit(m, levels: levels, blockJump: blockJump)
    }

    /// Whether the peak at frame `m` stands out of a steady bed: by `bedRiseSpreads` of the
    /// bed's own spread in frame level, or by `bedJumpDb` in short blocks.
    func isBedHit(_ m: Int, levels: [Float], blockJump: () -> Float) -> Bool {
        guard bedRiseSpreads > 0 || bedJumpDb > 0, isSteadyBed(before: m, levels: levels) else { return false }
        if bedRiseSpreads > 0, bedRise(at: m, levels: levels) >= bedRiseSpreads { return true }
        return bedJumpDb > 0 && blockJump() >= bedJumpDb
    }

    /// Added to the bed's spread, dB: a bed whose frame levels barely move (a steady tone,
    /// digital noise) still asks a rise of `bedRiseSpreads` × this.
    static let bedSpreadFloorDb: Float = 0.5

    /// How far the attack at frame `m` stands above the bed before it (`bed(before:levels:)`),
    /// in units of the bed's spread: (attack level − the bed's median level) ÷ (1.4826 × the
    /// median absolute deviation of its levels + `bedSpreadFloorDb`).
    func bedRise(at m: Int, levels: [Float]) -> Float {
        let bed = bed(before: m, levels: levels)
        // Sorted in place on the stack by insertion: the bed is a few frames (16 at a 10 ms hop).
        let (median, deviation) = withUnsafeTemporaryAllocation(of: Float.self, capacity: bed.count) { scratch in
            func sortScratch() {
                for k in scratch.indices.dropFirst() {
                    let value = scratch[k]
                    var j = k
                    while j > 0, scratch[j - 1] > value {
                        scratch[j] = scratch[j - 1]
                        j -= 1
                    }
                    scratch[j] = value
                }
            }
            _ = scratch.initialize(from: bed)
            sortScratch()
            let median = TactusCore.median(ofSorted: scratch)!
            for k in scratch.indices { scratch[k] = abs(scratch[k] - median) }
            sortScratch()
            return (median, TactusCore.median(ofSorted: scratch)!)
        }
        let spread = 1.4826 * deviation + Self.bedSpreadFloorDb
        return (Self.attackLevel(at: m, levels: levels) - median) / spread
    }

    /// Span before a peak whose frame levels must be steady for the bed tests (`bedJumpDb`,
    /// `bedRiseSpreads`) to apply, ms.
    static let bedSpanMs = 160.0
    /// Length of the blocks `bedJumpDb` compares, ms: short enough that a hit's attack fills
    /// one, long enough (110 samples at 44.1 kHz) that a noise bed's block levels stay within a
    /// few dB of its mean.
    static let blockMs = 2.5
    /// Span before a peak's frame whose loudest block is the bed's level, ms.
    static let blockBeforeMs = 60.0

    /// Samples of history the short-block test needs behind a frame centre.
    var blockReach: Int { blockBefore + halfWindow }

    /// The short-block jump of frame `m`: the loudest `blockMs` block of the frame's span and
    /// the hop after it over the loudest block of the `blockBeforeMs` before (`BlockLevels.jump`).
    func blockJump(atFrame m: Int, in history: SampleHistory) -> Float {
        let centre = m * hop
        return BlockLevels.jump(in: history, from: centre - halfWindow, to: centre + halfWindow + hop,
                                before: blockBefore, block: block)
    }

    /// The frame levels the bed tests judge a peak at frame `m` against: the `bedSpanMs` of
    /// frames before frame `m − 1` (which may hold the attack). `m` must exceed `bedSpan`.
    func bed(before m: Int, levels: [Float]) -> ArraySlice<Float> {
        levels[(m - 1 - bedSpan)..<(m - 1)]
    }

    /// Whether the bed before frame `m` (`bed(before:levels:)`) stays within `bedSteadyDb`
    /// of itself and above `absoluteFloorDb`: a bed, not silence and not a sound that is
    /// still changing.
    func isSteadyBed(before m: Int, levels: [Float]) -> Bool {
        guard m > bedSpan else { return false }
        let bed = bed(before: m, levels: levels)
        let quietest = bed.min()!
        return quietest >= absoluteFloorDb && bed.max()! - quietest <= bedSteadyDb
    }

    /// Level gained suddenly at frame `m`: the loudest of it and the next two frames over the
    /// loudest of the three before frame `m − 1` (silence before the signal starts). Frame
    /// `m − 1` is skipped: with windows overlapping by half it already holds part of the
    /// attack. Unlike `rise`, a frame a little after an attack gains nothing, so it cannot pass
    /// for a second onset.
    func jump(at m: Int, levels: [Float]) -> Float {
        let after = Self.attackLevel(at: m, levels: levels)
        let before = m >= 4 ? levels[(m - 4)..<(m - 1)].max()! : Self.silenceDb
        return after - before
    }

    /// Level gained at frame `m`: the loudest of the next few frames over the quietest before
    /// (silence, when the window reaches back before the signal starts).
    func rise(at m: Int, levels: [Float]) -> Float {
        let after = Self.attackLevel(at: m, levels: levels)
        let quietest = levels[max(0, m - riseWindow)...m].min()!
        let before = m < riseWindow ? min(quietest, Self.silenceDb) : quietest
        return after - before
    }

    /// The level of an attack detected at frame `m`: the loudest of that frame and the next two
    /// (the attack's frames, as far as the signal goes). `levels` are frame levels in dB.
    static func attackLevel(at m: Int, levels: [Float]) -> Float {
        levels[m...min(levels.count - 1, m + 2)].max()!
    }

    /// The level of silence: frame levels are floored here.
    static let silenceDb: Float = -120

    /// Whether an onset at frame `m` whose attack is at `levelDb` passes the silence gates
    /// (given the file's loudest frame) and is an attack rather than the start of a swell.
    ///
    /// A swell is an onset whose first `swellAttackMs` stay `swellDb` below the loudest level
    /// of the `swellWindowMs` after it, unless it starts as a step: a sound that comes in at
    /// its own level out of a quiet it stands `stepRiseDb` above (a fade-in climbs through
    /// its first frames instead) is an attack however much louder it grows later.
    func passesGates(frame m: Int, levelDb: Float, loudestDb: Float, levels: [Float]) -> Bool {
        guard levelDb >= absoluteFloorDb, levelDb >= loudestDb - relativeGateDb else { return false }
        guard swellDb > 0 else { return true }
        let attack = levels[m...min(levels.count - 1, m + attackFrames)].max()!
        let swell = levels[m...min(levels.count - 1, m + swellWindow)].max()!
        return attack >= swell - swellDb || isStep(at: m, attackDb: attack, levels: levels)
    }

    /// The onsets among `candidates` (the peaks `isPeak` accepted, in time order, each with its
    /// attack level): those that pass the gates (`passesGates`), at least `minIntervalMs` apart,
    /// where a faint precursor gives way to the hit after it (`isPrecursor`). `levels` are the
    /// whole file's frame levels in dB.
    func onsets(from candidates: [DetectedOnset], levels: [Float]) -> [DetectedOnset] {
        let loudest = levels.max() ?? Self.silenceDb
        var kept: [DetectedOnset] = []
        for onset in candidates
        where passesGates(frame: onset.frame, levelDb: onset.levelDb, loudestDb: loudest, levels: levels) {
            guard let last = kept.last, onset.time - last.time < minInterval else {
                kept.append(onset)
                continue
            }
            // Kept onsets stay `minInterval` apart, so the hit lies further from the onset kept
            // before the precursor than the precursor did.
            if isPrecursor(last, of: onset, levels: levels) { kept[kept.count - 1] = onset }
        }
        return kept
    }

    /// Whether `earlier`, less than `minIntervalMs` before `later`, is a faint precursor of it
    /// that should give way: `later`'s attack `precursorDb` louder, and `earlier` not a step
    /// (its `jump` under `stepRiseDb`, as `isStep` measures a sound's start).
    func isPrecursor(_ earlier: DetectedOnset, of later: DetectedOnset, levels: [Float]) -> Bool {
        precursorDb > 0 && later.levelDb >= earlier.levelDb + precursorDb
            && jump(at: earlier.frame, levels: levels) < stepRiseDb
    }

    /// Whether the onset at frame `m` starts as a step: its first two frames within `stepDb` of
    /// `attackDb` (the loudest of its first `swellAttackMs`), and a `jump` of `stepRiseDb`.
    func isStep(at m: Int, attackDb: Float, levels: [Float]) -> Bool {
        guard stepDb > 0 else { return false }
        let start = levels[m...min(levels.count - 1, m + 1)].max()!
        return start >= attackDb - stepDb && jump(at: m, levels: levels) >= stepRiseDb
    }
}
