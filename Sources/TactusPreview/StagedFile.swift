import Foundation

/// An output written under a hidden temporary name in its final folder and renamed into
/// place only when every output of the preview is complete, so a failed or interrupted run
/// never leaves a half-written file (or a page naming a missing sound) under a real name.
///
/// `Tactus.AtomicOutput` does the same for conversions, but TactusPreview sits below the
/// `Tactus` module (batch calls into it), so it cannot use that internal type.
struct StagedFile {
    let destination: URL
    let temporary: URL

    init(_ destination: URL) {
        self.destination = destination
        let token = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        temporary = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(token).tactus-tmp")
    }

    func write(_ text: String) throws {
        do { try Data(text.utf8).write(to: temporary) } catch {
            throw PreviewError(file: destination.path, reason: "cannot write: \((error as NSError).localizedDescription)")
        }
    }

    /// Moves the temporary file over the destination (atomic on one filesystem).
    func commit() throws {
        if rename(temporary.path, destination.path) != 0 {
            throw PreviewError(file: destination.path, reason: "cannot write: \(String(cString: strerror(errno)))")
        }
    }

    func discard() {
        unlink(temporary.path)
    }
}
