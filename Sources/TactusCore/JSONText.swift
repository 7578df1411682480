import Foundation

/// Deterministic JSON text pieces shared by every hand-written JSON (and JSON-like) output:
/// AHAP files, analysis reports, presets and schemas, preview pages. Hand-written because
/// `JSONEncoder` formats numbers and escapes differently across platforms and versions.
public enum JSONText {
    /// A JSON string literal: quotes, backslashes and control characters escaped,
    /// everything else (any Unicode file name) written as UTF-8.
    public static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A finite number with at most `digits` decimals, trailing zeros dropped ("12", "0.5"),
    /// never "-0" and never an exponent. Fixed-point `%f` does not depend on the locale.
    public static func fixed(_ value: Double, digits: Int) -> String {
        precondition(value.isFinite, "JSON has no NaN or infinity")
        var text = String(format: "%.\(digits)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}
