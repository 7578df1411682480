import TactusTestSupport
@testable import TactusPreview
import XCTest

final class WaveformEnvelopeTests: XCTestCase {
    /// Streamed in uneven blocks through a small bucket budget, the outline matches a
    /// brute-force min/max over the same columns, and memory stays within the budget.
    func testStreamedOutlineMatchesBruteForceWithinBoundedMemory() {
        let signal = Signals.mix(Signals.noise(seconds: 3, sampleRate: 8_000, amplitude: 0.2),
                                 Signals.clicks(at: [0.7, 2.9], seconds: 3, sampleRate: 8_000))
        var envelope = WaveformEnvelope(maxBuckets: 64)
        var offset = 0
        for size in [1, 999, 4096, 17].cycled(until: signal.count) {
            let end = min(offset + size, signal.count)
            signal[offset..<end].withUnsafeBufferPointer { envelope.add($0) }
            offset = end
        }
        XCTAssertLessThanOrEqual(envelope.buckets.count, 64)
        XCTAssertEqual(envelope.frames, signal.count)

        // Columns that are whole multiples of the bucket size compare exactly.
        let columns = signal.count / envelope.framesPerBucket
        let outline = envelope.columns(columns)
        for (index, column) in outline.enumerated() {
            let slice = signal[(index * envelope.framesPerBucket)..<min((index + 1) * envelope.framesPerBucket, signal.count)]
            XCTAssertEqual(column.low, slice.min())
            XCTAssertEqual(column.high, slice.max())
        }
        XCTAssertEqual(envelope.peak, signal.map(abs).max())
    }

    /// Columns finer than the buckets each show the bucket under them: a short sound still
    /// fills the plot's width.
    func testColumnsFinerThanBucketsRepeatTheBucketUnderThem() {
        var envelope = WaveformEnvelope(maxBuckets: 4)
        [Float(-1), 1, -0.5, 0.5].withUnsafeBufferPointer { envelope.add($0) }
        let outline = envelope.columns(8)
        XCTAssertEqual(outline.map(\.high), [-1, -1, 1, 1, -0.5, -0.5, 0.5, 0.5])
    }
}

private extension Array where Element == Int {
    /// The sizes repeated until they add up to at least `total`.
    func cycled(until total: Int) -> [Int] {
        var out: [Int] = [], sum = 0
        while sum < total { let next = self[out.count % count]; out.append(next); sum += next }
        return out
    }
}
