import TactusPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An output written under a hidden temporary name in its final folder and renamed into
/// place only when complete (atomic on one filesystem), so a failed or interrupted run
/// never leaves a half-written file under a real name. Conversions, batch manifests and
/// reports, and previews all write through it.
///
/// Durability against power loss is a step of its own, not part of each write: `commit`
/// records the file in a `CommittedFiles` log, whose `flush()` syncs the files and their
/// folders (at the end of a command, and during a batch from `BackgroundFlush`), so a run
/// pays one pass of syncs rather than a journal commit per file.
public struct StagedFile {
    /// Ends every temporary's name, so leftovers of a killed run can be recognised.
    public static let temporarySuffix = ".tactus-tmp"

    /// The final path, replaced only by `commit`.
    public let destination: URL
    /// The hidden temporary beside it (`.<name>.<random><temporarySuffix>`).
    public let temporary: URL

    /// A staged file for `destination`; nothing is created until a write.
    /// - Parameter destination: the output's final path.
    public init(_ destination: URL) {
        self.destination = destination
        let token = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        temporary = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(token)\(Self.temporarySuffix)")
    }

    /// Writes the whole temporary at once.
    /// - Parameter data: the file's bytes.
    /// - Throws: a `FileError` naming the destination; the temporary is removed.
    public func write(_ data: Data) throws {
        do { try data.write(to: temporary) } catch {
            discard()
            throw failure(FileErrorReason.describe(error))
        }
    }

    /// Writes the whole temporary at once, as UTF-8.
    /// - Parameter text: the file's text.
    /// - Throws: a `FileError` naming the destination; the temporary is removed.
    public func write(_ text: String) throws {
        try write(Data(text.utf8))
    }

    /// Writes text as `produce` hands it over, in 64 KB blocks (see `write(bytes:)`).
    /// Returns the number of bytes written.
    /// - Parameter produce: calls its argument with each piece of text, in order.
    /// - Returns: the bytes written.
    /// - Throws: as `write(bytes:)`.
    @discardableResult
    public func write(streaming produce: ((String) throws -> Void) throws -> Void) throws -> Int {
        try withoutActuallyEscaping(produce) { produce in
            try write(bytes: { emit in try produce { try $0.withUTF8Bytes(emit) } })
        }
    }

    /// Writes bytes as `produce` hands them over, in 64 KB blocks, so a large output is never
    /// held whole in memory. Returns the number of bytes written. The temporary is created
    /// with one `open` (mode 0666 less the umask), not Foundation's `createFile`, which
    /// creates and renames a file of its own first: a second name in the folder per output.
    /// - Throws: a `FileError` naming the destination when the file system fails; whatever
    ///   `produce` throws (a format refusing what it cannot express), unchanged. Either way
    ///   the temporary file is removed.
    /// - Parameter produce: calls its argument with each piece of bytes, in order.
    /// - Returns: the bytes written.
    @discardableResult
    public func write(bytes produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> Int {
        var written = 0
        do {
            let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
            guard descriptor >= 0 else { throw failure("cannot be created") }
            defer { close(descriptor) }
            func flush(_ buffer: [UInt8]) throws {
                let error = buffer.withUnsafeBytes { Descriptor.writeAll(descriptor, $0) }
                guard error == 0 else { throw failure(String(cString: strerror(error))) }
                written += buffer.count
            }
            var buffer: [UInt8] = []
            buffer.reserveCapacity(1 << 16 + 4096)
            try produce { piece in
                buffer.append(contentsOf: piece)
                if buffer.count >= 1 << 16 {
                    try flush(buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            try flush(buffer)
        } catch {
            discard()
            throw error
        }
        return written
    }

    /// Moves the temporary file over the destination and records it in `log`, which syncs
    /// it to disk later (`CommittedFiles.flush()`).
    /// - Parameter log: the command's log.
    /// - Throws: a `FileError` naming the destination when the rename fails; the temporary is removed.
    public func commit(recordingIn log: CommittedFiles) throws {
        if rename(temporary.path, destination.path) != 0 {
            let reason = String(cString: strerror(errno))
            discard()
            throw failure(reason)
        }
        log.record(destination.path)
    }

    /// Throws when a folder holds the destination's name, which `commit` could not replace:
    /// an output of several files checks each before it commits the first.
    /// - Throws: a `FileError` naming the destination; the temporary is removed.
    public func checkDestination() throws {
        var status = stat()
        if stat(destination.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            discard()
            throw failure("a folder of that name is in the way")
        }
    }

    /// Removes the temporary, if any (a no-op after `commit`).
    public func discard() {
        unlink(temporary.path)
    }

    private func failure(_ reason: String) -> FileError {
        FileError(file: destination.path, reason: "cannot write \(destination.lastPathComponent): \(reason)",
                  hint: FileErrorReason.writeHint)
    }
}
