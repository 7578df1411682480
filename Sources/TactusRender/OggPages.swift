import TactusCore
import TactusPlatform

/// The Ogg container (RFC 3533) at the level of pages and packets: pages read from untrusted
/// bytes (every length checked against what is there, every CRC checked), packets joined from
/// their lacing, and packets laid out into pages again.
///
/// A page is `OggS`, version 0, a flags byte (1: continues a packet, 2: first page, 4: last
/// page), a 64-bit granule position, the stream's 32-bit serial number, the page's 32-bit
/// sequence number, a CRC-32 (polynomial 0x04C11DB7, initial value 0, not reflected, no final
/// XOR, over the page with the CRC field zeroed), a segment count (0…255), that many lacing
/// values, then the segments. A lacing value below 255 ends a packet; 255 continues it.
/// All numbers are little-endian.
enum OggPages {
    /// One page, its header fields decoded and its body in place.
    struct Page {
        /// Header flags: 1 continued packet, 2 beginning of stream, 4 end of stream.
        var flags: UInt8
        /// Granule position (for Vorbis, the last sample finished on the page; −1 as all ones
        /// when no packet ends on it).
        var granule: UInt64
        /// The logical stream's serial number.
        var serial: UInt32
        /// The page's sequence number within its stream.
        var sequence: UInt32
        /// Lacing values, one per segment.
        var lacing: [UInt8]
        /// Where the body starts in the file's bytes, and its length.
        var bodyStart: Int, bodyCount: Int
        /// Where the page starts in the file's bytes, and its length (header and body).
        var start: Int, count: Int
    }

    /// Largest page: 27 header bytes, 255 lacing values, 255 segments of 255 bytes.
    static let maxPageBytes = 27 + 255 + 255 * 255
    /// Value of `Page.granule` on a page where no packet ends.
    static let noGranule = UInt64.max

    /// The CRC-32 of Ogg pages, table-driven (one table of 256 entries built once).
    static let crcTable: [UInt32] = (0..<256).map { byte in
        var r = UInt32(byte) << 24
        for _ in 0..<8 { r = r & 0x8000_0000 != 0 ? (r << 1) ^ 0x04C1_1DB7 : r << 1 }
        return r
    }

    /// The page CRC of `bytes` (the CRC field must already be zero in them).
    /// - Parameter bytes: a whole page.
    /// - Returns: its CRC-32.
    static func crc<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var crc: UInt32 = 0
        for byte in bytes { crc = (crc << 8) ^ crcTable[Int(UInt8(crc >> 24) ^ byte)] }
        return crc
    }

    /// Every page of `data`, in order.
    /// - Parameter data: the file's bytes, untrusted.
    /// - Throws: `FormatReadError` at the first page that is cut short, is not `OggS` version 0,
    ///   or fails its CRC (the location is "page N at byte B"), or when there is no page.
    /// - Returns: the pages.
    static func pages(of data: [UInt8]) throws -> [Page] {
        var pages: [Page] = []
        var at = 0
        while at < data.count {
            let place = "page \(pages.count) at byte \(at)"
            guard data.count - at >= 27 else { throw FormatReadError(location: place, message: "cut short in its header") }
            guard data[at] == 0x4F, data[at + 1] == 0x67, data[at + 2] == 0x67, data[at + 3] == 0x53 else {
                throw FormatReadError(location: place, message: "not an Ogg page (no OggS capture pattern)")
            }
            guard data[at + 4] == 0 else { throw FormatReadError(location: place, message: "Ogg version \(data[at + 4]); only version 0 exists") }
            let segments = Int(data[at + 26])
            guard data.count - at - 27 >= segments else { throw FormatReadError(location: place, message: "cut short in its lacing values") }
            let lacing = Array(data[(at + 27)..<(at + 27 + segments)])
            let bodyStart = at + 27 + segments
            let bodyCount = lacing.reduce(0) { $0 + Int($1) }
            guard data.count - bodyStart >= bodyCount else { throw FormatReadError(location: place, message: "cut short in its body") }
            let end = bodyStart + bodyCount
            var stored: UInt32 = 0
            for i in 0..<4 { stored |= UInt32(data[at + 22 + i]) << (8 * i) }
            var crc: UInt32 = 0
            for i in at..<end {
                let byte = (22..<26).contains(i - at) ? 0 : data[i]
                crc = (crc << 8) ^ crcTable[Int(UInt8(crc >> 24) ^ byte)]
            }
            guard crc == stored else { throw FormatReadError(location: place, message: "CRC mismatch (the page is damaged)") }
            pages.append(Page(flags: data[at + 5], granule: littleEndian(data, at + 6, 8),
                              serial: UInt32(littleEndian(data, at + 14, 4)), sequence: UInt32(littleEndian(data, at + 18, 4)),
                              lacing: lacing, bodyStart: bodyStart, bodyCount: bodyCount, start: at, count: end - at))
            at = end
        }
        guard !pages.isEmpty else { throw FormatReadError(location: "", message: "empty (no Ogg page)") }
        return pages
    }

    /// The first `count` packets of `pages` (header packets), each whole.
    /// - Parameters:
    ///   - count: how many packets to join.
    ///   - pages: the stream's pages, from its first.
    ///   - data: the bytes the pages lie in.
    /// - Throws: `FormatReadError` when the pages end before `count` packets do.
    /// - Returns: the packets and the index of the page the last one ends on.
    static func firstPackets(_ count: Int, of pages: [Page], in data: [UInt8]) throws -> (packets: [[UInt8]], lastPage: Int) {
        var packets: [[UInt8]] = []
        var packet: [UInt8] = []
        for (index, page) in pages.enumerated() {
            var at = page.bodyStart
            for lace in page.lacing {
                packet += data[at..<(at + Int(lace))]
                at += Int(lace)
                if lace < 255 {
                    packets.append(packet)
                    packet = []
                    if packets.count == count { return (packets, index) }
                }
            }
        }
        throw FormatReadError(location: "", message: "the stream ends within its \(count) header packets")
    }

    /// Lays `packets` out into pages from sequence number `sequence` on, each page as full as
    /// its 255 lacing values allow, and hands each page's bytes to `emit`.
    /// - Parameters:
    ///   - packets: whole packets, in order.
    ///   - serial: the stream's serial number.
    ///   - sequence: the first page's sequence number.
    ///   - flags: flags of the first page (2 for the stream's first); later pages get 1 when they
    ///     continue a packet.
    ///   - granule: the granule position of a page on which a packet ends (others get −1).
    ///   - emit: receives each page.
    /// - Returns: the number of pages written.
    static func paginate(_ packets: [[UInt8]], serial: UInt32, sequence: UInt32, flags: UInt8, granule: UInt64,
                         _ emit: ([UInt8]) throws -> Void) rethrows -> Int {
        // Lacing of all packets in order: (segment length, whether it ends its packet).
        var segments: [(start: Int, packet: Int, count: Int)] = []
        for (p, packet) in packets.enumerated() {
            var start = 0
            while true {
                let count = min(255, packet.count - start)
                segments.append((start, p, count))
                start += count
                if count < 255 { break }
            }
        }
        var written = 0, next = 0
        var continued = false
        while next < segments.count {
            let page = segments[next..<min(segments.count, next + 255)]
            let ends = page.contains { $0.count < 255 }
            var header: [UInt8] = [0x4F, 0x67, 0x67, 0x53, 0, (written == 0 ? flags : 0) | (continued ? 1 : 0)]
            header += bytes(ends ? granule : noGranule, 8) + bytes(UInt64(serial), 4)
                + bytes(UInt64(sequence &+ UInt32(written)), 4) + [0, 0, 0, 0, UInt8(page.count)]
            header += page.map { UInt8($0.count) }
            for segment in page { header += packets[segment.packet][segment.start..<(segment.start + segment.count)] }
            try emit(sealed(header))
            continued = page.last!.count == 255
            next += page.count
            written += 1
        }
        return written
    }

    /// `page` with its serial number, sequence number and CRC set.
    /// - Parameters:
    ///   - page: a page's bytes (the CRC field may hold anything).
    ///   - serial: the serial number to write.
    ///   - sequence: the sequence number to write.
    /// - Returns: the page, resealed.
    static func restamped(_ page: ArraySlice<UInt8>, serial: UInt32, sequence: UInt32) -> [UInt8] {
        var bytes = Array(page)
        bytes.replaceSubrange(14..<18, with: Self.bytes(UInt64(serial), 4))
        bytes.replaceSubrange(18..<22, with: Self.bytes(UInt64(sequence), 4))
        return sealed(bytes)
    }

    /// `page` with its CRC computed and written.
    private static func sealed(_ page: [UInt8]) -> [UInt8] {
        var bytes = page
        bytes.replaceSubrange(22..<26, with: [0, 0, 0, 0])
        bytes.replaceSubrange(22..<26, with: Self.bytes(UInt64(crc(bytes)), 4))
        return bytes
    }

    /// The `count` low bytes of `value`, little-endian.
    static func bytes(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    /// The little-endian number in `count` bytes of `data` from `at` (the caller checked the bounds).
    static func littleEndian(_ data: [UInt8], _ at: Int, _ count: Int) -> UInt64 {
        (0..<count).reduce(0) { $0 | UInt64(data[at + $1]) << (8 * UInt64($1)) }
    }
}
