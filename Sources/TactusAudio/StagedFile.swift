import Foundation

/// An output written under a hidden temporary name in its final folder and renamed into
/// place only when complete (atomic on one filesystem), so a failed or interrupted run
/// never leaves a half-written file under a real name. Conversions, batch manifests and
/// reports, and previews all write through it.
public struct StagedFile {
    /// Ends every temporary's name, so leftovers of a killed run can be recognised.
    public static let temporarySuffix = ".tactus-tmp"

    public let destination: URL
    public let temporary: URL

    public init(_ destination: URL) {
        self.destination = destination
        let token = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        temporary = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(token)\(Self.temporarySuffix)")
    }

    public func write(_ data: Data) throws {
        do { try data.write(to: temporary) } catch {
            discard()
            throw failure(FileErrorReason.describe(error))
        }
    }

    public func write(_ text: String) throws {
        try write(Data(text.utf8))
    }

    /// Moves the temporary file over the destination.
    public func commit() throws {
        if rename(temporary.path, destination.path) != 0 {
            let reason = String(cString: strerror(errno))
            discard()
            throw failure(reason)
        }
    }

    public func discard() {
        unlink(temporary.path)
    }

    private func failure(_ reason: String) -> FileError {
        FileError(file: destination.path, reason: "cannot write \(destination.lastPathComponent): \(reason)",
                  hint: FileErrorReason.writeHint)
    }
}
