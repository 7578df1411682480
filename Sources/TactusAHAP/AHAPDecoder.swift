import TactusCore
import TactusPlatform

/// Why a file could not be read as an AHAP document.
public struct AHAPDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where, as a JSON path like `Pattern[3].Event.Time`; empty for the whole file.
    public var path: String
    /// What is wrong there, in words.
    public var message: String

    /// The path and the message, on one line.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Reads AHAP JSON, ours or any other tool's, into an `AHAPDocument`.
///
/// It checks shape only — types, required keys, one element kind per `Pattern` entry —
/// and leaves value judgements (ranges, limits, unknown IDs) to `AHAPValidator`, so that
/// files that Core Haptics would load, even badly, can still be inspected and evaluated.
/// Like Core Haptics it ignores unknown keys and, for a duplicated key, keeps the last.
/// A missing `Version` reads as 1.0; a missing `EventParameters` as an empty list.
/// It never traps on malformed input: every failure is a thrown `AHAPDecodingError`.
public struct AHAPDecoder: Sendable {
    /// A decoder; it keeps no state between files.
    public init() {}

    /// - Parameter data: the file's bytes (UTF-8 JSON).
    /// - Returns: the document, element for element as the file holds it.
    /// - Throws: an `AHAPDecodingError` naming the JSON path of the first shape error, or the
    ///   JSON syntax error.
    public func decode(_ data: Data) throws -> AHAPDocument {
        let json: JSONValue
        do {
            json = try JSONReader.parse(data)
        } catch let error as JSONSyntaxError {
            throw AHAPDecodingError(path: "", message: error.description)
        }
        return try decode(json)
    }

    /// Decodes an already parsed file (the validator parses once and reuses the tree).
    func decode(_ json: JSONValue) throws -> AHAPDocument {
        let root = Node(json)
        try root.requireObject()
        let version = try root.optional("Version")?.number() ?? 1.0
        let metadata = try root.optional("Metadata").map(metadataEntries) ?? []
        let pattern = try root.required("Pattern").array().map(element)
        return AHAPDocument(version: version, metadata: metadata, pattern: pattern)
    }

    /// Metadata is free text for people and Core Haptics ignores it, so other tools'
    /// numbers and booleans are kept as text and anything else (null, arrays, objects) is
    /// dropped rather than failing a file that plays fine.
    private func metadataEntries(_ node: Node) throws -> [MetadataEntry] {
        try node.object().compactMap { key, value in
            switch value.json {
            case .string(let text): return .init(key: key, value: text)
            case .number(let number) where number.isFinite: return .init(key: key, value: number.description)
            case .bool(let flag): return .init(key: key, value: flag.description)
            default: return nil
            }
        }
    }

    private func element(_ node: Node) throws -> AHAPElement {
        let members = try node.object()
        let kinds = ["Event", "Parameter", "ParameterCurve"].filter { kind in members.contains { $0.key == kind } }
        guard kinds.count == 1, let kind = kinds.first else {
            throw node.failure("expected exactly one of Event, Parameter, ParameterCurve, found \(kinds.isEmpty ? "none" : kinds.joined(separator: " and "))")
        }
        let body = try node.required(kind)
        try body.requireObject()
        switch kind {
        case "Event": return .event(try event(body))
        case "Parameter": return .parameter(try dynamicParameter(body))
        default: return .curve(try curve(body))
        }
    }

    private func event(_ node: Node) throws -> AHAPEvent {
        AHAPEvent(
            time: try node.required("Time").number(),
            type: AHAPEventType(rawValue: try node.required("EventType").string()),
            duration: try node.optional("EventDuration")?.number(),
            waveformPath: try node.optional("EventWaveformPath")?.string(),
            useVolumeEnvelope: try node.optional("EventWaveformUseVolumeEnvelope")?.bool(),
            loopEnabled: try node.optional("EventWaveformLoopEnabled")?.bool(),
            parameters: try node.optional("EventParameters")?.array().map { item in
                try item.requireObject()
                return AHAPEvent.Parameter(id: try item.required("ParameterID").string(),
                                           value: try item.required("ParameterValue").number())
            } ?? [])
    }

    private func dynamicParameter(_ node: Node) throws -> AHAPDynamicParameter {
        AHAPDynamicParameter(parameterID: try node.required("ParameterID").string(),
                             time: try node.required("Time").number(),
                             value: try node.required("ParameterValue").number())
    }

    private func curve(_ node: Node) throws -> AHAPParameterCurve {
        AHAPParameterCurve(
            parameterID: try node.required("ParameterID").string(),
            time: try node.required("Time").number(),
            controlPoints: try node.required("ParameterCurveControlPoints").array().map { point in
                try point.requireObject()
                return .init(time: try point.required("Time").number(),
                             value: try point.required("ParameterValue").number())
            })
    }
}

/// Where a value sits in a JSON document. Built as the reader walks the document and
/// turned into text (`Pattern[3].Event.Time`) only when a message needs it, so walking a
/// pattern of a million values builds no strings.
indirect enum JSONPath {
    case root
    case key(JSONPath, String)
    case index(JSONPath, Int)

    var text: String {
        switch self {
        case .root: return ""
        case .key(.root, let key): return key
        case .key(let parent, let key): return parent.text + "." + key
        case .index(let parent, let index): return parent.text + "[\(index)]"
        }
    }
}

/// One step of a path kept as a stack while a walk descends.
enum PathComponent {
    case key(String)
    case index(Int)

    /// `Pattern[3].Event.Time`
    static func text(_ components: [PathComponent]) -> String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key): text += text.isEmpty ? key : "." + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}

/// A JSON value together with where it is, so every shape error can say so.
/// Shared by the decoder and the validator.
struct Node {
    let json: JSONValue
    let location: JSONPath

    init(_ json: JSONValue, at location: JSONPath = .root) {
        self.json = json
        self.location = location
    }

    /// The location as text, for messages.
    var path: String { location.text }

    func child(_ key: String) -> JSONPath { .key(location, key) }

    func failure(_ message: String) -> AHAPDecodingError { AHAPDecodingError(path: path, message: message) }
    func mismatch(_ expected: String) -> AHAPDecodingError { failure("expected \(expected), found \(json.kindName)") }

    func optional(_ key: String) -> Node? { json[key].map { Node($0, at: child(key)) } }

    func required(_ key: String) throws -> Node {
        guard let node = optional(key) else { throw failure("missing required key \"\(key)\"") }
        return node
    }

    /// Throws unless the value is an object (without building its members).
    func requireObject() throws {
        guard case .object = json else { throw mismatch("an object") }
    }

    func object() throws -> [(key: String, value: Node)] {
        guard case .object(let members) = json else { throw mismatch("an object") }
        return members.map { ($0.key, Node($0.value, at: child($0.key))) }
    }

    func array() throws -> [Node] {
        guard case .array(let items) = json else { throw mismatch("an array") }
        return items.enumerated().map { Node($1, at: .index(location, $0)) }
    }

    /// A finite number; `1e999` and the like are reported rather than read as infinity.
    func number() throws -> Double {
        guard case .number(let value) = json else { throw mismatch("a number") }
        guard value.isFinite else { throw failure("number out of range (overflows to infinity)") }
        return value
    }

    func string() throws -> String {
        guard case .string(let value) = json else { throw mismatch("a string") }
        return value
    }

    func bool() throws -> Bool {
        guard case .bool(let value) = json else { throw mismatch("a boolean") }
        return value
    }
}
