import Foundation
import TactusAudio

/// A conversion failure for one input: names the file and the reason, one line.
public struct ConversionError: Error, CustomStringConvertible {
    public let file: String
    public let reason: String
    public let hint: String?

    public init(file: String, reason: String, hint: String? = nil) {
        self.file = file
        self.reason = reason
        self.hint = hint
    }

    init(file: URL, _ error: Error) {
        self.file = file.path
        if let audio = error as? AudioError {
            reason = audio.reason
            hint = audio.hint
        } else if let conversion = error as? ConversionError {
            reason = conversion.reason
            hint = conversion.hint
        } else {
            reason = "\(error)"
            hint = nil
        }
    }

    /// `<file>: <what went wrong> (<hint>)`
    public var description: String {
        "\(file): \(reason)" + (hint.map { " (\($0))" } ?? "")
    }
}
