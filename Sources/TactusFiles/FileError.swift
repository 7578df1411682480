import TactusPlatform

/// A failure for one file, named with its reason on one line, in the CLI's
/// `<file>: <what went wrong> (<hint>)` shape. Conversion, batch and preview all report with it.
public struct FileError: Error, Equatable, CustomStringConvertible {
    /// The file, as the user named it.
    public let file: String
    /// What went wrong, worded to follow the file name ("is empty (0 bytes)").
    public let reason: String
    /// What the user can do about it, shown in parentheses; nil when nothing helps.
    public let hint: String?

    /// - Parameters:
    ///   - file: the file, as the user named it.
    ///   - reason: what went wrong.
    ///   - hint: what to do about it, or nil.
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
