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
    /// The smallest time step written, seconds.
    public static let timeResolution = 0.000_01
    /// The decimals a parameter value is written with.
    public static let valueDecimals = 4

    /// A time exactly as it will read back from the file.
    public static func roundedTime(_ time: Double) -> Double {
        JSONText.rounded(time, digits: timeDecimals)
    }

    /// A parameter value exactly as it will read back from the file.
    public static func roundedValue(_ value: Double) -> Double {
        JSONText.rounded(value, digits: valueDecimals)
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
        var version = JSONText.fixed(document.version, digits: Self.valueDecimals)
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

    private static func time(_ x: Double) -> String { JSONText.fixed(x, digits: timeDecimals) }
    private static func value(_ x: Double) -> String { JSONText.fixed(x, digits: valueDecimals) }
}
