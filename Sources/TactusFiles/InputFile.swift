import TactusPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens files the user names (audio, patterns, presets, folder settings) as untrusted input:
/// only regular files, checked on the opened descriptor itself so nothing can be swapped in
/// between, and never blocking. A FIFO, a device, a socket or a folder is refused with a
/// reason instead of being read (a FIFO would wait for a writer forever, `/dev/zero` never
/// ends); a symbolic-link loop is refused by the system's open.
public enum InputFile {
    /// A read-only descriptor of the regular file at `url`; the caller closes it.
    /// - Throws: `FileError` naming the file: no such file, a folder, not a regular file,
    ///   or the POSIX reason it cannot be opened.
    /// - Parameter url: the file.
    /// - Returns: a read-only descriptor; the caller closes it.
    public static func openRegular(_ url: URL) throws -> Int32 {
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw FileError(file: url.path, reason: code == ENOENT ? "no such file" : "cannot be opened: \(String(cString: strerror(code)))",
                            hint: code == ENOENT ? "check the path" : nil)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw FileError(file: url.path, reason: "cannot be examined: \(reason)")
        }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else {
            close(descriptor)
            throw FileError(file: url.path, reason: type == S_IFDIR ? "is a folder, not a file"
                                : "is not a regular file (a FIFO, device or socket); refusing to read it")
        }
        // Reads of a regular file never block; clear the flag for libraries that check it.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return descriptor
    }

    /// The whole content of the regular file at `url`, refusing files over `maxBytes`.
    /// - Throws: `FileError` as `openRegular`, or when the file is larger than `maxBytes`.
    /// - Parameters:
    ///   - url: the file.
    ///   - maxBytes: the largest size accepted, in bytes.
    /// - Returns: the file's bytes.
    public static func contents(of url: URL, maxBytes: Int = 1 << 30) throws -> Data {
        let descriptor = try openRegular(url)
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, Int(status.st_size) > maxBytes {
            throw FileError(file: url.path, reason: "is \(status.st_size) bytes, over the \(maxBytes)-byte limit for this kind of file")
        }
        // Read to the end (or one byte past the limit) in 64 KB blocks, into room for the size
        // the file reports: the file is held once, not once more in a block of its size.
        var data = Data()
        data.reserveCapacity(min(max(0, Int(status.st_size)) + 1, maxBytes + 1))
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while data.count <= maxBytes {
            let count = block.withUnsafeMutableBytes {
                Descriptor.readSome(descriptor, into: $0.baseAddress!, count: min($0.count, maxBytes + 1 - data.count))
            }
            if count < 0 {
                throw FileError(file: url.path, reason: "cannot be read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            data.append(contentsOf: block[..<count])
        }
        guard data.count <= maxBytes else {
            throw FileError(file: url.path, reason: "is over the \(maxBytes)-byte limit for this kind of file")
        }
        return data
    }
}
