import Foundation
import TactusAudio
import TactusTestSupport
import XCTest

/// The paired-audio writer writes the same bytes whatever blocks it is handed, and reads
/// back as the samples it was given.
final class WAVWriterStreamingTests: XCTestCase {
    func testSameBytesWhateverTheBlocks() throws {
        let folder = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stereo = Signals.mix(Signals.sine(hz: 440, seconds: 0.3, sampleRate: 16_000),
                                 Signals.noise(seconds: 0.3, sampleRate: 16_000, amplitude: 0.1))
        for format in [WAVWriter.SampleFormat.pcm16, .pcm24, .float] {
            var index = 0
            try StreamingVerifier.verify(count: stereo.count / 2, run: { blocks -> Data in
                index += 1
                let url = folder.appendingPathComponent("out\(index).wav")
                let writer = try WAVWriter(url: url, sampleRate: 16_000, channels: 2, format: format)
                for range in StreamingVerifier.ranges(count: stereo.count / 2, blocks: blocks) {
                    try stereo[(range.lowerBound * 2)..<(range.upperBound * 2)].withUnsafeBufferPointer { try writer.write($0) }
                }
                try writer.close()
                return try Data(contentsOf: url)
            }, reference: { _ in
                let reader = try! AudioFileReader(url: folder.appendingPathComponent("out\(index).wav"))
                XCTAssertEqual(reader.format.frames, Int64(stereo.count / 2))
                var back = [Float](repeating: 0, count: stereo.count)
                let frames = try! back.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
                XCTAssertEqual(frames, stereo.count / 2)
                for (a, b) in zip(back, stereo) { XCTAssertEqual(a, b, accuracy: 1.0 / 32_768) }
            })
        }
    }
}
