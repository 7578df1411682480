import Foundation
import XCTest
import Tactus
import TactusTestSupport
import TactusCore
import TactusFiles

/// The same sound, whatever its rate, channels, sample format or container, gives the same
/// transients: analysis parameters are in milliseconds and hertz, and placement is on the
/// waveform, so nothing depends on how the sound was stored.
final class FormatIndependenceTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = AudioFixture.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    static let onsets = [0.2003, 0.6117, 1.0502, 1.3999]

    /// Decaying three-partial hits defined in continuous time, so every rate samples the same sound.
    static func hits(sampleRate: Double) -> [Float] {
        (0..<Int(1.8 * sampleRate)).map { i in
            let t = Double(i) / sampleRate
            var x = 0.0
            for (k, onset) in onsets.enumerated() where t >= onset {
                let u = t - onset
                let level = 0.8 / Double(k + 1)
                x += level * exp(-u / 0.06) * (0.6 * sin(2 * .pi * 180 * u) + 0.3 * sin(2 * .pi * 1300 * u)
                                                + 0.1 * sin(2 * .pi * 4100 * u))
            }
            return Float(x)
        }
    }

    func transients(_ format: AudioFixture.Format, rate: Int, channels: Int = 1, name: String) throws -> [Double] {
        let url = dir.appendingPathComponent("\(name).\(format.fileExtension)")
        try AudioFixture.write(Self.hits(sampleRate: Double(rate)), to: url, sampleRate: rate, channels: channels, format: format)
        let (_, _, track) = try Converter(preset: try shippedPreset(), log: CommittedFiles()).analyze(url)
        return track.transients.map(\.time)
    }

    func testLosslessFormatsAgreeWithinAMillisecond() throws {
        let reference = try transients(.wav16, rate: 44100, name: "reference")
        XCTAssertEqual(reference.count, Self.onsets.count, "\(reference)")
        for (a, b) in zip(reference, Self.onsets) { XCTAssertEqual(a, b, accuracy: 0.001) }
        let variants: [(AudioFixture.Format, Int, Int, String)] = [
            (.wav16, 22050, 1, "22k"), (.wav16, 48000, 1, "48k"), (.wav16, 96000, 1, "96k"),
            (.wav16, 44100, 2, "stereo"), (.wav24, 44100, 1, "24bit"), (.wavFloat, 44100, 1, "float"),
            (.flac16, 44100, 1, "flac"), (.aiff16, 48000, 2, "aiff"), (.caf16, 96000, 1, "caf"),
        ]
        for (format, rate, channels, name) in variants {
            let found = try transients(format, rate: rate, channels: channels, name: name)
            XCTAssertEqual(found.count, reference.count, "\(name): \(found)")
            for (a, b) in zip(found, reference) { XCTAssertEqual(a, b, accuracy: 0.001, name) }
        }
    }

    /// Lossy codecs add a few samples of pre-echo or priming; after the decoders' own gapless
    /// handling the transients must still land within a few milliseconds.
    func testLossyFormatsStayWithinAFewMilliseconds() throws {
        let reference = try transients(.wav16, rate: 48000, name: "reference48")
        for (format, name) in [(AudioFixture.Format.oggVorbis, "vorbis"), (.oggOpus, "opus"), (.mp3, "mp3")] {
            let found = try transients(format, rate: 48000, name: name)
            XCTAssertEqual(found.count, reference.count, "\(name): \(found)")
            let offsets = zip(found, reference).map { ($0 - $1) * 1000 }
            print("\(name) transient offsets vs WAV (ms): \(offsets.map { String(format: "%.2f", $0) })")
            for offset in offsets { XCTAssertLessThan(abs(offset), 5, name) }
        }
    }
}
