import TactusPlatform

/// The findings a reader of a JSON haptic file collects as it goes (what
/// `HapticReadableFormat.validate` returns), with the checks every such reader makes: that the
/// bytes are JSON, and that a member is there with the kind expected.
public struct FormatFindings: Sendable {
    /// Every finding so far, in the order found.
    public private(set) var all: [FormatDiagnostic] = []

    /// No findings yet.
    public init() {}

    /// Whether any finding is an error.
    public var hasErrors: Bool { all.contains { $0.severity == .error } }

    /// Adds an error: the file will not load, or will not play as written.
    /// - Parameters:
    ///   - kind: the finding's stable name.
    ///   - location: the JSON path, or empty for the whole file.
    ///   - message: what is wrong, in words.
    public mutating func error(_ kind: String, _ location: String, _ message: String) {
        all.append(FormatDiagnostic(severity: .error, kind: kind, location: location, message: message))
    }

    /// Adds a warning: the file plays, but probably not as its author meant.
    /// - Parameters:
    ///   - kind: the finding's stable name.
    ///   - location: the JSON path, or empty for the whole file.
    ///   - message: what is wrong, in words.
    public mutating func warning(_ kind: String, _ location: String, _ message: String) {
        all.append(FormatDiagnostic(severity: .warning, kind: kind, location: location, message: message))
    }

    /// `data` parsed as JSON, or nil after an `invalidJSON` error naming the line and column.
    /// - Parameter data: the file's bytes, untrusted.
    /// - Returns: the parsed value, or nil.
    public mutating func json(_ data: Data) -> JSONValue? {
        do { return try JSONReader.parse(data) } catch {
            self.error("invalidJSON", "", "\(error)")
            return nil
        }
    }

    /// `value` as an array, or nil after a `missingKey` (no value) or `wrongType` error at `place`.
    /// - Parameters:
    ///   - value: a member's value, nil when the member is missing.
    ///   - place: the member's JSON path, for the finding.
    /// - Returns: the items, or nil.
    public mutating func array(_ value: JSONValue?, at place: String) -> [JSONValue]? {
        guard let value else {
            self.error("missingKey", place, "missing")
            return nil
        }
        guard case .array(let items) = value else {
            self.error("wrongType", place, "expected an array, found \(value.kindName)")
            return nil
        }
        return items
    }
}
