import TactusAnalysis
import TactusCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `HapticMapper` for a live stream: frame by frame, with only what has been heard so far.
///
/// Offline, the mapper knows the whole sound before it maps a frame; live, the body is decided
/// `delayFrames` after its frame (`LiveHaptics` passes the onsets' look-ahead, so body and
/// transients are known equally late), every file-level quantity is the one known at the
/// newest frame, and the result converges on the offline one once the sound's loudest part
/// has passed:
/// - the level reference (`perFile`, `loudness`) is the loudest frame so far, not the file's:
///   a sound that grows louder (a swell, a crescendo) plays its start louder than offline;
/// - the strength (`loudness`) comes from the loudest momentary loudness (BS.1770, 400 ms) so
///   far, the block in progress counted with the energy it holds (a lower bound of its read),
///   so a sound's first frames play weaker than offline until its energy is in;
/// - regions follow `HapticMapper.gatedSpans` on the frames known: a gap of up to `mergeGapMs`
///   is bridged only when its next loud frame is within the delay, a span shorter than
///   `minRegionMs` is dropped only when its end is; a region does not start on a frame whose
///   hop up to its centre is silent (offline it starts at the sound's first sample, after
///   that centre), and one that runs across the silence before a later sound is not cut there;
/// - the intensity curve is the follower's value at every frame (offline it is simplified
///   within `tolerance`);
/// - the body's sharpness (`weightedCentroid`) is placed from the power-weighted mean log2
///   centroid of the audible frames so far (a running reference), and smoothed forwards
///   only (offline smooths forwards and back, without lag).
/// Transients use the offline arithmetic (`HapticMapper.transient`) over the attack window's
/// frames. `BENCHMARKS.md` ("Live") measures how far the result is from offline.
///
/// After `init` nothing allocates: the frames a transient or the delayed body reads are kept in
/// fixed rings.
public final class LiveMapper {
    /// A value of the body: what plays from frame `frame` on.
    public struct Body: Equatable, Sendable {
        /// The frame, centred at `frame × hop`.
        public var frame: Int
        /// 0…1; 0 when the body stops.
        public var intensity: Double
        /// 0…1.
        public var sharpness: Double
    }

    private let mapper: HapticMapper
    private var settings: MappingSettings { mapper.settings }
    private let hop: Double
    private let rise: Float, fall: Float
    /// The sharpness follower's step (`smoothingMs` both ways).
    private let sharpStep: Float
    /// Frames kept for transients, and the rings: level dBFS, attack brightness inputs and the
    /// body's brightness, frame k at `k % capacity`.
    private let capacity: Int
    @exclusivity(unchecked) private var levels: [Float]
    @exclusivity(unchecked) private var weighted: [Float]
    @exclusivity(unchecked) private var bodyBrightness: [Float]
    /// The largest sample magnitude of the hop up to each frame's centre, and of all so far.
    @exclusivity(unchecked) private var peaksBefore: [Float]
    @exclusivity(unchecked) private var samplePeak: Float = 0
    @exclusivity(unchecked) private var frames = 0
    @exclusivity(unchecked) private var loudest: Float = -120
    @exclusivity(unchecked) private var smoothed: Float?
    @exclusivity(unchecked) private var playing = false
    /// A span long enough to play began on a frame before a sound's start: it plays from the next.
    @exclusivity(unchecked) private var startsNext = false
    /// The last frame over the gate that the body has passed (−1: none yet).
    @exclusivity(unchecked) private var lastLoud = -1
    /// Frames the body waits before it decides a frame (`delayFrames`).
    private let delay: Int
    /// Frames joined across a gap and the frames a region must outlast (`mergeGapMs`,
    /// `minRegionMs`), in hops.
    private let mergeGap: Int, minLength: Int
    /// Running power-weighted sums over the audible frames: log2 centroid, its weight, and
    /// the low-weight penalty with its weight.
    @exclusivity(unchecked) private var octaveSum = 0.0, octaveWeight = 0.0, penaltySum = 0.0, penaltyWeight = 0.0
    @exclusivity(unchecked) private var heldLog2: Double?
    @exclusivity(unchecked) private var smoothedBrightness: Float?

    /// - Parameters:
    ///   - mapper: the preset's mapper (its settings).
    ///   - hopSeconds: seconds between frames.
    ///   - historyFrames: frames a transient may reach back from the newest frame (the
    ///     analysis's look-ahead and the attack's placement before its frame).
    ///   - delayFrames: frames the body waits before it decides a frame (at most
    ///     `historyFrames` − 1): the frames after it tell a gap to bridge and a span too short
    ///     to play, up to that horizon.
    public init(mapper: HapticMapper, hopSeconds: Double, historyFrames: Int, delayFrames: Int = 0) {
        self.mapper = mapper
        hop = hopSeconds
        let intensity = mapper.settings.intensity, sharpness = mapper.settings.sharpness
        delay = max(0, min(delayFrames, historyFrames - 1))
        mergeGap = Int(intensity.mergeGapMs / 1000 / hopSeconds)
        minLength = Int(intensity.minRegionMs / 1000 / hopSeconds)
        rise = Float(EnvelopeFollower.coefficient(ms: intensity.attackMs, step: hopSeconds))
        fall = Float(EnvelopeFollower.coefficient(ms: intensity.releaseMs, step: hopSeconds))
        sharpStep = Float(EnvelopeFollower.coefficient(ms: sharpness.smoothingMs, step: hopSeconds))
        capacity = max(1, historyFrames)
        levels = Array(repeating: -120, count: capacity)
        weighted = Array(repeating: 0, count: capacity)
        bodyBrightness = Array(repeating: 0, count: capacity)
        peaksBefore = Array(repeating: 0, count: capacity)
    }

    /// The sound's strength (`mapping.loudness`) from the loudest momentary loudness so far.
    /// - Parameter loudestLufs: the loudest momentary loudness read so far, LUFS.
    /// - Returns: a factor on every intensity, 0…1.
    public func gain(loudestLufs: Double) -> Double {
        settings.loudness.strength?(loudestLufs) ?? 1
    }

    /// Whether anything plays yet: the loudest frame so far reaches `mapping.loudness.silenceDb`.
    public var isAudible: Bool { Double(loudest) >= settings.loudness.silenceDb }

    private var reference: Float { settings.loudness.perFile ? loudest : 0 }

    /// Maps the next frame (frames in order from 0) and decides the body `delayFrames` before it.
    /// - Parameters:
    ///   - levelDb: its RMS level, dBFS.
    ///   - centroidHz: its magnitude centroid, Hz (0 when silent).
    ///   - weightedOctaves: its weighted centroid, log2 Hz (0 when silent).
    ///   - peakBefore: the largest sample magnitude of the hop up to its centre (included), 0…1.
    ///   - gain: the strength (`gain(loudestLufs:)`).
    /// - Returns: what the body plays from frame `delayFrames` before this one: nil while
    ///   nothing plays, an intensity of 0 on the frame where it stops.
    public func frame(levelDb: Float, centroidHz: Float, weightedOctaves: Float, peakBefore: Float, gain: Double) -> Body? {
        let k = frames
        frames += 1
        loudest = max(loudest, levelDb)
        samplePeak = max(samplePeak, peakBefore)
        peaksBefore[k % capacity] = peakBefore
        levels[k % capacity] = levelDb
        weighted[k % capacity] = weightedOctaves
        bodyBrightness[k % capacity] = bodyBrightness(relative: levelDb - reference, centroidHz: centroidHz,
                                                      weightedOctaves: weightedOctaves)
        return k >= delay ? body(at: k - delay, gain: gain) : nil
    }

    /// After the last frame: the bodies of the frames still waiting for `delayFrames` frames,
    /// as if silence followed.
    /// - Parameters:
    ///   - gain: the strength (`gain(loudestLufs:)`).
    ///   - body: called with each, in order.
    public func finish(gain: Double, _ body: (Body) -> Void) {
        for j in max(0, frames - delay)..<frames {
            if let value = self.body(at: j, gain: gain) { body(value) }
        }
    }

    /// The body at frame `j` from the frames up to the newest (`frames` − 1), in order from 0.
    ///
    /// As offline (`HapticMapper.gatedSpans`), a region spans the frames over the gate and one
    /// more, is joined to the next across a gap of up to `mergeGap` frames and plays only when
    /// longer than `minLength` frames; a span beginning on a frame before a sound's start
    /// (`beforeSoundStart`) plays from the next frame. Each is judged on the frames known: a gap
    /// whose next loud frame lies past the newest ends the region, and a span starts when it is
    /// longer than `minLength` within them or still loud at the newest.
    private func body(at j: Int, gain: Double) -> Body? {
        let intensity = settings.intensity
        let value = level(ofFrame: j)
        var s = smoothed ?? value
        s += (value > s ? rise : fall) * (value - s)
        smoothed = s
        guard isAudible, intensity.enabled else { return nil }
        let gate = Float(intensity.gate), newest = frames - 1
        let wasPlaying = playing
        if startsNext { (playing, startsNext) = (true, false) }
        if value > gate {
            if !playing {
                let last = spanLastLoud(from: j, newest: newest)
                if last == newest || last + 2 - j > max(1, minLength) {
                    if beforeSoundStart(j) { startsNext = true } else { playing = true }
                }
            }
            lastLoud = j
        } else if playing, j > lastLoud + 1 {
            // Bridged while a loud frame follows within the gap (the frame after a region's
            // last loud one is its own).
            playing = nextLoud(after: j, through: min(newest, lastLoud + 2 + mergeGap)) != nil
        }
        let sharpness = bodySharpness(bodyBrightness[j % capacity])
        if playing { return Body(frame: j, intensity: gain * Double(s), sharpness: sharpness) }
        return wasPlaying ? Body(frame: j, intensity: 0, sharpness: sharpness) : nil
    }

    /// Whether the hop up to frame `k`'s centre is silent (every sample more than
    /// `SoundStarts.audibleBelowPeakDb` under the loudest so far): a sound starting after that
    /// centre starts the region offline, at the next frame's value (`HapticMapper.pieces`).
    private func beforeSoundStart(_ k: Int) -> Bool {
        peaksBefore[k % capacity] < samplePeak * Float(pow(10, -SoundStarts.audibleBelowPeakDb / 20))
    }

    /// Frame `k`'s intensity before smoothing, against the reference as it stands now.
    private func level(ofFrame k: Int) -> Float {
        let intensity = settings.intensity
        return Float(intensity.maxIntensity * intensity.level(Double(levels[k % capacity] - reference)))
    }

    /// The first frame over the gate after `j`, up to `last`.
    private func nextLoud(after j: Int, through last: Int) -> Int? {
        guard j < last else { return nil }
        let gate = Float(settings.intensity.gate)
        return (j + 1...last).first { level(ofFrame: $0) > gate }
    }

    /// The last loud frame of the span frame `start` (over the gate) begins, joined across
    /// gaps, within the frames up to `newest`.
    private func spanLastLoud(from start: Int, newest: Int) -> Int {
        var last = start
        while let next = nextLoud(after: last, through: min(newest, last + 2 + mergeGap)) { last = next }
        return last
    }

    /// The body's brightness at this frame, in the units it is smoothed in (octaves from the
    /// running mean, or sharpness for `centroid`), held through frames too quiet to have one.
    private func bodyBrightness(relative: Float, centroidHz: Float, weightedOctaves: Float) -> Float {
        let sharpness = settings.sharpness
        let audible = relative > Float(settings.intensity.floorDb) && centroidHz > 0
        var value: Float?
        switch sharpness.from {
        case .weightedCentroid:
            if audible {
                let power = pow(10, Double(relative) / 10), logCentroid = log2(Double(centroidHz))
                octaveSum += power * logCentroid
                octaveWeight += power
                heldLog2 = logCentroid
                if weightedOctaves > 0 {
                    penaltySum += power * (logCentroid - Double(weightedOctaves))
                    penaltyWeight += power
                }
            }
            if let held = heldLog2 { value = Float(held - octaveSum / octaveWeight) }
        case .centroid:
            if audible { heldLog2 = Double(centroidHz) }
            if let held = heldLog2 { value = Float(sharpness.hz(held)) }
        }
        guard let value else { return smoothedBrightness ?? 0 }
        var s = smoothedBrightness ?? value
        s += sharpStep * (value - s)
        smoothedBrightness = s
        return s
    }

    /// The sound's place (`weightedCentroid`) from the running sums, as `HapticMapper` takes it
    /// from the whole sound's: the mean log2 centroid less the weight in the lows.
    private func place() -> Double {
        let sharpness = settings.sharpness
        let mean = octaveWeight > 0 ? octaveSum / octaveWeight : 0
        let lowWeight = penaltyWeight > 0 ? sharpness.lowWeightScale * penaltySum / penaltyWeight : 0
        return sharpness.placed.place(mean - lowWeight)
    }

    private func bodySharpness(_ brightness: Float) -> Double {
        let sharpness = settings.sharpness
        switch sharpness.from {
        case .weightedCentroid: return sharpness.placed.sharpness(place: place(), octaves: Double(brightness))
        case .centroid: return Double(brightness)
        }
    }

    /// The transient of an onset at `time`, from the frames mapped so far (`HapticMapper.transient`
    /// over the attack window, clipped to them); nil while nothing is audible or transients are off.
    /// - Parameters:
    ///   - time: the onset's attack, seconds.
    ///   - gain: the strength (`gain(loudestLufs:)`).
    /// - Returns: its intensity and sharpness, 0…1.
    public func transient(at time: Double, gain: Double) -> HapticTrack.Transient? {
        guard isAudible, settings.transients.enabled, frames > 0 else { return nil }
        let range = HapticMapper.frameRange(from: time, to: time + settings.transients.attackWindow, hop: hop, count: frames)
        let first = max(range.lowerBound, frames - capacity)
        let (reference, transients) = (reference, settings.transients)
        return mapper.transient(at: time, frames: min(first, range.upperBound)...range.upperBound, gain: gain,
                                relativeLevel: { levels[$0 % capacity] - reference }) { k in
            switch transients.sharpnessFrom {
            case .weightedCentroid:
                let octaves = weighted[k % capacity]
                return octaves > 0 ? Float(transients.octaves(Double(octaves))) : 0
            case .centroid:
                return Float(bodySharpness(bodyBrightness[k % capacity]))
            }
        }
    }
}
