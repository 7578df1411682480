import TactusPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Copies files without holding them in memory.
public enum FileCopy {
    #if canImport(Glibc)
    /// Linux's `FICLONE` ioctl request, `_IOW(0x94, 9, int)` (the macro is not imported).
    private static let cloneRequest: UInt = 0x4004_9409
    #endif

    /// Copies `source` to `destination`, never holding the whole file in memory. The source
    /// is opened read-only and must be a regular file (`InputFile`). (Callers stage the copy; its `CommittedFiles` log syncs it.)
    ///
    /// On Linux the file system shares the source's blocks with the copy where it can
    /// (a reflink, `FICLONE`: Btrfs, XFS, bcachefs), which copies nothing; else the kernel
    /// copies (`sendfile`): the bytes go from page cache to page cache once, not through a
    /// user-space buffer. Elsewhere, in blocks of `chunkSize` bytes.
    /// - Throws: `FileError` naming the source (unreadable) or the destination (cannot be
    ///   created or written), with the POSIX reason.
    /// - Parameters:
    ///   - source: the file read.
    ///   - destination: the file written (created or truncated).
    ///   - chunkSize: bytes per read, at least 1.
    public static func stream(from source: URL, to destination: URL, chunkSize: Int = 1 << 20) throws {
        let input = try InputFile.openRegular(source)
        defer { close(input) }
        let output = open(destination.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else {
            throw FileError(file: destination.path,
                            reason: "cannot create \(destination.lastPathComponent): \(String(cString: strerror(errno)))",
                            hint: FileErrorReason.writeHint)
        }
        defer { close(output) }
        guard copyContents(from: input, to: output, chunkSize: chunkSize) else {
            throw FileError(file: destination.path, reason: "cannot copy the audio: \(String(cString: strerror(errno)))",
                            hint: FileErrorReason.writeHint)
        }
    }

    /// Copies everything from the current position of `input` to `output`; false with
    /// `errno` set on failure.
    private static func copyContents(from input: Int32, to output: Int32, chunkSize: Int) -> Bool {
        #if canImport(Glibc)
        // A clone takes the whole source (`stream` opens it at its start). Refused (EOPNOTSUPP,
        // EXDEV, EINVAL…) by file systems without shared extents and across file systems:
        // the copy below serves them.
        if ioctl(output, cloneRequest, input) == 0 { return true }
        while true {
            let sent = sendfile(output, input, nil, chunkSize)
            if sent > 0 { continue }
            if sent == 0 { return true }
            if errno == EINTR { continue }
            // Some file systems refuse sendfile between files before copying anything;
            // the plain loop below serves them.
            if errno == EINVAL || errno == ENOSYS { break }
            return false
        }
        #endif
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let got = Descriptor.readSome(input, into: buffer, count: chunkSize)
            if got == 0 { return true }
            guard got > 0, Descriptor.writeAll(output, UnsafeRawBufferPointer(start: buffer, count: got)) == 0 else { return false }
        }
    }
}
