import Foundation

public enum FileCopy {
    /// Copies `source` to `destination` in fixed-size chunks (never the whole file in memory).
    /// The source is opened read-only.
    public static func stream(from source: URL, to destination: URL, chunkSize: Int = 1 << 20) throws {
        guard let input = FileHandle(forReadingAtPath: source.path) else {
            throw AudioError(.unreadable, "cannot be read")
        }
        defer { try? input.close() }
        guard FileManager.default.createFile(atPath: destination.path, contents: nil),
              let output = FileHandle(forWritingAtPath: destination.path) else {
            throw AudioError(.writeFailed, "cannot create \(destination.lastPathComponent)")
        }
        defer { try? output.close() }
        do {
            while true {
                let chunk = try input.read(upToCount: chunkSize) ?? Data()
                if chunk.isEmpty { break }
                try output.write(contentsOf: chunk)
            }
            try output.synchronize()
        } catch {
            throw AudioError(.writeFailed, "cannot copy the audio: \(FileErrorReason.describe(error))",
                             hint: FileErrorReason.writeHint)
        }
    }
}
