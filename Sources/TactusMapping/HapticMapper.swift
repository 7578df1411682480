import TactusAnalysis
import TactusCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns analysis features into a format-free `HapticTrack`: transients at the onsets, a
/// gated continuous intensity that follows the loudness envelope, and sharpness that
/// follows brightness.
public struct HapticMapper {
    /// The parts' parameters, read once.
    let settings: MappingSettings

    /// A mapper with the mapping sections' parameters (`mapping.loudness`, `mapping.transients`,
    /// `mapping.intensity`, `mapping.sharpness`), read here once.
    /// - Parameters:
    ///   - loudness: `LoudnessSettings` values (how the sound's level sets the strength).
    ///   - transients: `TransientSettings` values.
    ///   - intensity: `IntensitySettings` values.
    ///   - sharpness: `SharpnessSettings` values.
    public init(loudness: ParameterSet, transients: ParameterSet, intensity: ParameterSet, sharpness: ParameterSet) {
        settings = MappingSettings(loudness: .init(loudness), transients: .init(transients),
                                   intensity: .init(intensity), sharpness: .init(sharpness))
    }

    /// The per-frame features `map` reads (`AnalysisResult.features`); the others may be
    /// dropped before mapping.
    public static let inputs: Set<String> = [LevelAnalyzer.output, CentroidAnalyzer.output, CentroidAnalyzer.weightedOutput]

    /// The track `analysis` maps to.
    /// - Parameter analysis: the analysis of one sound (at least the features in `inputs`).
    /// - Returns: the track: transients at the onsets, continuous regions that follow the
    ///   loudness and brightness; values 0…1, times in seconds.
    /// - Throws: `AnalysisResult.MissingFeature` when a feature in `inputs` is missing.
    public func map(_ analysis: AnalysisResult) throws -> HapticTrack {
        map(try MappingInput(analysis))
    }

    /// The track `input` maps to.
    /// - Parameter input: the features of one sound.
    /// - Returns: the track: transients at the onsets, continuous regions that follow the
    ///   loudness and brightness; values 0…1, times in seconds.
    public func map(_ input: MappingInput) -> HapticTrack {
        // Per-frame arrays stay Float and few: an hour of audio has 360,000 frames.
        let levels = input.levelsDb
        let loudest = Double(levels.max() ?? -120)
        var track = HapticTrack(duration: input.duration)
        guard loudest >= settings.loudness.silenceDb else { return track }
        let reference = Float(settings.loudness.perFile ? loudest : 0)
        let relative = levels.map { $0 - reference }
        let brightness = bodyBrightness(input, relativeLevels: relative)
        let gain = settings.loudness.strength?(input.loudestMomentaryLufs) ?? 1
        if settings.transients.enabled {
            track.transients = mapTransients(input, relativeLevels: relative, brightness: brightness, gain: gain)
        }
        if settings.intensity.enabled {
            track.regions = mapRegions(input, relativeLevels: relative, brightness: brightness, gain: gain)
        }
        return track
    }

    // MARK: Transients

    private func mapTransients(_ input: MappingInput, relativeLevels: [Float],
                               brightness: BodyBrightness, gain: Double) -> [HapticTrack.Transient] {
        let transients = settings.transients
        let window = transients.attackWindow
        // What the attack's sharpness is measured on, at frame k, in 0…1 (read only at the
        // attacks' frames, so no per-frame array is made for it).
        let attackBrightness: (Int) -> Float
        switch transients.sharpnessFrom {
        case .weightedCentroid:
            let scale = transients.octaves
            let weightedOctaves = input.weightedOctaves
            attackBrightness = { k in
                let octaves = weightedOctaves[k]
                return octaves > 0 ? Float(scale(Double(octaves))) : 0
            }
        case .centroid:
            attackBrightness = { brightness.sharpness(atFrame: $0) }
        }
        return input.onsets.map { time in
            let frames = Self.frameRange(from: time, to: time + window, hop: input.hopSeconds, count: input.levelsDb.count)
            return transient(at: time, frames: frames, gain: gain, relativeLevel: { relativeLevels[$0] },
                             brightness: attackBrightness)
        }
    }

    /// The transient of an onset at `time`: its intensity from the loudest of `frames` (the
    /// attack window's), its sharpness from their brightness weighted by each frame's power,
    /// so the loudest part speaks.
    /// - Parameters:
    ///   - time: the onset, seconds.
    ///   - frames: the frames of the attack window (`frameRange`).
    ///   - relativeLevel: frame k's level against the reference, dB.
    ///   - brightness: frame k's attack brightness, 0…1.
    ///   - gain: the sound's strength, a factor on the intensity.
    func transient(at time: Double, frames: ClosedRange<Int>, gain: Double, relativeLevel: (Int) -> Float,
                   brightness: (Int) -> Float) -> HapticTrack.Transient {
        let transients = settings.transients
        let scale = transients.level
        let low = transients.minIntensity, high = transients.maxIntensity
        // A loop, not `map`: a live stream maps transients on its audio thread, without allocating.
        var loudest: Float = -.infinity
        for k in frames { loudest = max(loudest, relativeLevel(k)) }
        let level = Double(loudest)
        var weighted = 0.0, total = 0.0
        for k in frames {
            let w = pow(10, Double(relativeLevel(k)) / 10)
            weighted += w * Double(brightness(k))
            total += w
        }
        let sharp = total > 0 ? weighted / total : Double(brightness(frames.lowerBound))
        return HapticTrack.Transient(time: time, intensity: gain * (low + (high - low) * scale(level)), sharpness: sharp)
    }

    /// Frames whose centres fall in `from…to`, at least one, of the first `count` (at least 1).
    /// - Parameters:
    ///   - from: the span's start, seconds.
    ///   - to: its end, seconds.
    ///   - hop: seconds between frame centres.
    ///   - count: the frames there are.
    static func frameRange(from: Double, to: Double, hop: Double, count: Int) -> ClosedRange<Int> {
        let first = min(count - 1, max(0, Int((from / hop).rounded(.up))))
        let last = min(count - 1, max(first, Int((to / hop).rounded(.down))))
        return first...last
    }

    // MARK: Sharpness

    /// The body's brightness per frame, in the units its curve is simplified in, and the map
    /// from those units onto sharpness 0…1.
    private struct BodyBrightness {
        /// Per frame: held through frames too quiet to have a meaningful brightness, smoothed.
        var frames: [Float]
        /// The brightness at frame k as sharpness 0…1.
        var sharpness: (Double) -> Double
        /// The simplified curve's largest error, in the units of `frames`.
        var tolerance: Double

        func sharpness(atFrame k: Int) -> Float { Float(sharpness(Double(frames[k]))) }
    }

    /// The brightness `mapping.sharpness.from` names, per frame.
    ///
    /// weightedCentroid: each frame's log2 centroid (octaves), mapped by `PlacedScale` from the
    /// sound's place and the frame's move from the sound's mean. The mean is the power-weighted
    /// mean log2 centroid over the sound's audible frames; the place comes from that mean less the
    /// sound's weight in the lows, `lowWeightScale` × the power-weighted mean over the same frames
    /// of how far the weighted centroid (`CentroidAnalyzer.weightedOutput`) lies under the log2
    /// centroid. Across sounds the place is the transients' perceptual measure, the lows counted
    /// more (a rumble or a thud round, a hiss or a click crisp); within the sound the curve moves
    /// exactly as the centroid does (a frame's own low share is too noisy to order frames by), by
    /// `movePerOctave` per octave at the middle of the scale. Both means are over the whole
    /// sound: a streaming mapper would need them before the sound ends (a running mean from the
    /// sound's start lost much of the move on the real-sound corpus; docs/REALCORPUS.md).
    /// The curve is kept and simplified in octaves, within `tolerance` / `movePerOctave` octaves,
    /// so a body near 0 or 1, whose moves the logistic curve squeezes, keeps them as one in the
    /// middle does; only the kept points are mapped onto 0…1.
    /// centroid: the magnitude centroid mapped onto 0…1, simplified there.
    private func bodyBrightness(_ input: MappingInput, relativeLevels: [Float]) -> BodyBrightness {
        let sharpness = settings.sharpness
        let audible = Float(settings.intensity.floorDb)
        let centroids = input.centroidsHz
        let tolerance = sharpness.tolerance
        let brightness: (Double) -> Double
        var result: BodyBrightness
        switch sharpness.from {
        case .weightedCentroid:
            let weighted = input.weightedOctaves
            var penalty = 0.0, weightTotal = 0.0, octaves = 0.0, total = 0.0
            for k in centroids.indices where relativeLevels[k] > audible && centroids[k] > 0 {
                let power = pow(10, Double(relativeLevels[k]) / 10)
                let logCentroid = log2(Double(centroids[k]))
                octaves += power * logCentroid
                total += power
                guard weighted[k] > 0 else { continue }
                penalty += power * (logCentroid - Double(weighted[k]))
                weightTotal += power
            }
            let mean = total > 0 ? octaves / total : 0
            let lowWeight = weightTotal > 0 ? sharpness.lowWeightScale * penalty / weightTotal : 0
            let scale = sharpness.placed
            let place = scale.place(mean - lowWeight)
            brightness = { log2($0) - mean }
            result = BodyBrightness(frames: [], sharpness: { scale.sharpness(place: place, octaves: $0) },
                                    tolerance: tolerance / max(1e-3, sharpness.movePerOctave))
        case .centroid:
            let hz = sharpness.hz
            brightness = { hz($0) }
            result = BodyBrightness(frames: [], sharpness: { $0 }, tolerance: tolerance)
        }
        var held: Float?
        var values = [Float](repeating: 0, count: centroids.count)
        for k in centroids.indices {
            if relativeLevels[k] > audible, centroids[k] > 0 { held = Float(brightness(Double(centroids[k]))) }
            values[k] = held ?? .nan
        }
        // Frames before the first audible one take its value, so nothing starts at 0 or 1;
        // with no audible frame, every frame plays 0.5.
        guard let first = values.first(where: { !$0.isNaN }) else {
            return BodyBrightness(frames: values.map { _ in 0 }, sharpness: { _ in 0.5 }, tolerance: tolerance)
        }
        for k in values.indices where values[k].isNaN { values[k] = first }
        let ms = sharpness.smoothingMs
        EnvelopeFollower(attackMs: ms, releaseMs: ms, stepSeconds: input.hopSeconds).smoothWithoutLag(&values)
        result.frames = values
        return result
    }

    // MARK: Continuous regions

    private func mapRegions(_ input: MappingInput, relativeLevels: [Float],
                            brightness: BodyBrightness, gain: Double) -> [HapticTrack.ContinuousRegion] {
        let intensity = settings.intensity
        let hop = input.hopSeconds
        let scale = intensity.level
        let ceiling = intensity.maxIntensity
        let follower = EnvelopeFollower(attackMs: intensity.attackMs, releaseMs: intensity.releaseMs, stepSeconds: hop)
        var values = relativeLevels.map { Float(ceiling * scale(Double($0))) }
        // Regions follow the sound itself, not the smoothed curve's release tail: a body that
        // outlasts the sound would buzz under silence. So the spans come before smoothing.
        let spans = gatedSpans(values, gate: Float(intensity.gate),
                               mergeGap: Int(intensity.mergeGapMs / 1000 / hop),
                               minLength: Int(intensity.minRegionMs / 1000 / hop))
        follower.smooth(&values)
        return pieces(of: spans, hop: hop, duration: input.duration, starts: input.soundStarts).map { piece in
            let (start, end, frames) = piece
            // Simplified as they are read: an hour-long region is never held point by point.
            // The first point sits on the region's start, which a sound's start may put
            // between frames: it takes the first frame's value, so the attack stays sharp.
            func curve(_ values: [Float], tolerance: Double, endValue: Float? = nil) -> [HapticTrack.Point] {
                CurveSimplifier.simplify(count: frames.count, tolerance: tolerance) { i in
                    let k = frames.lowerBound + i
                    let time = i == 0 ? start : min(end, Double(k) * hop)
                    let value = i > 0 && i == frames.count - 1 && time >= end ? endValue ?? values[k] : values[k]
                    return HapticTrack.Point(time: time, value: Double(value))
                }
            }
            // The strength scales the simplified curve, so a quieter sound keeps its shape. A
            // piece whose last frame lies on its end (cut where a silence begins) falls to 0 on
            // that frame, simplified with the rest: set after simplifying, the 0 would bend
            // the whole last segment of a long decay down to it.
            let shape = curve(values, tolerance: intensity.tolerance, endValue: 0)
            return HapticTrack.ContinuousRegion(
                start: start, end: end,
                intensity: fade(shape.map { HapticTrack.Point(time: $0.time, value: gain * $0.value) }, start: start, end: end),
                sharpness: curve(brightness.frames, tolerance: brightness.tolerance).map {
                    HapticTrack.Point(time: $0.time, value: brightness.sharpness($0.value))
                })
        }
    }

    /// The regions' time spans, with the frames whose values they draw: each frame span
    /// from its first frame's time to its end (at most `duration`), cut by every silence
    /// before a sound's start (`SoundStarts`) so that no region plays in it: a region
    /// beginning in such a silence begins at the sound's first audible sample instead, and
    /// one that runs across it ends where the silence begins. Pieces with no frame are dropped.
    func pieces(of spans: [Range<Int>], hop: Double, duration: Double,
                starts: [SoundStarts.Start]) -> [(start: Double, end: Double, frames: Range<Int>)] {
        var result: [(start: Double, end: Double, frames: Range<Int>)] = []
        var next = 0
        for span in spans {
            var start = Double(span.lowerBound) * hop, first = span.lowerBound
            let end = min(duration, Double(span.upperBound) * hop)
            while next < starts.count, starts[next].time <= start { next += 1 }
            while start < end {
                // Only a sound that starts inside the span cuts it (a tail into the silence after
                // the span's last sound belongs to that sound).
                let silence = next < starts.count && starts[next].time < end ? starts[next] : nil
                let pieceEnd = silence.map { max(start, $0.silenceStart) } ?? end
                let last = silence == nil ? span.upperBound - 1 : min(span.upperBound - 1, Int((pieceEnd / hop + 1e-9).rounded(.down)))
                if pieceEnd > start, first <= last {
                    result.append((start, pieceEnd, first..<last + 1))
                }
                guard let silence else { break }
                start = silence.time
                first = Int((start / hop - 1e-9).rounded(.up))
                next += 1
            }
        }
        return result
    }

    /// Frame spans where `values` exceed `gate`, joined across short gaps, long enough to feel.
    /// Each span runs one frame past its last loud frame, so the curve can fall to the gate.
    func gatedSpans(_ values: [Float], gate: Float, mergeGap: Int, minLength: Int) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        var k = 0
        while k < values.count {
            guard values[k] > gate else { k += 1; continue }
            var end = k
            while end < values.count, values[end] > gate { end += 1 }
            let span = k..<min(values.count, end + 1)
            if let last = spans.last, span.lowerBound - last.upperBound <= mergeGap {
                spans[spans.count - 1] = last.lowerBound..<span.upperBound
            } else {
                spans.append(span)
            }
            k = end
        }
        return spans.filter { $0.count > max(1, minLength) }
    }

    /// Ends a region's intensity at 0 so the continuous event fades out rather than stopping
    /// at full strength; the start keeps its value so a sharp attack stays sharp.
    private func fade(_ points: [HapticTrack.Point], start: Double, end: Double) -> [HapticTrack.Point] {
        var points = points
        if let last = points.last, last.value > 0 {
            if last.time >= end { points[points.count - 1].value = 0 } else { points.append(.init(time: end, value: 0)) }
        }
        return points
    }
}
