import Foundation
import TactusCore

/// Why a file could not be read as an AHAP document.
public struct AHAPDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where, as a JSON path like `Pattern[3].Event.Time`; empty for the whole file.
    public var path: String
    public var message: String

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
    public init() {}

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
        let root = Node(json, path: "")
        _ = try root.object()
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
        _ = try body.object()
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
                _ = try item.object()
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
                _ = try point.object()
                return .init(time: try point.required("Time").number(),
                             value: try point.required("ParameterValue").number())
            })
    }
}

/// A JSON value together with its path, so every shape error can say where it is.
/// Shared by the decoder and the validator.
struct Node {
    let json: JSONValue
    let path: String

    init(_ json: JSONValue, path: String) {
        self.json = json
        self.path = path
    }

    func child(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func failure(_ message: String) -> AHAPDecodingError { AHAPDecodingError(path: path, message: message) }
    func mismatch(_ expected: String) -> AHAPDecodingError { failure("expected \(expected), found \(json.kindName)") }

    func optional(_ key: String) -> Node? { json[key].map { Node($0, path: child(key)) } }

    func required(_ key: String) throws -> Node {
        guard let node = optional(key) else { throw failure("missing required key \"\(key)\"") }
        return node
    }

    func object() throws -> [(key: String, value: Node)] {
        guard case .object(let members) = json else { throw mismatch("an object") }
        return members.map { ($0.key, Node($0.value, path: child($0.key))) }
    }

    func array() throws -> [Node] {
        guard case .array(let items) = json else { throw mismatch("an array") }
        return items.enumerated().map { Node($1, path: "\(path)[\($0)]") }
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
