import TactusCore

/// Text and number formatting shared by the SVG and HTML writers, so that every page is
/// well-formed XML (the HTML is written as polyglot markup) and byte-identical across runs.
enum Markup {
    /// Escapes text for element content and double- or single-quoted attribute values.
    static func escape(_ text: String) -> String {
        // Most values (numbers, colours, class names) need nothing escaped.
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
            return text
        }
        var out = ""
        out.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// A number with at most `decimals` decimals, trailing zeros dropped ("12", "0.5"),
    /// never "-0". Fixed-point formatting keeps output independent of the locale.
    static func number(_ value: Double, decimals: Int = 1) -> String {
        value.isFinite ? JSONText.fixed(value, digits: decimals) : "0"
    }

    /// Seconds for people: "1.25 s".
    static func seconds(_ value: Double) -> String {
        number(value, decimals: 2) + " s"
    }
}
