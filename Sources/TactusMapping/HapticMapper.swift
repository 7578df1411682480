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
    let perFile: Bool
    let silenceDb: Double
    /// nil unless `normalization` is `loudness`: the sound's strength from its loudness.
    let strength: LoudnessStrength?
    let transients: ParameterSet
    let intensity: ParameterSet
    let sharpness: ParameterSet

    public init(loudness: ParameterSet, transients: ParameterSet, intensity: ParameterSet, sharpness: ParameterSet) {
        let normalization = loudness.choice(LoudnessSettings.normalization)
        perFile = normalization != "absolute"
        strength = normalization == "loudness" ? LoudnessStrength(loudness) : nil
        silenceDb = loudness.number(LoudnessSettings.silenceDb)
        self.transients = transients
        self.intensity = intensity
        self.sharpness = sharpness
    }

    /// The per-frame features `map` reads (`AnalysisResult.features`); the others may be
    /// dropped before mapping.
    public static let inputs: Set<String> = [LevelAnalyzer.output, CentroidAnalyzer.output, CentroidAnalyzer.weightedOutput]

    public func map(_ analysis: AnalysisResult) -> HapticTrack {
        // Per-frame arrays stay Float and few: an hour of audio has 360,000 frames.
        let levels = analysis.feature(LevelAnalyzer.output)
        let loudest = Double(levels.max() ?? -120)
        var track = HapticTrack(duration: analysis.duration)
        guard loudest >= silenceDb else { return track }
        let reference = Float(perFile ? loudest : 0)
        let relative = levels.map { $0 - reference }
        let brightness = sharpnessPerFrame(analysis, relativeLevels: relative)
        let gain = strength?(analysis.loudestMomentaryLufs) ?? 1
        if transients.flag(TransientSettings.enabled) {
            track.transients = mapTransients(analysis, relativeLevels: relative, brightness: brightness, gain: gain)
        }
        if intensity.flag(IntensitySettings.enabled) {
            track.regions = mapRegions(analysis, relativeLevels: relative, brightness: brightness, gain: gain)
        }
        return track
    }

    // MARK: Transients

    private func mapTransients(_ analysis: AnalysisResult, relativeLevels: [Float],
                               brightness: [Float], gain: Double) -> [HapticTrack.Transient] {
        let scale = DecibelScale(floorDb: transients.number(TransientSettings.floorDb), ceilingDb: transients.number(TransientSettings.ceilingDb),
                                 gamma: transients.number(TransientSettings.gamma))
        let low = transients.number(TransientSettings.minIntensity), high = transients.number(TransientSettings.maxIntensity)
        let window = transients.number(TransientSettings.attackWindowMs) / 1000
        // What the attack's sharpness is measured on, at frame k, in 0…1 (read only at the
        // attacks' frames, so no per-frame array is made for it).
        let attackBrightness: (Int) -> Float
        if transients.choice(TransientSettings.sharpnessFrom) == "weightedCentroid" {
            let scale = OctaveScale(lowOctaves: transients.number(TransientSettings.lowOctaves),
                                    highOctaves: transients.number(TransientSettings.highOctaves))
            let weightedOctaves = analysis.feature(CentroidAnalyzer.weightedOutput)
            attackBrightness = { k in
                let octaves = weightedOctaves[k]
                return octaves > 0 ? Float(scale(Double(octaves))) : 0
            }
        } else {
            attackBrightness = { brightness[$0] }
        }
        return analysis.onsets.map { onset in
            let frames = frameRange(from: onset.time, to: onset.time + window, analysis: analysis)
            let level = Double(frames.map { relativeLevels[$0] }.max() ?? -120)
            // Brightness of the attack, weighted by each frame's power so the loudest part speaks.
            var weighted = 0.0, total = 0.0
            for k in frames {
                let w = pow(10, Double(relativeLevels[k]) / 10)
                weighted += w * Double(attackBrightness(k))
                total += w
            }
            let sharp = total > 0 ? weighted / total : Double(attackBrightness(frames.lowerBound))
            return HapticTrack.Transient(time: onset.time, intensity: gain * (low + (high - low) * scale(level)),
                                         sharpness: sharp)
        }
    }

    /// Frames whose centres fall in `from…to`, at least one.
    private func frameRange(from: Double, to: Double, analysis: AnalysisResult) -> ClosedRange<Int> {
        let count = analysis.features[LevelAnalyzer.output]?.count ?? 0
        let first = min(count - 1, max(0, Int((from / analysis.hopSeconds).rounded(.up))))
        let last = min(count - 1, max(first, Int((to / analysis.hopSeconds).rounded(.down))))
        return first...last
    }

    // MARK: Sharpness

    /// Sharpness per frame: the brightness `mapping.sharpness.from` names, mapped onto 0…1,
    /// held through frames too quiet to have a meaningful brightness, then smoothed.
    ///
    /// weightedCentroid: each frame's log2 centroid less the file's weight in the lows, the
    /// power-weighted mean over its audible frames of how far the weighted centroid
    /// (`CentroidAnalyzer.weightedOutput`) lies under the log2 centroid. The file's level is
    /// then the transients' perceptual measure (a rumble round, a hiss crisp), while within the
    /// file the curve moves exactly as the centroid does (a frame's own low share is too noisy
    /// to order frames by).
    private func sharpnessPerFrame(_ analysis: AnalysisResult, relativeLevels: [Float]) -> [Float] {
        let audible = Float(intensity.number(IntensitySettings.floorDb))
        let centroids = analysis.feature(CentroidAnalyzer.output)
        let scale: (Double) -> Double
        if sharpness.choice(SharpnessSettings.from) == "weightedCentroid" {
            let octaves = OctaveScale(lowOctaves: sharpness.number(SharpnessSettings.lowOctaves),
                                      highOctaves: sharpness.number(SharpnessSettings.highOctaves),
                                      knee: sharpness.number(SharpnessSettings.knee))
            let weighted = analysis.feature(CentroidAnalyzer.weightedOutput)
            var penalty = 0.0, total = 0.0
            for k in centroids.indices where relativeLevels[k] > audible && centroids[k] > 0 && weighted[k] > 0 {
                let power = pow(10, Double(relativeLevels[k]) / 10)
                penalty += power * (log2(Double(centroids[k])) - Double(weighted[k]))
                total += power
            }
            let lowWeight = total > 0 ? penalty / total : 0
            let gamma = sharpness.number(SharpnessSettings.gamma)
            scale = { pow(octaves(log2($0) - lowWeight), gamma) }
        } else {
            let hz = LogFrequencyScale(lowHz: sharpness.number(SharpnessSettings.lowHz), highHz: sharpness.number(SharpnessSettings.highHz))
            scale = { hz($0) }
        }
        var held: Float?
        var values = [Float](repeating: 0, count: centroids.count)
        for k in centroids.indices {
            if relativeLevels[k] > audible, centroids[k] > 0 { held = Float(scale(Double(centroids[k]))) }
            values[k] = held ?? -1
        }
        // Frames before the first audible one take its value, so nothing starts at 0 or 1.
        let first = values.first { $0 >= 0 } ?? 0.5
        for k in values.indices where values[k] < 0 { values[k] = first }
        let ms = sharpness.number(SharpnessSettings.smoothingMs)
        EnvelopeFollower(attackMs: ms, releaseMs: ms, stepSeconds: analysis.hopSeconds).smoothWithoutLag(&values)
        return values
    }

    // MARK: Continuous regions

    private func mapRegions(_ analysis: AnalysisResult, relativeLevels: [Float],
                            brightness: [Float], gain: Double) -> [HapticTrack.ContinuousRegion] {
        let hop = analysis.hopSeconds
        let scale = DecibelScale(floorDb: intensity.number(IntensitySettings.floorDb), ceilingDb: intensity.number(IntensitySettings.ceilingDb),
                                 gamma: intensity.number(IntensitySettings.gamma))
        let ceiling = intensity.number(IntensitySettings.maxIntensity)
        let follower = EnvelopeFollower(attackMs: intensity.number(IntensitySettings.attackMs),
                                        releaseMs: intensity.number(IntensitySettings.releaseMs), stepSeconds: hop)
        var values = relativeLevels.map { Float(ceiling * scale(Double($0))) }
        // Regions follow the sound itself, not the smoothed curve's release tail: a body that
        // outlasts the sound would buzz under silence. So the spans come before smoothing.
        let spans = gatedSpans(values, gate: Float(intensity.number(IntensitySettings.gate)),
                               mergeGap: Int(intensity.number(IntensitySettings.mergeGapMs) / 1000 / hop),
                               minLength: Int(intensity.number(IntensitySettings.minRegionMs) / 1000 / hop))
        follower.smooth(&values)
        return pieces(of: spans, hop: hop, duration: analysis.duration, starts: analysis.soundStarts).map { piece in
            let (start, end, frames) = piece
            // Simplified as they are read: an hour-long region is never held point by point.
            // The first point sits on the region's start, which a sound's start may put
            // between frames: it takes the first frame's value, so the attack stays sharp.
            func curve(_ values: [Float], tolerance: Double) -> [HapticTrack.Point] {
                CurveSimplifier.simplify(count: frames.count, tolerance: tolerance) { i in
                    let k = frames.lowerBound + i
                    return HapticTrack.Point(time: i == 0 ? start : min(end, Double(k) * hop), value: Double(values[k]))
                }
            }
            // The strength scales the simplified curve, so a quieter sound keeps its shape.
            let shape = curve(values, tolerance: intensity.number(IntensitySettings.tolerance))
            return HapticTrack.ContinuousRegion(
                start: start, end: end,
                intensity: fade(shape.map { HapticTrack.Point(time: $0.time, value: gain * $0.value) }, start: start, end: end),
                sharpness: curve(brightness, tolerance: sharpness.number(SharpnessSettings.tolerance)))
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
