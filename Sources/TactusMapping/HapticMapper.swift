import TactusAHAP
import TactusAnalysis
import TactusCore

/// Turns analysis features into a format-free `HapticTrack`: transients at the onsets, a
/// gated continuous intensity that follows the loudness envelope, and sharpness that
/// follows brightness.
public struct HapticMapper {
    let perFile: Bool
    let silenceDb: Double
    let transients: ParameterSet
    let intensity: ParameterSet
    let sharpness: ParameterSet

    public init(loudness: ParameterSet, transients: ParameterSet, intensity: ParameterSet, sharpness: ParameterSet) {
        perFile = loudness.choice(LoudnessSettings.normalization) == "perFile"
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
        if transients.flag(TransientSettings.enabled) {
            track.transients = mapTransients(analysis, relativeLevels: relative, brightness: brightness)
        }
        if intensity.flag(IntensitySettings.enabled) {
            track.regions = mapRegions(analysis, relativeLevels: relative, brightness: brightness)
        }
        return track
    }

    // MARK: Transients

    private func mapTransients(_ analysis: AnalysisResult, relativeLevels: [Float],
                               brightness: [Float]) -> [HapticTrack.Transient] {
        let scale = DecibelScale(floorDb: transients.number(TransientSettings.floorDb), ceilingDb: transients.number(TransientSettings.ceilingDb),
                                 gamma: transients.number(TransientSettings.gamma))
        let low = transients.number(TransientSettings.minIntensity), high = transients.number(TransientSettings.maxIntensity)
        let window = transients.number(TransientSettings.attackWindowMs) / 1000
        // What the attack's sharpness is measured on, at frame k, in 0…1 (read only at the
        // attacks' frames, so no per-frame array is made for it).
        let attackBrightness: (Int) -> Float
        if transients.choice(TransientSettings.sharpnessFrom) == "weightedCentroid" {
            let lowest = transients.number(TransientSettings.lowOctaves)
            let span = max(0.1, transients.number(TransientSettings.highOctaves) - lowest)
            let weightedOctaves = analysis.feature(CentroidAnalyzer.weightedOutput)
            attackBrightness = { k in
                let octaves = weightedOctaves[k]
                return octaves > 0 ? Float(min(1, max(0, (Double(octaves) - lowest) / span))) : 0
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
            return HapticTrack.Transient(time: onset.time, intensity: low + (high - low) * scale(level),
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

    /// Sharpness per frame: log-mapped centroid, held through frames too quiet to have a
    /// meaningful brightness, then smoothed.
    private func sharpnessPerFrame(_ analysis: AnalysisResult, relativeLevels: [Float]) -> [Float] {
        let scale = LogFrequencyScale(lowHz: sharpness.number(SharpnessSettings.lowHz), highHz: sharpness.number(SharpnessSettings.highHz))
        let audible = Float(intensity.number(IntensitySettings.floorDb))
        let centroids = analysis.feature(CentroidAnalyzer.output)
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
                            brightness: [Float]) -> [HapticTrack.ContinuousRegion] {
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
        let duration = analysis.duration
        return spans.map { span in
            let start = Double(span.lowerBound) * hop
            let end = min(duration, Double(span.upperBound) * hop)
            // Simplified as they are read: an hour-long region is never held point by point.
            func curve(_ frames: [Float], tolerance: Double) -> [HapticTrack.Point] {
                CurveSimplifier.simplify(count: span.count, tolerance: tolerance) { i in
                    let k = span.lowerBound + i
                    return HapticTrack.Point(time: min(end, Double(k) * hop), value: Double(frames[k]))
                }
            }
            return HapticTrack.ContinuousRegion(
                start: start, end: end,
                intensity: fade(curve(values, tolerance: intensity.number(IntensitySettings.tolerance)), start: start, end: end),
                sharpness: curve(brightness, tolerance: sharpness.number(SharpnessSettings.tolerance)))
        }
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
