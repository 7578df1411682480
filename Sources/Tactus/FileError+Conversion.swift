import TactusAudio
import TactusCore
import TactusFiles
import TactusPlatform

extension FileError {
    /// The failure of converting `file`, whatever layer it came from: the reason and hint of
    /// an `AudioError` or a `FileError`, re-addressed to the input the user named.
    /// - Parameters:
    ///   - file: the input the user named.
    ///   - error: what failed, from any layer.
    public init(file: URL, _ error: Error) {
        self.init(file: file.path, error)
    }

    /// The same, for an input named by `file` as the user sees it (a path as typed, or a
    /// dropped file's own name).
    /// - Parameters:
    ///   - file: the input as the user sees it.
    ///   - error: what failed, from any layer.
    public init(file: String, _ error: Error) {
        if let audio = error as? AudioError {
            self.init(file: file, reason: audio.reason, hint: audio.hint)
        } else if let failure = error as? FileError {
            self.init(file: file, reason: failure.reason, hint: failure.hint)
        } else {
            self.init(file: file, reason: "\(error)")
        }
    }
}
