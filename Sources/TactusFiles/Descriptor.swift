import TactusPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads and writes on a file descriptor, retried when a signal interrupts them (EINTR):
/// the one place Tactus's readers and writers of plain descriptors do so.
package enum Descriptor {
    /// Reads up to `count` bytes into `buffer`: the number read (0 at the end of the file), or
    /// -1 with `errno` set.
    package static func readSome(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        while true {
            let got = read(descriptor, buffer, count)
            if got < 0, errno == EINTR { continue }
            return got
        }
    }

    /// Writes all of `bytes`: 0, or the `errno` of the write that failed (EIO when a write
    /// accepts nothing, so a descriptor that takes no bytes cannot hold the loop forever).
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        var done = 0
        while done < bytes.count {
            let put = write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if put < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if put == 0 { return EIO }
            done += put
        }
        return 0
    }
}
