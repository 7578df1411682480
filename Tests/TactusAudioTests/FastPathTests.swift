import Foundation
import XCTest
import TactusAudio
import TactusTestSupport
import TactusCore
import TactusFiles

/// The shortcuts on the hot path must give exactly what the plain path gives.
final class FastPathTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = AudioFixture.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    /// Every 16-bit value, in 1, 2 and 3 channels: the integer mix equals the float mix of
    /// the same samples scaled as libsndfile scales them, bit for bit.
    func testSixteenBitMixEqualsTheFloatMix() {
        let values = (Int(Int16.min)...Int(Int16.max)).map { Int16($0) }
        for channels in 1...3 {
            let frames = values.count / channels
            let ints = Array(values.prefix(frames * channels))
            let floats = ints.map { Float($0) / 32768 }
            var fromInts = [Float](repeating: 0, count: frames), fromFloats = fromInts
            ints.withUnsafeBufferPointer { i in
                fromInts.withUnsafeMutableBufferPointer { Mixdown.mono(i, frames: frames, channels: channels, into: $0) }
            }
            floats.withUnsafeBufferPointer { f in
                fromFloats.withUnsafeMutableBufferPointer { Mixdown.mono(f, frames: frames, channels: channels, into: $0) }
            }
            XCTAssertEqual(fromInts.map(\.bitPattern), fromFloats.map(\.bitPattern), "\(channels) channels")
        }
    }

    /// A 16-bit file read as integers gives the samples libsndfile's float reads give.
    func testSixteenBitReadsMatchFloatReads() throws {
        let signal = Signals.noise(seconds: 0.2, sampleRate: 48_000, amplitude: 0.9)
        let url = try AudioFixture.write(signal, to: dir.appendingPathComponent("n.wav"), sampleRate: 48_000,
                                         channels: 2, format: .wav16)
        let asInts = try AudioFileReader(url: url), asFloats = try AudioFileReader(url: url)
        XCTAssertTrue(asInts.isSixteenBit)
        var ints = [Int16](repeating: 0, count: 20_000), floats = [Float](repeating: 0, count: 20_000)
        let n = try ints.withUnsafeMutableBufferPointer { try asInts.read(into: $0) }
        let m = try floats.withUnsafeMutableBufferPointer { try asFloats.read(into: $0) }
        XCTAssertEqual(n, m)
        XCTAssertEqual(ints.prefix(2 * n).map { Float($0) / 32768 }, Array(floats.prefix(2 * n)))
    }

    /// The kernel copy: byte-identical, larger than one chunk, source untouched.
    func testFileCopyIsExactAndLeavesTheSourceAlone() throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<(3 << 20) + 123).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let source = dir.appendingPathComponent("source.bin"), copy = dir.appendingPathComponent("copy.bin")
        try bytes.write(to: source)
        let before = try FileManager.default.attributesOfItem(atPath: source.path)[.modificationDate] as? Date
        try FileCopy.stream(from: source, to: copy, chunkSize: 1 << 20)
        XCTAssertEqual(try Data(contentsOf: copy), bytes)
        XCTAssertEqual(try Data(contentsOf: source), bytes)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: source.path)[.modificationDate] as? Date, before)
        XCTAssertThrowsError(try FileCopy.stream(from: source, to: dir.appendingPathComponent("no/such/folder.bin")))
        XCTAssertThrowsError(try FileCopy.stream(from: dir.appendingPathComponent("missing.bin"), to: copy))
    }

    /// A log syncs what was committed into it, once; a file removed since is no failure,
    /// and a flush forgets what it synced.
    func testFlushSyncsWhatWasCommittedIntoTheLog() throws {
        let log = CommittedFiles()
        let kept = StagedFile(dir.appendingPathComponent("kept.txt"))
        try kept.write("kept")
        try kept.commit(recordingIn: log)
        let removed = StagedFile(dir.appendingPathComponent("removed.txt"))
        try removed.write("removed")
        try removed.commit(recordingIn: log)
        let again = StagedFile(kept.destination)
        try again.write("kept")
        try again.commit(recordingIn: log)
        XCTAssertEqual(log.pending, [kept.destination.path, removed.destination.path], "in commit order, once each")
        try FileManager.default.removeItem(at: removed.destination)
        XCTAssertEqual(log.flush(), [])
        XCTAssertEqual(log.pending, [])
        XCTAssertEqual(try String(contentsOf: kept.destination, encoding: .utf8), "kept")
    }

    /// Two runs in one process keep two logs: flushing one neither syncs nor forgets the
    /// other's files.
    func testLogsOfTwoRunsAreIndependent() throws {
        let first = CommittedFiles(), second = CommittedFiles()
        for (index, log) in [first, second].enumerated() {
            let output = StagedFile(dir.appendingPathComponent("run\(index).txt"))
            try output.write("\(index)")
            try output.commit(recordingIn: log)
        }
        XCTAssertEqual(first.flush(), [])
        XCTAssertEqual(first.pending, [])
        XCTAssertEqual(second.pending, [dir.appendingPathComponent("run1.txt").path])
    }

    /// The batch's background flusher drains its log while files are committed and stops
    /// cleanly, leaving nothing behind for the end-of-run flush.
    func testBackgroundFlushDrainsItsLogAndStops() throws {
        let log = CommittedFiles()
        let flush = BackgroundFlush(log: log, interval: 0.01)
        for i in 0..<20 {
            let output = StagedFile(dir.appendingPathComponent("f\(i).txt"))
            try output.write("\(i)")
            try output.commit(recordingIn: log)
            if i % 5 == 0 { Thread.sleep(forTimeInterval: 0.02) }
        }
        XCTAssertEqual(flush.finish(), [])
        XCTAssertEqual(log.pending, [], "finish syncs what the thread had not reached")
        XCTAssertEqual(flush.finish(), [], "a second finish returns at once")
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("f19.txt"), encoding: .utf8), "19")
    }
}
