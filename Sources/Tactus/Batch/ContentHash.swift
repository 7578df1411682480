import TactusCore
import TactusFiles
import TactusPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// XXH64 (seed 0) of a file's bytes, as 16 hex digits: how `tactus batch` decides that an
/// input is unchanged since the run that produced its outputs.
///
/// Content, not modification time: copying a tree, checking it out again or touching a
/// file must not force a rebuild, and an edit that keeps the size and mtime must. XXH64 is
/// a published, stable algorithm (so the manifest means the same thing on every platform and
/// release) and runs at memory speed, so hashing every input on each run costs little next
/// to decoding. The digest matches the reference `xxh64` tools.
public struct ContentHash {
    private static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let p5: UInt64 = 0x27D4_EB2F_1656_67C5
    /// Bytes read per call when hashing a file: large enough to amortise the system call.
    static let chunkSize = 1 << 16

    private var lanes: (UInt64, UInt64, UInt64, UInt64) = (p1 &+ p2, p2, 0, 0 &- p1)
    /// Bytes not yet consumed by a 32-byte stripe.
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    /// A hash of no bytes yet.
    public init() {
        pending.reserveCapacity(32)
    }

    /// Hashes a whole file, streaming it in chunks through one buffer (memory stays constant).
    /// - Parameter url: a regular file.
    /// - Returns: the digest as 16 lowercase hex digits.
    /// - Throws: a `FileError` when the file cannot be opened or read.
    public static func of(fileAt url: URL) throws -> String {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError(file: url.path, reason: "cannot be read") }
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var hash = ContentHash()
        while true {
            let got = Descriptor.readSome(descriptor, into: buffer.baseAddress!, count: chunkSize)
            if got == 0 { break }
            if got < 0 {
                throw FileError(file: url.path, reason: "cannot be read: \(String(cString: strerror(errno)))")
            }
            hash.update(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
        }
        return hash.hexDigest
    }

    /// Adds bytes to the hash.
    /// - Parameter data: the next bytes.
    public mutating func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    /// Adds bytes to the hash.
    /// - Parameter bytes: the next bytes.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            let take = min(32 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<take])
            offset = take
            guard pending.count == 32 else { return }
            pending.withUnsafeBytes { consumeStripe($0, at: 0) }
            pending.removeAll(keepingCapacity: true)
        }
        while bytes.count - offset >= 32 {
            consumeStripe(bytes, at: offset)
            offset += 32
        }
        pending.append(contentsOf: bytes[offset...])
    }

    /// XXH64 of every byte added so far.
    public var digest: UInt64 {
        var h: UInt64
        if length >= 32 {
            h = rotl(lanes.0, 1) &+ rotl(lanes.1, 7) &+ rotl(lanes.2, 12) &+ rotl(lanes.3, 18)
            for lane in [lanes.0, lanes.1, lanes.2, lanes.3] {
                h ^= Self.round(0, lane)
                h = h &* Self.p1 &+ Self.p4
            }
        } else {
            h = Self.p5
        }
        h &+= length
        pending.withUnsafeBytes { tail in
            var i = 0
            while tail.count - i >= 8 {
                h ^= Self.round(0, tail.loadUnaligned(fromByteOffset: i, as: UInt64.self).littleEndian)
                h = rotl(h, 27) &* Self.p1 &+ Self.p4
                i += 8
            }
            if tail.count - i >= 4 {
                h ^= UInt64(tail.loadUnaligned(fromByteOffset: i, as: UInt32.self).littleEndian) &* Self.p1
                h = rotl(h, 23) &* Self.p2 &+ Self.p3
                i += 4
            }
            while i < tail.count {
                h ^= UInt64(tail[i]) &* Self.p5
                h = rotl(h, 11) &* Self.p1
                i += 1
            }
        }
        h ^= h >> 33
        h &*= Self.p2
        h ^= h >> 29
        h &*= Self.p3
        h ^= h >> 32
        return h
    }

    /// `digest` as 16 lowercase hex digits.
    public var hexDigest: String {
        String(printf: "%016llx", digest)
    }

    private mutating func consumeStripe(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        func word(_ k: Int) -> UInt64 { bytes.loadUnaligned(fromByteOffset: offset + 8 * k, as: UInt64.self).littleEndian }
        lanes = (Self.round(lanes.0, word(0)), Self.round(lanes.1, word(1)),
                 Self.round(lanes.2, word(2)), Self.round(lanes.3, word(3)))
    }

    private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        rotl(accumulator &+ input &* p2, 31) &* p1
    }
}

private func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 {
    (x << r) | (x >> (64 - r))
}
