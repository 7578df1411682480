import TactusAHAP

/// What a pattern plays, reduced to what a plot can show: continuous intensity and
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

    struct Transient: Equatable {
        var time: Double
        /// Intensity and sharpness it plays at (event value combined with the controls).
        var intensity: Double
        var sharpness: Double
    }

    var duration: Double
    var columns: [Column]
    var transients: [Transient]
    /// `HapticContinuous` spans, merged where they touch or overlap, in time order.
    var continuousSpans: [ClosedRange<Double>]

    /// Samples within one column are at most this far apart, up to `maxSamplesPerColumn`.
    static let sampleSpacing = 0.002
    static let maxSamplesPerColumn = 32

    init(evaluator: PatternEvaluator, document: AHAPDocument, duration: Double, columns count: Int) {
        self.duration = duration
        let width = duration / Double(max(count, 1))
        let perColumn = min(Self.maxSamplesPerColumn, max(1, Int((width / Self.sampleSpacing).rounded(.up))))
        columns = (0..<max(count, 1)).map { index in
            let start = Double(index) * width
            var strongest: Double?
            var sharpnessSum = 0.0, playing = 0
            for k in 0..<perColumn {
                let t = start + (Double(k) + 0.5) * width / Double(perColumn)
                guard let sharpness = evaluator.continuousSharpness(at: t) else { continue }
                strongest = max(strongest ?? 0, evaluator.continuousIntensity(at: t))
                sharpnessSum += sharpness
                playing += 1
            }
            return Column(time: start + width / 2, intensity: strongest,
                          sharpness: playing > 0 ? sharpnessSum / Double(playing) : nil)
        }
        transients = evaluator.transients.map {
            Transient(time: $0.time, intensity: $0.effectiveIntensity,
                      sharpness: $0.effectiveSharpness(HapticSonifier.sharpnessReading))
        }
        continuousSpans = Self.mergedSpans(of: document)
    }

    /// Seconds during which at least one continuous haptic event plays.
    var continuousSeconds: Double {
        continuousSpans.reduce(0) { $0 + $1.upperBound - $1.lowerBound }
    }

    private static func mergedSpans(of document: AHAPDocument) -> [ClosedRange<Double>] {
        let spans = document.pattern.compactMap { element -> ClosedRange<Double>? in
            guard case .event(let event) = element, event.type == .hapticContinuous,
                  let duration = event.duration, duration > 0 else { return nil }
            return event.time...(event.time + duration)
        }.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<Double>] = []
        for span in spans {
            if let last = merged.last, span.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, span.upperBound)
            } else {
                merged.append(span)
            }
        }
        return merged
    }
}
