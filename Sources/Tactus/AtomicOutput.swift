import Foundation
import TactusAudio

/// Writes an output under a temporary name in its final folder and renames it into place,
/// so an interrupted or failed run never leaves a half-written file under the real name.
struct AtomicOutput {
    /// Ends every temporary's name, so leftovers of a killed run can be recognised.
    static let temporarySuffix = ".tactus-tmp"

    let destination: URL
    let temporary: URL

    init(_ destination: URL) {
        self.destination = destination
        let dir = destination.deletingLastPathComponent()
        let token = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        temporary = dir.appendingPathComponent(".\(destination.lastPathComponent).\(token)\(Self.temporarySuffix)")
    }

    func write(_ data: Data) throws {
        do { try data.write(to: temporary) } catch {
            discard()
            throw ConversionError(file: destination.path, reason: "cannot write \(destination.lastPathComponent): \(Self.describe(error))",
                                  hint: FileErrorReason.writeHint)
        }
    }

    /// Moves the temporary file over the destination (atomic on one filesystem).
    func commit() throws {
        if rename(temporary.path, destination.path) != 0 {
            let reason = String(cString: strerror(errno))
            discard()
            throw ConversionError(file: destination.path, reason: "cannot write \(destination.lastPathComponent): \(reason)",
                                  hint: FileErrorReason.writeHint)
        }
    }

    func discard() {
        unlink(temporary.path)
    }

    static func describe(_ error: Error) -> String {
        FileErrorReason.describe(error)
    }
}
