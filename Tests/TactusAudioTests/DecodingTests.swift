import Foundation
import XCTest
import TactusAudio
import TactusCore
import TactusTestSupport

final class DecodingTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = AudioFixture.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    /// Reads a whole file through the streaming reader, mixed to mono.
    func decode(_ url: URL) throws -> (AudioFormat, [Float]) {
        let reader = try AudioFileReader(url: url)
        let channels = reader.format.channels
        var block = [Float](repeating: 0, count: 1000 * channels)
        var mono = [Float](repeating: 0, count: 1000)
        var out: [Float] = []
        while true {
            let n = try block.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
            if n == 0 { break }
            block.withUnsafeBufferPointer { b in
                mono.withUnsafeMutableBufferPointer { Mixdown.mono(b, frames: n, channels: channels, into: $0) }
            }
            out += mono[0..<n]
        }
        return (reader.format, out)
    }

    func testEveryLosslessFormatDecodesToTheSameSamples() throws {
        let sr = 44100
        let signal = Signals.sine(hz: 440, seconds: 0.25, sampleRate: Double(sr), amplitude: 0.5)
        let cases: [(AudioFixture.Format, String, String, Float)] = [
            (.wav16, "WAV", "PCM_16", 1e-4), (.wav24, "WAV", "PCM_24", 1e-6), (.wav32, "WAV", "PCM_32", 1e-6),
            (.wavU8, "WAV", "PCM_U8", 1e-2), (.wavFloat, "WAV", "FLOAT", 1e-7), (.wavDouble, "WAV", "DOUBLE", 1e-7),
            (.wavUlaw, "WAV", "ULAW", 2e-2), (.wavAlaw, "WAV", "ALAW", 2e-2), (.wavImaAdpcm, "WAV", "IMA_ADPCM", 0.2),
            (.aiff16, "AIFF", "PCM_16", 1e-4), (.caf16, "CAF", "PCM_16", 1e-4), (.flac16, "FLAC", "PCM_16", 1e-4),
            (.flac24, "FLAC", "PCM_24", 1e-6), (.w64, "W64", "PCM_16", 1e-4), (.rf64, "RF64", "PCM_16", 1e-4),
        ]
        for (i, (format, container, encoding, tolerance)) in cases.enumerated() {
            let url = try AudioFixture.write(signal, to: dir.appendingPathComponent("f\(i).\(format.fileExtension)"),
                                             sampleRate: sr, format: format)
            let (info, decoded) = try decode(url)
            XCTAssertEqual(info.container, container, "\(container)/\(encoding)")
            XCTAssertEqual(info.encoding, encoding)
            XCTAssertEqual(info.sampleRate, Double(sr))
            XCTAssertGreaterThanOrEqual(decoded.count, signal.count, "\(encoding): frames")
            let error = zip(signal, decoded).map { abs($0 - $1) }.max() ?? 1
            XCTAssertLessThan(error, tolerance, "\(container)/\(encoding) max error")
        }
    }

    func testLossyFormatsDecodeWithTheirFrameCount() throws {
        let sr = 48000
        let signal = Signals.sine(hz: 1000, seconds: 0.5, sampleRate: Double(sr), amplitude: 0.5)
        for format in [AudioFixture.Format.oggVorbis, .oggOpus, .mp3] {
            let url = try AudioFixture.write(signal, to: dir.appendingPathComponent("lossy.\(format.fileExtension)"),
                                             sampleRate: sr, format: format)
            let (info, decoded) = try decode(url)
            XCTAssertEqual(Int64(decoded.count), info.frames, "\(info.container)/\(info.encoding)")
            // Loud enough to be the same sine: RMS within 1 dB of 0.5/√2.
            let tail = decoded[decoded.count / 4 ..< decoded.count * 3 / 4]
            let rms = (tail.map { $0 * $0 }.reduce(0, +) / Float(tail.count)).squareRoot()
            XCTAssertEqual(20 * log10(Double(rms) / (0.5 / 2.0.squareRoot())), 0, accuracy: 1, "\(info.container)")
        }
    }

    func testRatesAndChannelLayoutsMixDownToTheSource() throws {
        for (sr, channels) in [(8000, 1), (22050, 2), (96000, 2), (192_000, 1), (384_000, 1), (44100, 8)] {
            let signal = Signals.sine(hz: 300, seconds: 0.05, sampleRate: Double(sr), amplitude: 0.4)
            let url = try AudioFixture.write(signal, to: dir.appendingPathComponent("r\(sr)c\(channels).wav"),
                                             sampleRate: sr, channels: channels, format: .wavFloat)
            let (info, decoded) = try decode(url)
            XCTAssertEqual(info.channels, channels)
            XCTAssertEqual(info.sampleRate, Double(sr))
            XCTAssertEqual(decoded.count, signal.count, "\(sr) Hz × \(channels)")
            XCTAssertLessThan(zip(decoded, signal).map { abs($0 - $1) }.max() ?? 1, 1e-6, "\(sr) Hz × \(channels)")
        }
    }

    func testOppositeChannelsCancelInTheMixdown() throws {
        let left = Signals.sine(hz: 300, seconds: 0.05, sampleRate: 8000, amplitude: 0.4)
        let interleaved = left.flatMap { [$0, -$0] }
        let url = try AudioFixture.write(interleaved, to: dir.appendingPathComponent("st.wav"), sampleRate: 8000,
                                         channels: 2, format: .wavFloat, interleaved: true)
        XCTAssertEqual(try decode(url).1.map(abs).max(), 0)
    }

    func testNonFiniteSamplesBecomeSilenceForAnalysis() throws {
        var samples = Signals.sine(hz: 300, seconds: 0.01, sampleRate: 8000, amplitude: 0.4)
        samples[3] = .nan
        samples[7] = .infinity
        samples[9] = -.infinity
        let url = try AudioFixture.write(samples, to: dir.appendingPathComponent("nan.wav"), sampleRate: 8000,
                                         format: .wavFloat)
        let decoded = try decode(url).1
        XCTAssertTrue(decoded.allSatisfy(\.isFinite))
        XCTAssertEqual(decoded[3], 0)
        XCTAssertEqual(decoded[7], 0)
    }

    func testRefusalsNameTheReason() throws {
        let empty = dir.appendingPathComponent("empty.wav")
        XCTAssertTrue(FileManager.default.createFile(atPath: empty.path, contents: Data()))
        let text = dir.appendingPathComponent("notes.wav")
        try Data("just some text, not audio".utf8).write(to: text)
        let folder = dir.appendingPathComponent("x.wav")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let cases: [(URL, AudioError.Kind)] = [
            (dir.appendingPathComponent("missing.wav"), .notFound), (empty, .empty), (text, .notAudio), (folder, .isDirectory),
        ]
        for (url, kind) in cases {
            XCTAssertThrowsError(try AudioFileReader(url: url), url.lastPathComponent) { error in
                XCTAssertEqual((error as? AudioError)?.kind, kind, url.lastPathComponent)
            }
        }
    }

    /// Opened from many threads at once, each refused file still gives its own reason.
    /// libsndfile keeps a refusal's reason in one slot for the process, which every open
    /// rewrites (without exclusive opens a cut Ogg stream read "Format not recognised." or
    /// "No Error." in about half the runs), and it closes the descriptor of a failed open
    /// itself (closed a second time, another thread's newly opened file went with it: "Bad
    /// file descriptor").
    func testRefusalsOpenedAtOnceKeepTheirOwnReasons() throws {
        let signal = Signals.sine(hz: 440, seconds: 0.25, sampleRate: 44_100, amplitude: 0.5)
        let ogg = try Data(contentsOf: try AudioFixture.write(signal, to: dir.appendingPathComponent("a.ogg"),
                                                              sampleRate: 44_100, format: .oggVorbis))
        var files: [URL] = []
        for i in 0..<100 {
            let cut = dir.appendingPathComponent("\(i)-cut.ogg"), text = dir.appendingPathComponent("\(i)-text.wav")
            try ogg.prefix(200 + i).write(to: cut)
            try Data("not audio \(i)".utf8).write(to: text)
            files += [cut, text, dir.appendingPathComponent("a.ogg")]
        }
        func reason(_ url: URL) -> String {
            do { _ = try AudioFileReader(url: url); return "opened" } catch { return "\(error)" }
        }
        let alone = files.map(reason)
        XCTAssertEqual(Set(alone).count, 3, "\(Set(alone))")

        for _ in 0..<10 {
            var together = [String](repeating: "", count: files.count)
            let lock = NSLock()
            DispatchQueue.concurrentPerform(iterations: files.count) { index in
                let said = reason(files[index])
                lock.withLock { together[index] = said }
            }
            XCTAssertEqual(together, alone)
        }
    }
}
