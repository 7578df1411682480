import Foundation

/// Why a preview could not be made for one file: names the file and the reason on one line,
/// in the CLI's `<file>: <what went wrong> (<hint>)` shape.
public struct PreviewError: Error, Equatable, CustomStringConvertible {
    public let file: String
    public let reason: String
    public let hint: String?

    public init(file: String, reason: String, hint: String? = nil) {
        self.file = file
        self.reason = reason
        self.hint = hint
    }

    public var description: String {
        "\(file): \(reason)" + (hint.map { " (\($0))" } ?? "")
    }
}
