import TactusCore
import TactusPlatform

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
    /// An encoder; it keeps no state between documents.
    public init() {}

    /// The decimals a time is written with (10 µs, far below what anyone can feel).
    public static let timeDecimals = 5
    /// The smallest time step written, seconds.
    public static let timeResolution = 0.000_01
    /// The decimals a parameter value is written with.
    public static let valueDecimals = 4

    /// A time exactly as it will read back from the file.
    /// - Parameter time: a time in seconds.
    /// - Returns: the time rounded to `timeDecimals` decimals.
    public static func roundedTime(_ time: Double) -> Double {
        JSONText.rounded(time, digits: timeDecimals)
    }

    /// A parameter value exactly as it will read back from the file.
    /// - Parameter value: a parameter value.
    /// - Returns: the value rounded to `valueDecimals` decimals.
    public static func roundedValue(_ value: Double) -> Double {
        JSONText.rounded(value, digits: valueDecimals)
    }

    /// The document as UTF-8 JSON, ending with a newline. Elements are appended one by one,
    /// so an hour-long pattern never exists as text twice over.
    /// - Parameter document: a document whose numbers are all finite.
    /// - Returns: the UTF-8 bytes.
    public func encode(_ document: AHAPDocument) -> Data {
        var data = Data()
        write(document) { data.append(contentsOf: $0.utf8) }
        return data
    }

    /// The document as JSON text, ending with a newline.
    /// - Parameter document: a document whose numbers are all finite.
    /// - Returns: the JSON text.
    public func encodeToString(_ document: AHAPDocument) -> String {
        var text = ""
        write(document) { text += $0 }
        return text
    }

    /// The document as consecutive pieces of JSON text, for writing straight to a file
    /// without holding the whole text.
    /// - Parameters:
    ///   - document: a document whose numbers are all finite.
    ///   - emit: receives the pieces in order; their concatenation is `encodeToString(document)`.
    ///     An error it throws stops writing and is rethrown.
    public func write(_ document: AHAPDocument, to emit: (String) throws -> Void) rethrows {
        var out = "{\n"
        // Apple's examples write `1.0`; keep that look for the version.
        var version = JSONText.fixed(document.version, digits: Self.valueDecimals)
        if !version.contains(".") { version += ".0" }
        out += "  \"Version\": \(version),\n"
        if !document.metadata.isEmpty {
            out += "  \"Metadata\": " + MetadataEntry.jsonObject(document.metadata) + ",\n"
        }
        if document.pattern.isEmpty {
            try emit(out + "  \"Pattern\": []\n}\n")
            return
        }
        try emit(out + "  \"Pattern\": [\n")
        // Elements are written into one piece, handed on whenever it passes `pieceBytes`.
        var piece = ""
        for (index, element) in document.pattern.enumerated() {
            if index > 0 { piece += ",\n" }
            Self.append(element, to: &piece)
            if piece.utf8.count >= Self.pieceBytes {
                try emit(piece)
                piece = ""
            }
        }
        try emit(piece + "\n  ]\n}\n")
    }

    /// Bytes of text gathered before `write(_:to:)` hands a piece on.
    static let pieceBytes = 1 << 16

    // MARK: - Elements

    /// One pattern element at indentation 4, its body at 8 and its fields at 10.
    private static func append(_ element: AHAPElement, to out: inout String) {
        var fields = FieldList()
        switch element {
        case .event(let event):
            out += "    {\n      \"Event\": {\n"
            appendEventFields(event, to: &out, &fields)
        case .parameter(let parameter):
            appendParameterOpening("Parameter", id: parameter.parameterID, time: parameter.time, to: &out, &fields)
            fields.start("ParameterValue", in: &out)
            appendValue(parameter.value, to: &out)
        case .curve(let curve):
            appendParameterOpening("ParameterCurve", id: curve.parameterID, time: curve.time, to: &out, &fields)
            fields.start("ParameterCurveControlPoints", in: &out)
            appendCompactArray(curve.controlPoints, to: &out) { point, out in
                out += "{ \"Time\": "
                appendTime(point.time, to: &out)
                out += ", \"ParameterValue\": "
                appendValue(point.value, to: &out)
                out += " }"
            }
        }
        out += "\n      }\n    }"
    }

    /// The start of a dynamic parameter or a parameter curve: the element's name, then its
    /// `ParameterID` and `Time` fields.
    private static func appendParameterOpening(_ name: String, id: String, time: Double, to out: inout String,
                                               _ fields: inout FieldList) {
        out += "    {\n      \""
        out += name
        out += "\": {\n"
        fields.start("ParameterID", in: &out)
        JSONText.appendQuoted(id, to: &out)
        fields.start("Time", in: &out)
        appendTime(time, to: &out)
    }

    private static func appendEventFields(_ event: AHAPEvent, to out: inout String, _ fields: inout FieldList) {
        fields.start("Time", in: &out)
        appendTime(event.time, to: &out)
        fields.start("EventType", in: &out)
        JSONText.appendQuoted(event.type.rawValue, to: &out)
        if let duration = event.duration {
            fields.start("EventDuration", in: &out)
            appendTime(duration, to: &out)
        }
        if let path = event.waveformPath {
            fields.start("EventWaveformPath", in: &out)
            JSONText.appendQuoted(path, to: &out)
        }
        if let flag = event.useVolumeEnvelope {
            fields.start("EventWaveformUseVolumeEnvelope", in: &out)
            out += "\(flag)"
        }
        if let flag = event.loopEnabled {
            fields.start("EventWaveformLoopEnabled", in: &out)
            out += "\(flag)"
        }
        fields.start("EventParameters", in: &out)
        appendCompactArray(event.parameters, to: &out) { parameter, out in
            out += "{ \"ParameterID\": "
            JSONText.appendQuoted(parameter.id, to: &out)
            out += ", \"ParameterValue\": "
            appendValue(parameter.value, to: &out)
            out += " }"
        }
    }

    /// The fields of one element body, each on its own line at indentation 8, separated by commas.
    private struct FieldList {
        private var count = 0

        /// Starts the field `name`: its separator, indentation and key; the value follows.
        mutating func start(_ name: String, in out: inout String) {
            out += count == 0 ? "        \"" : ",\n        \""
            out += name
            out += "\": "
            count += 1
        }
    }

    /// An array whose items each take one line, inside a field at indentation 8.
    private static func appendCompactArray<Item>(_ items: [Item], to out: inout String,
                                                 _ appendItem: (Item, inout String) -> Void) {
        if items.isEmpty {
            out += "[]"
            return
        }
        out += "[\n"
        for (index, item) in items.enumerated() {
            out += index == 0 ? "          " : ",\n          "
            appendItem(item, &out)
        }
        out += "\n        ]"
    }

    private static func appendTime(_ x: Double, to out: inout String) {
        JSONText.appendFixed(x, digits: timeDecimals, to: &out)
    }

    private static func appendValue(_ x: Double, to out: inout String) {
        JSONText.appendFixed(x, digits: valueDecimals, to: &out)
    }
}
