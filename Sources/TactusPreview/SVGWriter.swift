/// A tiny streaming XML writer for SVG: elements with ordered attributes, escaped text,
/// one element per line. Enough for our plots without a drawing dependency, and the fixed
/// attribute order keeps the output byte-identical across runs.
struct SVGWriter {
    typealias Attributes = [(String, String)]

    private var lines: [String] = []
    private var open: [String] = []

    mutating func start(_ name: String, _ attributes: Attributes = []) {
        lines.append(indent + "<\(name)\(Self.render(attributes))>")
        open.append(name)
    }

    mutating func end() {
        let name = open.removeLast()
        lines.append(indent + "</\(name)>")
    }

    /// An element with no children, or with text content only.
    mutating func element(_ name: String, _ attributes: Attributes = [], text: String? = nil) {
        if let text {
            lines.append(indent + "<\(name)\(Self.render(attributes))>\(Markup.escape(text))</\(name)>")
        } else {
            lines.append(indent + "<\(name)\(Self.render(attributes))/>")
        }
    }

    /// Raw, already well-formed content (a style sheet without `<` or `&`).
    mutating func raw(_ content: String) {
        lines.append(content)
    }

    /// The document so far; every started element must have ended.
    var text: String {
        precondition(open.isEmpty, "unclosed element \(open.last ?? "")")
        return lines.joined(separator: "\n") + "\n"
    }

    private var indent: String { String(repeating: " ", count: open.count) }

    private static func render(_ attributes: Attributes) -> String {
        attributes.map { " \($0.0)=\"\(Markup.escape($0.1))\"" }.joined()
    }
}

/// SVG path data, built from points with one decimal (a tenth of a pixel is invisible).
struct PathData {
    private(set) var text = ""

    mutating func move(_ x: Double, _ y: Double) { text += "M\(Markup.number(x)) \(Markup.number(y))" }
    mutating func line(_ x: Double, _ y: Double) { text += "L\(Markup.number(x)) \(Markup.number(y))" }
    mutating func close() { text += "Z" }
    var isEmpty: Bool { text.isEmpty }
}
