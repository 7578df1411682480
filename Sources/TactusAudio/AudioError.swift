import TactusCore

/// Why an audio file could not be read or written. Messages name the reason in words a
/// designer understands; the caller adds the file name.
public struct AudioError: Error, Equatable, CustomStringConvertible {
    /// What went wrong, for callers that act on it (the message is in `reason`).
    public enum Kind: Equatable, Sendable {
        /// No file at the path; a folder; no permission or not a regular file; not audio libsndfile reads; an implausible header (sample rate, channels); no samples; damaged past some point; a write that failed.
        case notFound, isDirectory, unreadable, notAudio, unsupported, empty, decodeFailed, writeFailed
    }

    /// The kind of failure.
    public let kind: Kind
    /// The reason, as it follows the file name in a one-line report (e.g. "is empty (0 bytes)").
    public let reason: String
    /// What the user can do about it, shown in parentheses after the reason; nil when nothing helps.
    public let hint: String?

    /// - Parameters:
    ///   - kind: the kind of failure.
    ///   - reason: the reason, worded to follow the file name.
    ///   - hint: what the user can do about it, or nil.
    public init(_ kind: Kind, _ reason: String, hint: String? = nil) {
        self.kind = kind
        self.reason = reason
        self.hint = hint
    }

    /// The reason followed by the hint in parentheses, without the file name.
    public var description: String { hint.map { "\(reason) (\($0))" } ?? reason }
}
