import TactusCore

/// An onset found in the signal, already moved onto its attack.
public struct DetectedOnset: Equatable, Sendable {
    /// Attack start in seconds (sample-accurate).
    public var time: Double
    /// Attack start as a sample index.
    public var sample: Int
    /// Frame whose novelty peak detected it.
    public var frame: Int
    /// Novelty at that frame.
    public var strength: Float
    /// Threshold the novelty had to exceed there.
    public var threshold: Float
    /// Frame level (dBFS) of the attack, the loudest of the detecting frame and the two after.
    public var levelDb: Float
    /// Peak absolute sample value of the attack, in dBFS.
    public var peakDb: Float
}

/// Runs an onset method over the frames, picks peaks with a short look-ahead and places
/// each onset on its attack while the waveform is still in a short history buffer.
public final class OnsetDetector: FrameAnalyzer {
    /// The id of the method's novelty in `AnalysisResult.features`.
    public static let noveltyOutput = "onset.novelty"
    /// The id of the peak picker's threshold in `AnalysisResult.features`.
    public static let thresholdOutput = "onset.threshold"
    public static let outputDescriptors = [
        FeatureDescriptor(id: noveltyOutput, unit: "novelty",
                          description: "The onset method's novelty: high where a new sound starts (its own scale, e.g. dB per band).",
                          decimals: 3),
        FeatureDescriptor(id: thresholdOutput, unit: "novelty",
                          description: "The adaptive threshold a novelty peak must exceed (local median + delta).", decimals: 3),
    ]
    /// Largest number of samples `append(samples:)` takes at once.
    public static let maxChunk = 1024

    /// Everything that changes as frames arrive, in one value, so exclusive access is
    /// checked once per call rather than on every use of a class's stored property; and not
    /// checked at all (`@exclusivity(unchecked)`, as `SpectralFrame`'s state): a detector is
    /// used by one thread and no access to `state` is nested in another.
    @exclusivity(unchecked) private var state: State

    /// Silence the methods see before the first frame. A method compares each frame with
    /// earlier ones and has none at the start, so without it a sound that begins at sample
    /// 0 (a one-shot trimmed to its attack) was never an onset. It covers the longest
    /// reference lag a method takes (SuperFlux's `lagMs` ≤ 50).
    static let leadInSeconds = 0.05

    /// - Parameters:
    ///   - method: the onset method, fresh (it is first fed `leadInSeconds` of silence).
    ///   - picker: the peak picker.
    ///   - locator: places each onset on its attack.
    ///   - geometry: the frames' geometry, the same the other parts were made with.
    ///   - live: judge as a live stream does (`LiveRelease`): bounded memory, each onset
    ///     released through `release(_:)` as soon as its frame is judged, the file-level rules
    ///     applied to what has been seen; `finish()` and `outputs` then hold nothing.
    public init(method: any OnsetMethod, picker: PeakPicker, locator: AttackLocator, geometry: FrameGeometry,
                live: Bool) {
        var method = method
        let silence = SpectralFrame(windowLength: geometry.windowLength, binCount: geometry.fftSize / 2 + 1,
                                    sampleRate: geometry.sampleRate, fftSize: geometry.fftSize)
        for _ in 0...Int((Self.leadInSeconds / geometry.hopSeconds).rounded(.up)) { _ = method.novelty(of: silence) }
        state = State(method: method, picker: picker, locator: locator, geometry: geometry,
                      history: SampleHistory(capacity: max(locator.reach, picker.blockReach) + (picker.lookahead + 4) * geometry.hop
                                                 + geometry.windowLength + Self.maxChunk),
                      median: picker.medianWindow(),
                      scratch: Array(repeating: 0, count: locator.reach),
                      live: live ? LiveRelease(picker: picker) : nil)
        // Live, the arrays never grow past twice what is kept: room for that now, not on the audio thread.
        if let keep = state.live?.keep { reserveCapacity(frames: 2 * keep) }
    }

    /// Feeds the raw mono samples (at most `maxChunk` at a time); call before pushing the
    /// same samples through the STFT.
    /// - Parameter samples: the next raw mono samples, at most `maxChunk`.
    public func append(samples: UnsafeBufferPointer<Float>) {
        precondition(samples.count <= Self.maxChunk)
        state.history.append(samples)
    }

    public func process(_ frame: SpectralFrame) {
        state.process(frame)
    }

    public func reserveCapacity(frames: Int) {
        state.novelty.reserveCapacity(frames)
        state.thresholds.reserveCapacity(frames)
        state.levels.reserveCapacity(frames)
    }

    /// Judges the frames left at the end of the signal, applies the file-level gates, then
    /// the minimum interval between the onsets that pass them (where a faint precursor gives
    /// way to the hit after it: `PeakPicker.isPrecursor`).
    /// - Returns: the onsets in time order, each on its attack.
    public func finish() -> [DetectedOnset] {
        state.finish()
    }

    /// Frames a frame waits for before it is judged (`PeakPicker.lookahead`).
    public var lookahead: Int { state.picker.lookahead }

    /// Live only: hands over the onsets released since the last call, in time order, and
    /// forgets them (no allocation).
    /// - Parameter body: called with each released onset.
    public func release(_ body: (DetectedOnset) -> Void) {
        guard state.live != nil else { return }
        for onset in state.live!.released { body(onset) }
        state.live!.released.removeAll(keepingCapacity: true)
    }

    public var outputs: [String: [Float]] {
        [Self.noveltyOutput: state.novelty, Self.thresholdOutput: state.thresholds]
    }
}

extension OnsetDetector {
    private struct State {
        var method: any OnsetMethod
        let picker: PeakPicker
        let locator: AttackLocator
        let geometry: FrameGeometry
        var history: SampleHistory
        var median: MovingMedian
        var novelty: [Float] = []
        var thresholds: [Float] = []
        var levels: [Float] = []
        var judged = 0
        /// Frames dropped from the start of `novelty`, `thresholds` and `levels` (live only):
        /// index i holds frame `dropped + i`.
        var dropped = 0
        /// The waveform `locator` reads, copied here (`locator.reach` samples).
        var scratch: [Float]
        /// The last candidate's attack sample: the next one is placed after it.
        var lastCandidate: Int?
        /// Live only: the file-level rules as far as the signal has come, and the released onsets.
        var live: LiveRelease?
        /// Every peak `isPeak` accepts, placed on its attack. The gates need the whole file (its
        /// loudest frame, a swell's later level), and the minimum interval is kept between the
        /// onsets that pass them, so both wait for `finish`: a peak the gates refuse (a faint
        /// tick under the relative gate, a swell's start) must not hold back the hit after it.
        var candidates: [DetectedOnset] = []

        mutating func process(_ frame: SpectralFrame) {
            novelty.append(method.novelty(of: frame))
            levels.append(frame.levelDb)
            if let loudest = live?.loudest { live!.loudest = max(loudest, frame.levelDb) }
            while judged + picker.lookahead < novelty.count { judge(judged) }
            if live != nil, picker.decision == .rise { releaseIfRising(novelty.count - 1) }
            if let keep = live?.keep, novelty.count >= 2 * keep { dropFrames(novelty.count - keep) }
        }

        mutating func finish() -> [DetectedOnset] {
            while judged < novelty.count { judge(judged) }
            return live == nil ? picker.onsets(from: candidates, levels: levels) : []
        }

        /// Forgets the oldest `k` frames (moving the rest down, within the arrays' capacity).
        private mutating func dropFrames(_ k: Int) {
            novelty.removeFirst(k)
            levels.removeFirst(k)
            thresholds.removeFirst(k)
            median.dropFirst(k)
            judged -= k
            dropped += k
        }

        private mutating func judge(_ m: Int) {
            judged += 1
            thresholds.append(median.median(at: m, of: novelty) + picker.delta)
            let frame = dropped + m
            let (history, locator, centre) = (history, locator, frame * geometry.hop)
            guard picker.isPeak(m, threshold: thresholds[m], novelty: novelty, levels: levels,
                                blockJump: { picker.blockJump(atFrame: frame, in: history) }) else { return }
            let notBefore = lastCandidate.map { $0 + 1 } ?? 0
            let attack = scratch.withUnsafeMutableBufferPointer {
                locator.locate(centre: centre, notBefore: notBefore, in: history, scratch: $0)
            }
            lastCandidate = attack.sample
            let time = Double(attack.sample) / geometry.sampleRate
            let level = PeakPicker.attackLevel(at: m, levels: levels)
            let onset = DetectedOnset(time: time, sample: attack.sample, frame: frame, strength: novelty[m],
                                      threshold: thresholds[m], levelDb: level, peakDb: decibels(amplitude: attack.peak))
            if live == nil {
                candidates.append(onset)
            } else if picker.passesGates(frame: m, levelDb: level, loudestDb: live!.loudest, levels: levels) {
                live!.admit(onset, minInterval: picker.minInterval)
            }
        }

        /// Live, `LiveDecision.rise`: releases the newest frame `k` at once when it rises as a
        /// strong onset does (`PeakPicker.isRising`) and passes the silence gates, its attack
        /// placed on the waveform heard up to the frame's end. The picker's onset for the same
        /// attack, judged `lookahead` frames later, then falls within the minimum interval
        /// and is not released again.
        private mutating func releaseIfRising(_ k: Int) {
            guard picker.isRising(k, novelty: novelty, levels: levels),
                  picker.passesGates(frame: k, levelDb: levels[k], loudestDb: live!.loudest, levels: levels)
            else { return }
            let frame = dropped + k
            let (history, locator, centre) = (history, locator, frame * geometry.hop)
            let (notBefore, end) = (lastCandidate.map { $0 + 1 } ?? 0, centre + geometry.windowLength - geometry.windowLength / 2)
            let attack = scratch.withUnsafeMutableBufferPointer {
                locator.locate(centre: centre, notBefore: notBefore, end: end, in: history, scratch: $0)
            }
            live!.admit(DetectedOnset(time: Double(attack.sample) / geometry.sampleRate, sample: attack.sample, frame: frame,
                                      strength: novelty[k], threshold: picker.causalMedian(at: k, of: novelty) + picker.delta, levelDb: levels[k],
                                      peakDb: decibels(amplitude: attack.peak)),
                        minInterval: picker.minInterval)
        }
    }

    /// The file-level rules (`PeakPicker`, rules 6–8) as a live stream applies them when a
    /// frame is judged, `lookahead` frames after it: the relative gate against the loudest
    /// frame so far (look-ahead included), the swell gate over the frames seen after the onset
    /// (at most `lookahead`, so a swell longer than that passes), and the minimum interval
    /// keeping the first onset (a released onset cannot give way to a louder hit after it,
    /// so there is no precursor rule).
    struct LiveRelease {
        /// Frames kept behind the newest: the look-ahead and the longest reach back of the
        /// rules (the median, the maximum, the rise window, the bed), with room to spare.
        let keep: Int
        var loudest = PeakPicker.silenceDb
        var lastReleased: Double?
        var released: [DetectedOnset] = []

        init(picker: PeakPicker) {
            keep = picker.lookahead + max(picker.preMax, picker.preMedian + 1, picker.riseWindow, picker.bedSpan + 1, 4) + 2
            released.reserveCapacity(8)
        }

        mutating func admit(_ onset: DetectedOnset, minInterval: Double) {
            if let last = lastReleased, onset.time - last < minInterval { return }
            lastReleased = onset.time
            released.append(onset)
        }
    }
}

