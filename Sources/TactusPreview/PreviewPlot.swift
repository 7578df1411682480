import TactusCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Draws a preview plot as SVG: the sound's waveform above, the haptics below on one time
/// axis. It draws what `HapticTimeline` and `WaveformEnvelope` computed and evaluates
/// nothing itself.
///
/// Lanes, top to bottom: title and preset; legend; the waveform (min/max outline); the
/// haptics lane with continuous spans shaded, the continuous intensity (solid, left axis),
/// the continuous sharpness (dashed, right axis, coloured on the sharpness scale) and each
/// transient as a stem and a dot whose height and size give its intensity and whose colour
/// gives its sharpness; the time axis in seconds. A hidden playhead line is positioned by
/// the HTML page; the root element carries the plot's x range (`data-plot-left`,
/// `data-plot-width`, `data-duration`) so the page can map time to x.
struct PreviewPlot {
    struct Content {
        var title: String
        var presetName: String?
        var timeline: HapticTimeline
        /// The sound's outline, nil when the pattern has no (readable) audio.
        var waveform: WaveformEnvelope?
    }

    /// Geometry in SVG user units (= CSS pixels at the natural 1200 px width).
    enum Layout {
        static let width = 1200.0, height = 440.0
        static let left = 84.0, right = 1116.0
        static let waveTop = 82.0, waveBottom = 178.0
        static let hapticTop = 198.0, hapticBottom = 390.0
        static var plotWidth: Double { right - left }
        /// One timeline column per pixel of plot width.
        static var columns: Int { Int(plotWidth) }
    }

    let content: Content

    private var duration: Double { content.timeline.duration }

    private func x(_ time: Double) -> Double {
        Layout.left + clampUnit(time / duration) * Layout.plotWidth
    }

    private func hapticY(_ value: Double) -> Double {
        Layout.hapticBottom - clampUnit(value) * (Layout.hapticBottom - Layout.hapticTop)
    }

    func svg() -> String {
        var svg = SVGWriter()
        svg.start("svg", [
            ("xmlns", "http://www.w3.org/2000/svg"), ("class", "tp-plot"),
            ("viewBox", "0 0 \(Markup.number(Layout.width)) \(Markup.number(Layout.height))"),
            ("width", Markup.number(Layout.width)), ("height", Markup.number(Layout.height)),
            ("role", "img"), ("aria-label", "Haptics preview of \(content.title)"),
            ("data-plot-left", Markup.number(Layout.left)), ("data-plot-width", Markup.number(Layout.plotWidth)),
            ("data-duration", Markup.number(duration, decimals: 6)),
        ])
        svg.element("title", text: "Haptics preview of \(content.title)")
        svg.start("style")
        svg.raw(PlotStyle.css)
        svg.end()
        definitions(&svg)
        svg.element("rect", [("class", "tp-bg"), ("width", "100%"), ("height", "100%"), ("rx", "10")])
        header(&svg)
        legend(&svg)
        timeGrid(&svg)
        waveform(&svg)
        hapticAxes(&svg)
        spans(&svg)
        continuousCurves(&svg)
        transients(&svg)
        svg.element("line", [("id", "tp-playhead"), ("class", "tp-playhead"), ("visibility", "hidden"),
                             ("x1", Markup.number(Layout.left)), ("x2", Markup.number(Layout.left)),
                             ("y1", Markup.number(Layout.waveTop - 6)), ("y2", Markup.number(Layout.hapticBottom + 6))])
        svg.end()
        return svg.text
    }

    /// The sharpness scale as gradients: vertical over the haptics lane (so the sharpness
    /// line is coloured by its own value) and horizontal for the legend's colour bar.
    private func definitions(_ svg: inout SVGWriter) {
        svg.start("defs")
        let vertical = [("x1", "0"), ("x2", "0"),
                        ("y1", Markup.number(Layout.hapticBottom)), ("y2", Markup.number(Layout.hapticTop))]
        for (id, geometry) in [("tp-sharpness-scale", vertical), ("tp-sharpness-bar", [])] {
            svg.start("linearGradient", [("id", id)] + (geometry.isEmpty ? [] : [("gradientUnits", "userSpaceOnUse")]) + geometry)
            for stop in PlotStyle.sharpnessStops {
                svg.element("stop", [("offset", Markup.number(stop.offset, decimals: 2)),
                                     ("stop-color", PlotStyle.sharpnessColour(stop.offset))])
            }
            svg.end()
        }
        svg.end()
    }

    private func header(_ svg: inout SVGWriter) {
        svg.element("text", [("class", "tp-title"), ("x", Markup.number(Layout.left)), ("y", "32")], text: content.title)
        let preset = content.presetName.map { "preset: \($0)" } ?? "preset: unknown (not in the file's Metadata)"
        svg.element("text", [("class", "tp-muted"), ("x", Markup.number(Layout.right)), ("y", "32"),
                             ("text-anchor", "end")], text: preset)
    }

    private func legend(_ svg: inout SVGWriter) {
        let y = 58.0
        var x = Layout.left
        func label(_ text: String, width: Double) {
            svg.element("text", [("x", Markup.number(x)), ("y", Markup.number(y + 4.5))], text: text)
            x += width
        }
        svg.element("rect", [("class", "tp-wave"), ("x", Markup.number(x)), ("y", Markup.number(y - 6)),
                             ("width", "18"), ("height", "12"), ("rx", "2")])
        x += 24; label("sound", width: 66)
        svg.element("line", [("class", "tp-intensity"), ("x1", Markup.number(x)), ("x2", Markup.number(x + 22)),
                             ("y1", Markup.number(y)), ("y2", Markup.number(y))])
        x += 28; label("intensity (continuous)", width: 162)
        // A gradient cannot paint a horizontal line (its box has no height): mid-scale colour.
        svg.element("line", [("class", "tp-sharpness"), ("stroke", PlotStyle.sharpnessColour(0.5)),
                             ("x1", Markup.number(x)), ("x2", Markup.number(x + 26)),
                             ("y1", Markup.number(y)), ("y2", Markup.number(y))])
        x += 32; label("sharpness (continuous)", width: 170)
        svg.element("rect", [("class", "tp-span"), ("x", Markup.number(x)), ("y", Markup.number(y - 7)),
                             ("width", "22"), ("height", "14")])
        x += 28; label("continuous event", width: 132)
        svg.element("circle", [("class", "tp-transient"), ("fill", PlotStyle.sharpnessColour(0.5)),
                               ("cx", Markup.number(x + 4)), ("cy", Markup.number(y)), ("r", "4")])
        svg.element("circle", [("class", "tp-transient"), ("fill", PlotStyle.sharpnessColour(0.5)),
                               ("cx", Markup.number(x + 18)), ("cy", Markup.number(y)), ("r", "7")])
        x += 32; label("transient (size = intensity)", width: 196)
        label("dull", width: 32)
        svg.element("rect", [("fill", "url(#tp-sharpness-bar)"), ("x", Markup.number(x)), ("y", Markup.number(y - 6)),
                             ("width", "84"), ("height", "12"), ("rx", "2")])
        x += 90; label("sharp", width: 0)
    }

    /// Vertical grid lines and labels at round times (1, 2 or 5 × a power of ten).
    private func timeGrid(_ svg: inout SVGWriter) {
        let step = Self.tickStep(for: duration)
        let decimals = max(0, Int(-log10(step).rounded(.down)))
        var index = 0
        while Double(index) * step <= duration + step * 1e-9 {
            let t = Double(index) * step, px = Markup.number(x(t))
            svg.element("line", [("class", "tp-grid"), ("x1", px), ("x2", px),
                                 ("y1", Markup.number(Layout.waveTop)), ("y2", Markup.number(Layout.hapticBottom))])
            svg.element("text", [("class", "tp-muted"), ("x", px), ("y", Markup.number(Layout.hapticBottom + 20)),
                                 ("text-anchor", "middle")], text: Markup.number(t, decimals: decimals))
            index += 1
        }
        svg.element("line", [("class", "tp-axis"), ("x1", Markup.number(Layout.left)), ("x2", Markup.number(Layout.right)),
                             ("y1", Markup.number(Layout.hapticBottom)), ("y2", Markup.number(Layout.hapticBottom))])
        svg.element("text", [("class", "tp-muted"), ("x", Markup.number(Layout.right)),
                             ("y", Markup.number(Layout.hapticBottom + 40)), ("text-anchor", "end")], text: "time (s)")
    }

    /// About ten grid lines across the plot, at a step people read easily.
    static func tickStep(for duration: Double) -> Double {
        let raw = max(duration, 1e-3) / 10
        let magnitude = pow(10, log10(raw).rounded(.down))
        return [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
    }

    /// The sound's min/max outline, one column per pixel, scaled so its peak fills the
    /// lane (quiet effects stay readable); the peak level is printed beside it.
    private func waveform(_ svg: inout SVGWriter) {
        let middle = (Layout.waveTop + Layout.waveBottom) / 2, half = (Layout.waveBottom - Layout.waveTop) / 2
        svg.element("text", [("class", "tp-muted"), ("x", Markup.number(Layout.left - 10)),
                             ("y", Markup.number(middle - 2)), ("text-anchor", "end")], text: "sound")
        guard let envelope = content.waveform, envelope.peak > 0 else {
            let note = content.waveform == nil ? "no audio in this pattern" : "the sound is silent"
            svg.element("text", [("class", "tp-muted"), ("x", Markup.number((Layout.left + Layout.right) / 2)),
                                 ("y", Markup.number(middle + 4)), ("text-anchor", "middle")], text: note)
            return
        }
        let peak = Double(envelope.peak)
        svg.element("text", [("class", "tp-muted tp-small"), ("x", Markup.number(Layout.left - 10)),
                             ("y", Markup.number(middle + 14)), ("text-anchor", "end")],
                    text: "peak " + String(Markup.number(20 * log10(peak), decimals: 0).map { $0 == "-" ? "−" : $0 }) + " dB")
        let columns = envelope.columns(Layout.columns)
        let step = Layout.plotWidth / Double(columns.count)
        // Upper edge left to right, lower edge back; at least a hairline thick everywhere.
        var path = PathData()
        for (i, column) in columns.enumerated() {
            let y = middle - Double(column.high) / peak * half - 0.5
            if i == 0 { path.move(Layout.left, y) }
            path.line(Layout.left + (Double(i) + 0.5) * step, y)
        }
        path.line(Layout.right, middle - Double(columns[columns.count - 1].high) / peak * half - 0.5)
        for (i, column) in columns.enumerated().reversed() {
            let y = middle - Double(column.low) / peak * half + 0.5
            if i == columns.count - 1 { path.line(Layout.right, y) }
            path.line(Layout.left + (Double(i) + 0.5) * step, y)
        }
        path.line(Layout.left, middle - Double(columns[0].low) / peak * half + 0.5)
        path.close()
        svg.element("path", [("class", "tp-wave"), ("d", path.text)])
    }

    private func hapticAxes(_ svg: inout SVGWriter) {
        for value in [0.0, 0.5, 1.0] {
            let y = Markup.number(hapticY(value))
            if value > 0 {
                svg.element("line", [("class", "tp-grid"), ("x1", Markup.number(Layout.left)),
                                     ("x2", Markup.number(Layout.right)), ("y1", y), ("y2", y)])
            }
            svg.element("text", [("class", "tp-muted"), ("x", Markup.number(Layout.left - 10)), ("y", y),
                                 ("dy", "4"), ("text-anchor", "end")], text: Markup.number(value))
            svg.element("text", [("class", "tp-muted"), ("x", Markup.number(Layout.right + 10)), ("y", y),
                                 ("dy", "4")], text: Markup.number(value))
        }
        let middle = Markup.number((Layout.hapticTop + Layout.hapticBottom) / 2)
        svg.element("text", [("class", "tp-intensity-label"), ("x", "28"), ("y", middle), ("text-anchor", "middle"),
                             ("transform", "rotate(-90 28 \(middle))")], text: "intensity")
        let rightLabel = Markup.number(Layout.width - 28)
        svg.element("text", [("class", "tp-sharpness-label"), ("x", rightLabel), ("y", middle), ("text-anchor", "middle"),
                             ("transform", "rotate(90 \(rightLabel) \(middle))")], text: "sharpness")
    }

    private func spans(_ svg: inout SVGWriter) {
        for span in content.timeline.continuousSpans {
            let start = x(span.lowerBound), width = Markup.number(max(x(span.upperBound) - start, 0.5))
            svg.element("rect", [("class", "tp-span"), ("x", Markup.number(start)), ("y", Markup.number(Layout.hapticTop)),
                                 ("width", width), ("height", Markup.number(Layout.hapticBottom - Layout.hapticTop))])
            svg.element("rect", [("class", "tp-span-bar"), ("x", Markup.number(start)),
                                 ("y", Markup.number(Layout.hapticBottom - 4)), ("width", width), ("height", "4")])
        }
    }

    /// Intensity as a filled curve and sharpness as a dashed line, each broken where no
    /// continuous haptics play (so silence shows as no line, not as a line at zero).
    private func continuousCurves(_ svg: inout SVGWriter) {
        let intensity = runs(of: \.intensity), sharpness = runs(of: \.sharpness)
        var area = PathData()
        for run in intensity {
            area.move(run[0].x, Layout.hapticBottom)
            for point in run { area.line(point.x, point.y) }
            area.line(run[run.count - 1].x, Layout.hapticBottom)
            area.close()
        }
        if !area.isEmpty { svg.element("path", [("class", "tp-intensity-area"), ("d", area.text)]) }
        if !sharpness.isEmpty {
            svg.element("path", [("class", "tp-sharpness"), ("stroke", "url(#tp-sharpness-scale)"),
                                 ("d", Self.polyline(sharpness).text)])
        }
        if !intensity.isEmpty { svg.element("path", [("class", "tp-intensity"), ("d", Self.polyline(intensity).text)]) }
    }

    /// Stretches of consecutive columns where `value` is defined, as plot points; a
    /// stretch of one column becomes a one-pixel segment so it still shows.
    private func runs(of value: KeyPath<HapticTimeline.Column, Double?>) -> [[(x: Double, y: Double)]] {
        var runs: [[(x: Double, y: Double)]] = [], current: [(x: Double, y: Double)] = []
        for column in content.timeline.columns {
            if let v = column[keyPath: value] {
                current.append((x(column.time), hapticY(v)))
            } else if !current.isEmpty {
                runs.append(current)
                current = []
            }
        }
        if !current.isEmpty { runs.append(current) }
        return runs.map { run in
            run.count > 1 ? Self.droppingCollinear(run) : [(run[0].x - 0.5, run[0].y), (run[0].x + 0.5, run[0].y)]
        }
    }

    /// The points without those lying within a tenth of a pixel of the straight line
    /// through their neighbours: AHAP curves are piecewise linear, so most columns add
    /// nothing visible and the file stays small enough for a gallery of many thumbnails.
    private static func droppingCollinear(_ points: [(x: Double, y: Double)]) -> [(x: Double, y: Double)] {
        guard points.count > 2 else { return points }
        var kept = [points[0]]
        for i in 1..<(points.count - 1) {
            let a = kept[kept.count - 1], b = points[i], c = points[i + 1]
            let expected = a.y + (c.y - a.y) * (b.x - a.x) / (c.x - a.x)
            if abs(b.y - expected) > 0.1 { kept.append(b) }
        }
        kept.append(points[points.count - 1])
        return kept
    }

    private static func polyline(_ runs: [[(x: Double, y: Double)]]) -> PathData {
        var path = PathData()
        for run in runs {
            path.move(run[0].x, run[0].y)
            for point in run.dropFirst() { path.line(point.x, point.y) }
        }
        return path
    }

    /// The transients worth a marker: one that would land on the same whole pixel, at the same
    /// height, size and colour as the one drawn before it adds nothing visible (dense patterns
    /// of thousands of events per second of plot).
    private var visibleTransients: [HapticTrack.Transient] {
        var previous: (Int, Int, Int, String)?
        return content.timeline.transients.filter { transient in
            let key = (Int(x(transient.time).rounded()), Int(hapticY(transient.intensity).rounded()),
                       Int((6 * transient.intensity).rounded()), PlotStyle.sharpnessColour(transient.sharpness))
            defer { previous = key }
            return previous.map { $0 != key } ?? true
        }
    }

    private func transients(_ svg: inout SVGWriter) {
        let bottom = Markup.number(Layout.hapticBottom)
        let transients = visibleTransients
        for transient in transients {
            let px = Markup.number(x(transient.time)), py = Markup.number(hapticY(transient.intensity))
            svg.element("line", [("class", "tp-stem"), ("x1", px), ("x2", px), ("y1", bottom), ("y2", py)])
        }
        for transient in transients {
            svg.start("circle", [
                ("class", "tp-transient"), ("fill", PlotStyle.sharpnessColour(transient.sharpness)),
                ("cx", Markup.number(x(transient.time))), ("cy", Markup.number(hapticY(transient.intensity))),
                ("r", Markup.number(3 + 6 * transient.intensity)),
                ("data-time", Markup.number(transient.time, decimals: 6)),
            ])
            svg.element("title", text: "transient at \(Markup.number(transient.time, decimals: 3)) s: intensity "
                        + "\(Markup.number(transient.intensity, decimals: 2)), sharpness \(Markup.number(transient.sharpness, decimals: 2))")
            svg.end()
        }
    }
}
