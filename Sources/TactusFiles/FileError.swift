import TactusPlatform

/// A failure for one file, named with its reason on one line, in the CLI's
/// `<file>: <what went wrong> (<hint>)` shape. Conversion, batch and preview all report with it.
public struct FileError: Error, Equatable, CustomStringConvertible {
    public let file: String
    public let reason: String
    public let hint: String?

    public init(file: String, reason: String, hint: String? = nil) {
        self.file = file
        self.reason = reason
        self.hint = hint
    }

    /// `<file>: <what went wrong> (<hint>)`
    public var description: String {
        "\(file): \(reason)" + (hint.map { " (\($0))" } ?? "")
    }
}
