import Foundation
import Tactus
import XCTest

/// The manifest's content hash is XXH64 exactly (vectors from the reference `xxhash`
/// package), however the bytes arrive.
final class BatchContentHashTests: XCTestCase {
    private let vectors: [(Data, String)] = [
        (Data(), "ef46db3751d8e999"),
        (Data("a".utf8), "d24ec4f1a98c6e5b"),
        (Data("abc".utf8), "44bc2cf5ad770999"),
        (Data("0123456789abcdef0123456789abcdef0123456789".utf8), "a76190c3acf08a1c"),
        (Data((0..<1280).map { UInt8($0 % 256) }), "afc184ad7938a354"),
    ]

    func testMatchesReferenceVectors() {
        for (data, expected) in vectors {
            var hash = ContentHash()
            hash.update(data)
            XCTAssertEqual(hash.hexDigest, expected, "\(data.count) bytes")
        }
    }

    /// Chunk boundaries that split stripes and tails do not change the digest.
    func testChunkingDoesNotChangeTheDigest() {
        let (data, expected) = vectors[4]
        for chunk in [1, 3, 7, 31, 33, 100] {
            var hash = ContentHash()
            var offset = 0
            while offset < data.count {
                hash.update(data[offset..<min(offset + chunk, data.count)])
                offset += chunk
            }
            XCTAssertEqual(hash.hexDigest, expected, "chunks of \(chunk)")
        }
    }

    func testHashesFilesLargerThanOneChunk() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tactus-hash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        let data = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
        try data.write(to: url)
        var whole = ContentHash()
        whole.update(data)
        XCTAssertEqual(try ContentHash.of(fileAt: url), whole.hexDigest)
        XCTAssertThrowsError(try ContentHash.of(fileAt: url.appendingPathExtension("missing")))
    }
}
