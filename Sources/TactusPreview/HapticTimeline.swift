import TactusCore

/// What a track plays, reduced to what a plot can show: continuous intensity and
/// sharpness per plot column, every transient as it plays, and the spans where continuous
/// haptics run. This is the evaluation half of the plot; `PreviewPlot` only draws it.
struct HapticTimeline: Equatable {
    /// One plot column's worth of continuous haptics.
    struct Column: Equatable {
        /// Centre of the column, seconds.
        var time: Double
        /// Strongest continuous intensity felt within the column (short peaks stay visible
        /// however long the file), or nil when nothing continuous plays there.
        var intensity: Double?
        /// Mean continuous sharpness where something plays within the column.
        var sharpness: Double?
    }

    var duration: Double
    var columns: [Column]
    /// Every transient as it plays.
    var transients: [HapticTrack.Transient]
    /// Spans where continuous haptics play, merged where they touch or overlap, in time order.
    var continuousSpans: [ClosedRange<Double>]

    /// Samples within one column are at most this far apart, up to `maxSamplesPerColumn`.
    static let sampleSpacing = 0.002
    static let maxSamplesPerColumn = 32

    init(playback: HapticPlayback, duration: Double, columns count: Int) {
        self.duration = duration
        let width = duration / Double(max(count, 1))
        let perColumn = min(Self.maxSamplesPerColumn, max(1, Int((width / Self.sampleSpacing).rounded(.up))))
        columns = (0..<max(count, 1)).map { index in
            let start = Double(index) * width
            var strongest: Double?
            var sharpnessSum = 0.0, playing = 0
            for k in 0..<perColumn {
                let t = start + (Double(k) + 0.5) * width / Double(perColumn)
                guard let sharpness = playback.continuousSharpness(at: t) else { continue }
                strongest = max(strongest ?? 0, playback.continuousIntensity(at: t))
                sharpnessSum += sharpness
                playing += 1
            }
            return Column(time: start + width / 2, intensity: strongest,
                          sharpness: playing > 0 ? sharpnessSum / Double(playing) : nil)
        }
        transients = playback.transients
        continuousSpans = playback.continuousSpans
    }

    /// Seconds during which continuous haptics play.
    var continuousSeconds: Double {
        continuousSpans.reduce(0) { $0 + $1.upperBound - $1.lowerBound }
    }
}
