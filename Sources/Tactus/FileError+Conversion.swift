import TactusAudio
import TactusCore

extension FileError {
    /// The failure of converting `file`, whatever layer it came from: the reason and hint of
    /// an `AudioError` or a `FileError`, re-addressed to the input the user named.
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
