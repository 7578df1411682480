import Foundation
import XCTest
import Tactus
import TactusTestSupport

/// Samples no well-behaved encoder writes — NaN, infinities, denormals, values far beyond
/// full scale — and a header that promises more than the file holds. Either outcome is
/// acceptable; a crash, a hang or a non-finite number in the AHAP is not.
final class RobustnessHostileSampleTests: RobustnessTestCase {
    static let clickTimes = [0.3, 0.9]

    /// Clicks at `clickTimes` with every `stride`-th sample replaced by `poison`.
    private func poisonedClicks(_ poison: Float, every stride: Int) -> [Float] {
        var samples = Signals.clicks(at: Self.clickTimes, seconds: 1.2, sampleRate: 44_100)
        for i in Swift.stride(from: 0, to: samples.count, by: stride) { samples[i] = poison }
        return samples
    }

    /// Converted or refused; when converted, the clicks are still found.
    private func assertHandledKeepingClicks(_ samples: [Float], name: String,
                                            file: StaticString = #filePath, line: UInt = #line) throws {
        let url = try write(RawAudioBytes.floatWAV(samples), to: name)
        guard let converted = try assertHandled(url, file: file, line: line) else { return }
        let score = OnsetScore(detected: converted.transientTimes, truth: Self.clickTimes, tolerance: 0.025)
        XCTAssertEqual(score.truePositives, Self.clickTimes.count, "\(score)", file: file, line: line)
    }

    func testFloatWAVWithNaN() throws {
        try assertHandledKeepingClicks(poisonedClicks(.nan, every: 97), name: "nan.wav")
    }

    func testFloatWAVWithPositiveInfinity() throws {
        try assertHandledKeepingClicks(poisonedClicks(.infinity, every: 101), name: "plus-inf.wav")
    }

    func testFloatWAVWithNegativeInfinity() throws {
        try assertHandledKeepingClicks(poisonedClicks(-.infinity, every: 103), name: "minus-inf.wav")
    }

    /// Denormals everywhere between the clicks (slow paths on some CPUs, zero on others).
    func testFloatWAVWithDenormals() throws {
        let samples = Signals.clicks(at: Self.clickTimes, seconds: 1.2, sampleRate: 44_100).enumerated().map { i, x in
            x == 0 ? Float.leastNonzeroMagnitude * Float(i % 7 + 1) : x
        }
        try assertHandledKeepingClicks(samples, name: "denormal.wav")
    }

    /// Float samples at ±1000: sixty dB over full scale.
    func testFloatWAVWithSamplesAtPlusMinusAThousand() throws {
        let clicks = Signals.clicks(at: Self.clickTimes, seconds: 1.2, sampleRate: 44_100)
        let peak = clicks.map(abs).max() ?? 1
        let samples = clicks.map { $0 / peak * 1_000 }
        try assertHandledKeepingClicks(samples, name: "thousand.wav")
    }

    /// The data chunk claims ten times the bytes that follow (a download cut short).
    func testHeaderPromisingMoreDataThanTheFileHolds() throws {
        var wav = RawAudioBytes.WAV()
        wav.data = RawAudioBytes.pcm16(Signals.clicks(at: Self.clickTimes, seconds: 1.2, sampleRate: 44_100))
        wav.declaredDataSize = UInt32(wav.data.count * 10)
        let converted = try assertHandled(write(wav.bytes, to: "truncated.wav"))
        if let converted {
            XCTAssertEqual(OnsetScore(detected: converted.transientTimes, truth: Self.clickTimes, tolerance: 0.025)
                .truePositives, 2)
        }
    }
}
