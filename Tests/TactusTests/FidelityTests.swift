import Foundation
import XCTest
import Tactus
import TactusAHAP
import TactusTestSupport
import TactusCore
import TactusFiles

/// `Fidelity` compares each 10 ms block's played intensity with the sound's loudness over the
/// same span (`ReferenceEnvelope`: from the first audible sample of a sound starting inside it).
final class FidelityTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = AudioFixture.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    static let sampleRate = 44100.0
    /// The first sample of each burst: 7 and 8 ms into a block, after its centre.
    static let starts = [0.107, 0.708]

    /// Two decaying noise bursts that begin after their blocks' centres, over digital silence.
    func bursts() throws -> URL {
        var signal = [Float](repeating: 0, count: Int(1.3 * Self.sampleRate))
        for (n, start) in Self.starts.enumerated() {
            let first = Int((start * Self.sampleRate).rounded())
            let noise = Signals.noise(seconds: 0.4, sampleRate: Self.sampleRate, amplitude: 0.5, seed: UInt64(n + 1))
            for (i, x) in noise.enumerated() { signal[first + i] = x * Float(exp(-Double(i) / Self.sampleRate / 0.08)) }
        }
        return try AudioFixture.write(signal, to: dir.appendingPathComponent("bursts.wav"), sampleRate: Int(Self.sampleRate))
    }

    /// The block a sound starts in is measured from its first audible sample: its level is the
    /// sound's (within a dB of the next block's), not the sound's diluted by 7 ms of silence
    /// (−3.7 dB); the other blocks span their whole 10 ms.
    func testABlockIsMeasuredFromItsSoundsFirstSample() throws {
        let audio = try bursts()
        let sound = try SoundActivity.measure(audio)
        XCTAssertEqual(sound.starts.map(\.time), Self.starts.map { ($0 * Self.sampleRate).rounded() / Self.sampleRate })
        let reference = try ReferenceEnvelope.measure(audio, sound: sound)
        for start in Self.starts {
            let k = Int(start / ReferenceEnvelope.hopSeconds)
            XCTAssertEqual(reference.spanStart[k], (start * Self.sampleRate).rounded() / Self.sampleRate, accuracy: 1e-12)
            XCTAssertEqual(reference.spanStart[k + 1], Double(k + 1) * ReferenceEnvelope.hopSeconds, accuracy: 1e-12)
            XCTAssertEqual(reference.spanEnd(k), Double(k + 1) * ReferenceEnvelope.hopSeconds, accuracy: 1e-12)
            XCTAssertEqual(reference.levelDb[k], reference.levelDb[k + 1], accuracy: 1, "block \(k)")
        }
        XCTAssertEqual(reference.spanStart[5], 0.05, accuracy: 1e-12)
        XCTAssertEqual(reference.loudness[5], 0, "silence before the sound")
    }

    /// A body that starts on its sound's first sample, after the block's centre, follows the
    /// sound block for block (read at the blocks' centres, the start blocks' loud reference
    /// met a body that had not begun: r 0.95 on such bursts, 0.99 over the same spans).
    func testABodyStartingOnItsSoundFollowsIt() throws {
        let audio = try bursts()
        let result = try Converter(preset: try shippedPreset(), log: CommittedFiles()).convert(audio, to: dir.appendingPathComponent("out"))
        let body = try XCTUnwrap(result.track.regions.first)
        XCTAssertEqual(body.start, Self.starts[0], accuracy: 1e-4, "the body starts with the sound")
        let sound = try SoundActivity.measure(audio)
        let fidelity = try Fidelity.measure(file: result.output(AHAPFormat.id)!, format: AHAPFormat(),
                                            reference: ReferenceEnvelope.measure(audio, sound: sound), sound: sound)
        XCTAssertGreaterThan(try XCTUnwrap(fidelity.intensityCorrelation), 0.97)
    }
}
