import TactusCore
import TactusPlatform

/// Writes an `AHAPDocument` as JSON text, byte for byte the same on every platform.
///
/// Output is hand-written rather than produced by `JSONEncoder`/`JSONSerialization`,
/// whose key order, number formatting and escaping differ between Darwin and
/// swift-corelibs-foundation. Keys follow the order of Apple's AHAP examples; the layout
/// is `JSONWriter`'s one member a line, except that each event parameter and each control
/// point sits on one padded line, which keeps long patterns small and diff-friendly.
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
        JSONWriter.text { Self.write(document, into: &$0) }
    }

    /// The document as consecutive pieces of JSON text (`JSONWriter`'s, of about 64 KB), for
    /// writing straight to a file without holding the whole text.
    /// - Parameters:
    ///   - document: a document whose numbers are all finite.
    ///   - emit: receives the pieces in order; their concatenation is `encodeToString(document)`.
    ///     Once it throws, writing stops handing on text and its error is rethrown.
    /// - Throws: what `emit` threw.
    public func write<Failure: Error>(_ document: AHAPDocument, to emit: (String) throws(Failure) -> Void) throws(Failure) {
        try JSONWriter.stream(to: emit) { Self.write(document, into: &$0) }
    }

    /// The file's declared style: every object and array one member a line, except each event
    /// parameter and control point on one padded line; times and values to their decimals.
    private enum Style {
        static let document = JSONLayout.lines
        static let entry = JSONLayout.padded
        /// Apple's examples write `1.0`; the version keeps that look.
        static let version = JSONNumberFormat.fixedWithPoint(digits: valueDecimals)
        static let time = JSONNumberFormat.fixed(digits: timeDecimals)
        static let value = JSONNumberFormat.fixed(digits: valueDecimals)
    }

    private static func write(_ document: AHAPDocument, into json: inout JSONWriter) {
        json.beginObject(Style.document)
        json.member("Version", document.version, Style.version)
        if !document.metadata.isEmpty {
            json.member("Metadata", MetadataEntry.jsonObject(document.metadata), layout: Style.document)
        }
        json.key("Pattern")
        json.beginArray(Style.document)
        for element in document.pattern { write(element, into: &json) }
        json.endArray()
        json.endObject()
    }

    // MARK: - Elements

    /// One pattern element: an object holding the event, parameter or curve by its name.
    private static func write(_ element: AHAPElement, into json: inout JSONWriter) {
        json.beginObject(Style.document)
        switch element {
        case .event(let event):
            json.key("Event")
            json.beginObject(Style.document)
            writeFields(of: event, into: &json)
        case .parameter(let parameter):
            writeParameterOpening("Parameter", id: parameter.parameterID, time: parameter.time, into: &json)
            json.member("ParameterValue", parameter.value, Style.value)
        case .curve(let curve):
            writeParameterOpening("ParameterCurve", id: curve.parameterID, time: curve.time, into: &json)
            json.key("ParameterCurveControlPoints")
            json.beginArray(Style.document)
            for point in curve.controlPoints {
                json.beginObject(Style.entry)
                json.member("Time", point.time, Style.time)
                json.member("ParameterValue", point.value, Style.value)
                json.endObject()
            }
            json.endArray()
        }
        json.endObject()
        json.endObject()
    }

    /// The start of a dynamic parameter or a parameter curve: the element's name, then its
    /// `ParameterID` and `Time` fields.
    private static func writeParameterOpening(_ name: String, id: String, time: Double, into json: inout JSONWriter) {
        json.key(name)
        json.beginObject(Style.document)
        json.member("ParameterID", id)
        json.member("Time", time, Style.time)
    }

    private static func writeFields(of event: AHAPEvent, into json: inout JSONWriter) {
        json.member("Time", event.time, Style.time)
        json.member("EventType", event.type.rawValue)
        if let duration = event.duration {
            json.member("EventDuration", duration, Style.time)
        }
        if let path = event.waveformPath {
            json.member("EventWaveformPath", path)
        }
        if let flag = event.useVolumeEnvelope {
            json.member("EventWaveformUseVolumeEnvelope", flag)
        }
        if let flag = event.loopEnabled {
            json.member("EventWaveformLoopEnabled", flag)
        }
        json.key("EventParameters")
        json.beginArray(Style.document)
        for parameter in event.parameters {
            json.beginObject(Style.entry)
            json.member("ParameterID", parameter.id)
            json.member("ParameterValue", parameter.value, Style.value)
            json.endObject()
        }
        json.endArray()
    }
}
