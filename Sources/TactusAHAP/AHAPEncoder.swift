import Foundation
import TactusCore

/// Writes an `AHAPDocument` as JSON text, byte for byte the same on every platform.
///
/// Output is hand-written rather than produced by `JSONEncoder`/`JSONSerialization`,
/// whose key order, number formatting and escaping differ between Darwin and
/// swift-corelibs-foundation. Keys follow the order of Apple's AHAP examples; the layout
/// is 2-space pretty printing, except that each event parameter and each control point
/// sits on one compact line, which keeps long patterns small and diff-friendly.
///
/// Numbers: times (`Time`, `EventDuration`, control-point `Time`) are rounded to 5
/// decimals, values to 4, trailing zeros trimmed, never in exponent notation and never
/// `-0`. A NaN or infinite number is a programming error and stops the program with a
/// `precondition`: the decoder never produces one, and `AHAPWriter` throws on non-finite
/// input before building a document, so only hand-built documents can hit it — and
/// writing a silently "repaired" number into a haptic file would hide the bug.
public struct AHAPEncoder: Sendable {
    public init() {}

    /// The decimals a time is written with (10 µs, far below what anyone can feel).
    public static let timeDecimals = 5
    /// The decimals a parameter value is written with.
    public static let valueDecimals = 4

    /// A time exactly as it will read back from the file.
    public static func roundedTime(_ time: Double) -> Double {
        rounded(time, decimals: timeDecimals)
    }

    /// A parameter value exactly as it will read back from the file.
    public static func roundedValue(_ value: Double) -> Double {
        rounded(value, decimals: valueDecimals)
    }

    /// The document as UTF-8 JSON, ending with a newline. Elements are appended one by one,
    /// so an hour-long pattern never exists as text twice over.
    public func encode(_ document: AHAPDocument) -> Data {
        var data = Data()
        write(document) { data.append(contentsOf: $0.utf8) }
        return data
    }

    /// The document as JSON text, ending with a newline.
    public func encodeToString(_ document: AHAPDocument) -> String {
        var text = ""
        write(document) { text += $0 }
        return text
    }

    /// The document as consecutive pieces of JSON text, for writing straight to a file
    /// without holding the whole text.
    public func write(_ document: AHAPDocument, to emit: (String) throws -> Void) rethrows {
        var out = "{\n"
        // Apple's examples write `1.0`; keep that look for the version.
        var version = Self.number(document.version, decimals: Self.valueDecimals)
        if !version.contains(".") { version += ".0" }
        out += "  \"Version\": \(version),\n"
        if !document.metadata.isEmpty {
            out += "  \"Metadata\": {\n"
            let entries = document.metadata.map { "    \(JSONText.quote($0.key)): \(JSONText.quote($0.value))" }
            out += entries.joined(separator: ",\n") + "\n  },\n"
        }
        if document.pattern.isEmpty {
            try emit(out + "  \"Pattern\": []\n}\n")
            return
        }
        try emit(out + "  \"Pattern\": [\n")
        for (index, element) in document.pattern.enumerated() {
            try emit((index == 0 ? "" : ",\n") + Self.element(element))
        }
        try emit("\n  ]\n}\n")
    }

    // MARK: - Elements

    /// One pattern element at indentation 4, its body at 8 and its fields at 10.
    private static func element(_ element: AHAPElement) -> String {
        let (name, fields): (String, [String])
        switch element {
        case .event(let event):
            name = "Event"
            fields = eventFields(event)
        case .parameter(let parameter):
            name = "Parameter"
            fields = [
                "\"ParameterID\": \(JSONText.quote(parameter.parameterID))",
                "\"Time\": \(time(parameter.time))",
                "\"ParameterValue\": \(value(parameter.value))",
            ]
        case .curve(let curve):
            name = "ParameterCurve"
            let points = curve.controlPoints.map {
                "{ \"Time\": \(time($0.time)), \"ParameterValue\": \(value($0.value)) }"
            }
            fields = [
                "\"ParameterID\": \(JSONText.quote(curve.parameterID))",
                "\"Time\": \(time(curve.time))",
                "\"ParameterCurveControlPoints\": \(compactArray(points))",
            ]
        }
        let body = fields.map { "        " + $0 }.joined(separator: ",\n")
        return "    {\n      \"\(name)\": {\n\(body)\n      }\n    }"
    }

    private static func eventFields(_ event: AHAPEvent) -> [String] {
        var fields = [
            "\"Time\": \(time(event.time))",
            "\"EventType\": \(JSONText.quote(event.type.rawValue))",
        ]
        if let duration = event.duration { fields.append("\"EventDuration\": \(time(duration))") }
        if let path = event.waveformPath { fields.append("\"EventWaveformPath\": \(JSONText.quote(path))") }
        if let flag = event.useVolumeEnvelope { fields.append("\"EventWaveformUseVolumeEnvelope\": \(flag)") }
        if let flag = event.loopEnabled { fields.append("\"EventWaveformLoopEnabled\": \(flag)") }
        let parameters = event.parameters.map {
            "{ \"ParameterID\": \(JSONText.quote($0.id)), \"ParameterValue\": \(value($0.value)) }"
        }
        fields.append("\"EventParameters\": \(compactArray(parameters))")
        return fields
    }

    /// An array whose items each take one line, inside a field at indentation 8.
    private static func compactArray(_ items: [String]) -> String {
        if items.isEmpty { return "[]" }
        return "[\n" + items.map { "          " + $0 }.joined(separator: ",\n") + "\n        ]"
    }

    private static func time(_ x: Double) -> String { number(x, decimals: timeDecimals) }
    private static func value(_ x: Double) -> String { number(x, decimals: valueDecimals) }

    // MARK: - Numbers

    private static let powersOfTen: [Double] = [1, 10, 100, 1_000, 10_000, 100_000]
    /// Beyond this, `x * 10^decimals` no longer fits an Int64 (and a Double has no
    /// fractional digits left worth rounding anyway).
    private static let integerLimit = 9.0e18

    private static func rounded(_ x: Double, decimals: Int) -> Double {
        precondition(x.isFinite, "AHAP numbers must be finite, got \(x)")
        let scale = powersOfTen[decimals]
        let scaled = (x * scale).rounded()
        guard abs(scaled) < integerLimit else { return x }
        // Dividing two exact integers-as-doubles gives the double nearest to the decimal,
        // the same one a JSON reader parses from the text we write. `+ 0` turns -0 into 0.
        return scaled / scale + 0
    }

    /// `x` rounded to `decimals` places, written in plain decimal notation.
    static func number(_ x: Double, decimals: Int) -> String {
        precondition(x.isFinite, "AHAP numbers must be finite, got \(x)")
        let scaled = (x * powersOfTen[decimals]).rounded()
        if scaled == 0 { return "0" }
        guard abs(scaled) < integerLimit else { return plainDecimal(x.description) }
        // Integer arithmetic on the scaled value: whole part, then the fraction without its
        // trailing zeros, zero-padded on the left (character-by-character string surgery
        // was half the cost of writing an AHAP).
        let magnitude = UInt64(abs(scaled)), unit = UInt64(powersOfTen[decimals])
        var text = (scaled < 0 ? "-" : "") + String(magnitude / unit)
        var fraction = magnitude % unit, width = decimals
        while width > 0, fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        if width > 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: width - digits.count) + digits
        }
        return text
    }

    /// Writes a huge double from Swift's shortest round-trip text ("92000000000000.0",
    /// "1.5e+20") in plain digits ("92000000000000", "150000000000000000000"), so that even
    /// absurd magnitudes avoid exponents and trailing zeros.
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
