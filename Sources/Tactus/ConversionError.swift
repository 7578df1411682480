import Foundation
import TactusAudio

/// A conversion failure for one input: names the file and the reason, one line.
public typealias ConversionError = FileError

extension FileError {
    /// The failure of converting `file`, whatever layer it came from.
    init(file: URL, _ error: Error) {
        if let audio = error as? AudioError {
            self.init(file: file.path, reason: audio.reason, hint: audio.hint)
        } else if let failure = error as? FileError {
            self.init(file: file.path, reason: failure.reason, hint: failure.hint)
        } else {
            self.init(file: file.path, reason: "\(error)")
        }
    }
}
