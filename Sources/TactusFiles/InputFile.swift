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
        // One byte past the limit tells a file that grew over it since the check.
        let data = try read(descriptor, of: url, upTo: maxBytes + 1, expected: Int(status.st_size))
        guard data.count <= maxBytes else {
            throw FileError(file: url.path, reason: "is over the \(maxBytes)-byte limit for this kind of file")
        }
        return data
    }

    /// The first `count` bytes of the regular file at `url` (all of them when it is shorter).
    /// - Throws: `FileError` as `openRegular`, or when the file cannot be read.
    /// - Parameters:
    ///   - url: the file.
    ///   - count: how many bytes at most.
    /// - Returns: the bytes, and whether they are the whole file.
    public static func start(of url: URL, count: Int) throws -> (data: Data, whole: Bool) {
        let descriptor = try openRegular(url)
        defer { close(descriptor) }
        let data = try read(descriptor, of: url, upTo: count + 1, expected: count + 1)
        return (data.prefix(count), data.count <= count)
    }

    /// Reads up to `limit` bytes or to the end, in 64 KB blocks, into room for `expected` bytes
    /// (the size the file reports: the file is held once, not once more in a block of its size).
    private static func read(_ descriptor: Int32, of url: URL, upTo limit: Int, expected: Int) throws -> Data {
        var data = Data()
        data.reserveCapacity(min(max(0, expected), limit))
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while data.count < limit {
            let count = block.withUnsafeMutableBytes {
                Descriptor.readSome(descriptor, into: $0.baseAddress!, count: min($0.count, limit - data.count))
            }
            if count < 0 {
                throw FileError(file: url.path, reason: "cannot be read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            data.append(contentsOf: block[..<count])
        }
        return data
    }
}
