import TactusCore

/// Why an audio file could not be read or written. Messages name the reason in words a
/// designer understands; the caller adds the file name.
public struct AudioError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        case notFound, isDirectory, unreadable, notAudio, unsupported, empty, decodeFailed, writeFailed
    }

    public let kind: Kind
    public let reason: String
    public let hint: String?

    public init(_ kind: Kind, _ reason: String, hint: String? = nil) {
        self.kind = kind
        self.reason = reason
        self.hint = hint
    }

    public var description: String { hint.map { "\(reason) (\($0))" } ?? reason }
}
