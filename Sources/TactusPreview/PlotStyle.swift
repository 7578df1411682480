import TactusCore

/// Colours and type of the preview plot, for light and dark backgrounds alike.
///
/// Everything themable is a CSS class switched by `prefers-color-scheme`, so the same SVG
/// reads on a light page, on a dark page, inline in our HTML or on its own. The sharpness
/// scale is the one exception that must be fixed colours (each transient's fill is
/// computed), so its stops are mid-luminance hues readable on both backgrounds; markers
/// carry an outline in the text colour to separate them from either.
enum PlotStyle {
    /// Sharpness 0 (dull, blue) → 0.5 (green) → 1 (sharp, amber).
    static let sharpnessStops: [(offset: Double, red: Double, green: Double, blue: Double)] = [
        (0, 0x3b, 0x82, 0xf6), (0.5, 0x10, 0xb9, 0x81), (1, 0xf5, 0x9e, 0x0b),
    ]

    /// The colour of a sharpness value as `#rrggbb`, interpolated between the stops.
    static func sharpnessColour(_ sharpness: Double) -> String {
        let s = clampUnit(sharpness.isFinite ? sharpness : 0)
        let upper = sharpnessStops.firstIndex { $0.offset >= s } ?? sharpnessStops.count - 1
        let b = sharpnessStops[max(upper, 1)], a = sharpnessStops[max(upper, 1) - 1]
        let f = (s - a.offset) / (b.offset - a.offset)
        let channels = [(a.red, b.red), (a.green, b.green), (a.blue, b.blue)].map { Int(($0 + ($1 - $0) * f).rounded()) }
        return "#" + channels.map { hex2($0) }.joined()
    }

    private static func hex2(_ value: Int) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[value / 16], digits[value % 16]])
    }

    static let fontStack = "system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif"

    /// The plot's style sheet; class names carry a `tp-` prefix so the SVG can sit inline
    /// in a page without clashing with the page's own classes.
    static let css = """
    .tp-plot text{font-family:\(fontStack);font-size:13px;fill:#1e293b}
    .tp-plot .tp-title{font-size:17px;font-weight:600}
    .tp-plot .tp-muted{fill:#64748b}
    .tp-plot .tp-small{font-size:11px}
    .tp-plot .tp-intensity-label{fill:#be123c;font-weight:600}
    .tp-plot .tp-sharpness-label{fill:#047857;font-weight:600}
    .tp-bg{fill:#ffffff}
    .tp-grid{stroke:#e2e8f0;stroke-width:1}
    .tp-axis{stroke:#94a3b8;stroke-width:1}
    .tp-wave{fill:#64748b}
    .tp-span{fill:#6366f1;fill-opacity:0.12}
    .tp-span-bar{fill:#6366f1;fill-opacity:0.7}
    .tp-intensity-area{fill:#e11d48;fill-opacity:0.14}
    .tp-intensity{fill:none;stroke:#e11d48;stroke-width:2.5;stroke-linejoin:round;stroke-linecap:round}
    .tp-sharpness{fill:none;stroke-width:2.5;stroke-dasharray:7 4;stroke-linejoin:round}
    .tp-stem{stroke:#64748b;stroke-width:1;stroke-opacity:0.55}
    .tp-transient{stroke:#0f172a;stroke-width:1.2}
    .tp-playhead{stroke:#0f172a;stroke-width:2}
    @media (prefers-color-scheme:dark){
    .tp-plot text{fill:#e2e8f0}
    .tp-plot .tp-muted{fill:#94a3b8}
    .tp-plot .tp-intensity-label{fill:#fb7185}
    .tp-plot .tp-sharpness-label{fill:#34d399}
    .tp-bg{fill:#0f172a}
    .tp-grid{stroke:#1e293b}
    .tp-axis{stroke:#475569}
    .tp-wave{fill:#94a3b8}
    .tp-span{fill:#818cf8;fill-opacity:0.16}
    .tp-span-bar{fill:#818cf8}
    .tp-intensity-area{fill:#fb7185;fill-opacity:0.18}
    .tp-intensity{stroke:#fb7185}
    .tp-stem{stroke:#94a3b8}
    .tp-transient{stroke:#f8fafc}
    .tp-playhead{stroke:#f8fafc}
    }
    """
}
