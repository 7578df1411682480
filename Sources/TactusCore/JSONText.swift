import TactusPlatform

/// Deterministic JSON number and string text: the digits and escapes `JSONWriter` writes, and
/// the numbers of messages and pages that quote JSON's. The one place numbers become text.
/// Hand-written because `JSONEncoder` formats numbers and escapes differently across
/// platforms and versions.
public enum JSONText {
    /// A JSON string literal: quotes, backslashes and control characters escaped,
    /// everything else (any Unicode file name) written as UTF-8.
    /// - Parameter s: any text.
    /// - Returns: the literal, quotes included.
    public static func quote(_ s: String) -> String {
        var out: [UInt8] = []
        appendQuoted(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `quote(s)` to `out` as UTF-8.
    /// - Parameters:
    ///   - s: any text.
    ///   - out: the bytes the literal is appended to.
    static func appendQuoted(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings (identifiers, file names) need no escape: copied whole.
        if !needsEscape(s) {
            out.append(contentsOf: s.utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        // Byte by byte: the bytes escaped are ASCII, and no byte of a multi-byte UTF-8
        // sequence is, so every other byte is copied as it is.
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
            case 0x08: out.append(contentsOf: #"\b"#.utf8)
            case 0x0C: out.append(contentsOf: #"\f"#.utf8)
            case _ where byte < 0x20:
                let hex = String(byte, radix: 16)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether `s` holds a quote, a backslash or a control character, which a JSON string
    /// literal escapes.
    static func needsEscape(_ s: String) -> Bool {
        func escaped(_ byte: UInt8) -> Bool { byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") }
        return s.utf8.withContiguousStorageIfAvailable { $0.contains(where: escaped) } ?? s.utf8.contains(where: escaped)
    }

    /// A finite number rounded to `digits` decimals (0…9), trailing zeros dropped ("12",
    /// "0.5"), never "-0" and never an exponent, the same on every platform and locale.
    /// Magnitudes whose scaled value does not fit 64 bits (> 9e18 / 10^digits) have no
    /// fraction worth rounding and are written whole, in plain digits.
    /// - Parameters:
    ///   - value: a finite number (a non-finite one is a programming error).
    ///   - digits: decimals, 0…9.
    /// - Returns: the number's text.
    public static func fixed(_ value: Double, digits: Int) -> String {
        var text: [UInt8] = []
        appendFixed(value, digits: digits, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends `fixed(value, digits:)` to `out` as UTF-8, without intermediate strings.
    /// - Parameters:
    ///   - value: a finite number.
    ///   - digits: decimals, 0…9.
    ///   - out: the bytes the number is appended to.
    static func appendFixed(_ value: Double, digits: Int, to out: inout [UInt8]) {
        precondition(value.isFinite, "JSON has no NaN or infinity, got \(value)")
        let scaled = (value * powersOfTen[digits]).rounded()
        if scaled == 0 {
            out.append(UInt8(ascii: "0"))
            return
        }
        guard abs(scaled) < integerLimit else {
            out.append(contentsOf: plainDecimal(value.description).utf8)
            return
        }
        // Integer arithmetic on the scaled value: whole part, then the fraction without its
        // trailing zeros, zero-padded on the left.
        let magnitude = UInt64(abs(scaled)), unit = UInt64(powersOfTen[digits])
        if scaled < 0 { out.append(UInt8(ascii: "-")) }
        appendDigits(magnitude / unit, width: 1, to: &out)
        var fraction = magnitude % unit, width = digits
        while width > 0, fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        if width > 0 {
            out.append(UInt8(ascii: "."))
            appendDigits(fraction, width: width, to: &out)
        }
    }

    /// The decimal digits of `n`, zero-padded on the left to at least `width` (≤ 20).
    private static func appendDigits(_ n: UInt64, width: Int, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var n = n, start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(n % 10)
                n /= 10
            } while n > 0 || buffer.count - start < width
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// `value` rounded to `digits` decimals as the double a JSON reader parses back from
    /// `fixed(value, digits:)`.
    /// - Parameters:
    ///   - value: a finite number.
    ///   - digits: decimals, 0…9.
    /// - Returns: the rounded double (`value` itself when too large to have a fraction).
    public static func rounded(_ value: Double, digits: Int) -> Double {
        precondition(value.isFinite, "JSON has no NaN or infinity, got \(value)")
        let scale = powersOfTen[digits]
        let scaled = (value * scale).rounded()
        guard abs(scaled) < integerLimit else { return value }
        // Dividing two exact integers-as-doubles gives the double nearest to the decimal.
        // `+ 0` turns -0 into 0.
        return scaled / scale + 0
    }

    /// The shortest text that reads back as the same finite double, without an exponent for
    /// ordinary magnitudes and without ".0" for whole numbers ("3", "2.7", "1e-07").
    /// - Parameter value: a finite number.
    /// - Returns: the number's text.
    public static func shortest(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    private static let powersOfTen: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]
    /// Beyond this, `x * 10^digits` no longer fits an Int64.
    private static let integerLimit = 9.0e18

    /// Writes a huge double from Swift's shortest round-trip text ("92000000000000.0",
    /// "1.5e+20") in plain digits ("92000000000000", "150000000000000000000").
    private static func plainDecimal(_ text: String) -> String {
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }),
              let exponent = Int(text[text.index(after: e)...]) else {
            guard text.contains(".") else { return text }
            var trimmed = Substring(text)
            while trimmed.last == "0" { trimmed = trimmed.dropLast() }
            if trimmed.last == "." { trimmed = trimmed.dropLast() }
            return String(trimmed)
        }
        var mantissa = Substring(text[..<e])
        let sign = mantissa.hasPrefix("-") ? "-" : ""
        if !sign.isEmpty { mantissa = mantissa.dropFirst() }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let fraction = parts.count > 1 ? parts[1] : ""
        // Exponent notation starts at 2^53, where a double has no fraction left, so the
        // exponent always covers the mantissa's fractional digits.
        let zeros = max(0, exponent - fraction.count)
        return sign + parts[0] + fraction + String(repeating: "0", count: zeros)
    }
}
