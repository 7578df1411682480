import XCTest
@testable import TactusAnalysis
import TactusTestSupport

/// The loudest momentary loudness against libebur128's on the same signals (its values,
/// measured once with `scripts/bench/loudness_error.py`'s reference, are the expectations).
final class LoudnessMeterTests: XCTestCase {
    private func loudest(_ signal: [Float], _ sampleRate: Double) throws -> Double {
        try analyse(signal, sampleRate: sampleRate).loudestMomentaryLufs
    }

    /// BS.1770's calibration: a 997 Hz sine at full scale reads −3.01 LUFS in one channel;
    /// at −20 dBFS a 1 kHz sine reads 20 dB less, at 44.1 and 48 kHz alike.
    func testOneKilohertzSineReadsAsTheStandardSays() throws {
        XCTAssertEqual(try loudest(Signals.sine(hz: 997, seconds: 2, sampleRate: 48000, amplitude: 1), 48000), -3.0089, accuracy: 0.02)
        XCTAssertEqual(try loudest(Signals.sine(hz: 1000, seconds: 2, sampleRate: 48000, amplitude: 0.1), 48000), -23.0036, accuracy: 0.02)
        XCTAssertEqual(try loudest(Signals.sine(hz: 1000, seconds: 2, sampleRate: 44100, amplitude: 0.1), 44100), -23.0008, accuracy: 0.02)
    }

    /// The high-pass (−1.1 dB at 100 Hz, −10 dB at 30 Hz) and the shelf (+4 dB at 10 kHz)
    /// are both applied, at each rate's own coefficients.
    func testKWeightingAtLowAndHighFrequencies() throws {
        XCTAssertEqual(try loudest(Signals.sine(hz: 100, seconds: 2, sampleRate: 48000), 48000), -10.8554, accuracy: 0.05)
        XCTAssertEqual(try loudest(Signals.sine(hz: 100, seconds: 2, sampleRate: 44100), 44100), -10.8516, accuracy: 0.05)
        XCTAssertEqual(try loudest(Signals.sine(hz: 30, seconds: 2, sampleRate: 48000), 48000), -18.0257, accuracy: 0.1)
        XCTAssertEqual(try loudest(Signals.sine(hz: 10000, seconds: 2, sampleRate: 44100, amplitude: 0.1), 44100), -19.6555, accuracy: 0.05)
        XCTAssertEqual(try loudest(Signals.sine(hz: 10000, seconds: 2, sampleRate: 48000, amplitude: 0.1), 48000), -19.6594, accuracy: 0.05)
    }

    /// A sound shorter than 400 ms is measured over 400 ms with the silence around it: 200 ms
    /// of a sine reads 3 dB below the steady sine, alone in its file or inside a longer one.
    func testShortSoundIsMeasuredOverFourHundredMilliseconds() throws {
        XCTAssertEqual(try loudest(Signals.sine(hz: 1000, seconds: 0.2, sampleRate: 48000), 48000), -12.0351, accuracy: 0.05)
        var inside = Signals.sine(hz: 1000, seconds: 1, sampleRate: 48000)
        for n in inside.indices where n < 14400 || n >= 24000 { inside[n] = 0 }
        XCTAssertEqual(try loudest(inside, 48000), -12.0346, accuracy: 0.05)
    }

    /// A click counts whole wherever it falls between frame centres (a loudness summed from
    /// the frames' windowed power alone would read it up to 1.8 dB low at some positions),
    /// and a DC pulse counts only through what the high-pass lets through.
    func testClickAndPulseCountWherever() throws {
        for offset in [0, 120, 240, 360] {
            var click = [Float](repeating: 0, count: 48000)
            click[24000 + offset] = 1
            XCTAssertEqual(try loudest(click, 48000), -39.6950, accuracy: 0.05, "offset \(offset)")
        }
        var pulse = [Float](repeating: 0, count: 48000)
        for n in 0..<48 { pulse[n] = 0.9 }
        XCTAssertEqual(try loudest(pulse, 48000), -27.8576, accuracy: 0.3)
    }

    /// A sound whose energy lies almost all below the high-pass (a 12 Hz rumble at 0.9, which
    /// K-weighting leaves at −25.3 LUFS) reads what the high-pass leaves of it, alone and under
    /// a quiet 1 kHz tone: the frames' ratio is not made from the difference of two near sums
    /// (a first version read such a file 3.6 LU loud). The blocks read a pure rumble 0.19 dB
    /// loud (its slope across a block counts as passed whole), hence the wider tolerance.
    func testSubBassReadsWhatTheHighPassLeaves() throws {
        func signal(rumble: Double, tone: Double) -> [Float] {
            (0..<88200).map { n in
                Float(rumble * sin(2 * Double.pi * 12 * Double(n) / 44100) + tone * sin(2 * Double.pi * 1000 * Double(n) / 44100))
            }
        }
        XCTAssertEqual(try loudest(signal(rumble: 0.9, tone: 0), 44100), -25.3388, accuracy: 0.25)
        XCTAssertEqual(try loudest(signal(rumble: 0.9, tone: 0.05), 44100), -23.7942, accuracy: 0.25)
        XCTAssertEqual(try loudest(signal(rumble: 0, tone: 0.05), 44100), -29.0214, accuracy: 0.05)
    }

    func testSilenceAndEmptySignalReadSilent() throws {
        XCTAssertEqual(try loudest([Float](repeating: 0, count: 30000), 44100), LoudnessMeter.silentLufs)
        XCTAssertEqual(try loudest([], 44100), LoudnessMeter.silentLufs)
    }
}
