import Foundation
import XCTest
import Tactus
import TactusAHAP
import TactusTestSupport

/// Extreme but legal audio — silence, DC, tiny and huge files, odd rates and channel
/// counts, awkward names — converts to a valid AHAP that still means what the sound does.
final class RobustnessSignalTests: RobustnessTestCase {
    /// Digital silence: a valid pattern with the audio and no haptic event at all.
    func testDigitalSilenceHasAudioButNoHaptics() throws {
        let converted = try assertConverted(write([Float](repeating: 0, count: 44_100), to: "silence.wav"))
        XCTAssertEqual(converted.hapticEvents, [])
    }

    /// A constant offset is inaudible: it must not buzz, and clicks riding on it still land.
    func testDCOffsetDoesNotBuzz() throws {
        let clicks = Signals.clicks(at: [0.5, 1.5], seconds: 2, sampleRate: 44_100, amplitude: 0.5)
        let converted = try assertConverted(write(clicks.map { $0 + 0.4 }, to: "dc.wav"))
        XCTAssertEqual(OnsetScore(detected: converted.transientTimes, truth: [0.5, 1.5], tolerance: 0.025).truePositives, 2)
        for event in converted.continuousEvents {
            XCTAssertLessThan(event.duration ?? 0, 0.3, "a continuous event lasting beyond the clicks: \(event)")
        }
    }

    func testSingleSampleFile() throws {
        let converted = try assertConverted(write([0.9], to: "one-sample.wav"))
        XCTAssertLessThanOrEqual(converted.hapticEvents.count, 1)
    }

    /// A whole file of 10 ms, shorter than one analysis window: a click that starts at once.
    func testTenMillisecondClick() throws {
        let click = Signals.clicks(at: [0], seconds: 0.01, sampleRate: 48_000, decayMs: 2)
        let converted = try assertConverted(write(click, to: "click.wav", sampleRate: 48_000))
        XCTAssertEqual(converted.transientTimes.count, 1, "the click is felt")
        XCTAssertLessThan(converted.transientTimes.first ?? 1, 0.005)
    }

    private func assertClicksAt(sampleRate: Int, channels: Int = 1, file: StaticString = #filePath, line: UInt = #line) throws {
        let truth = [0.2, 0.6]
        let samples = Signals.clicks(at: truth, seconds: 0.8, sampleRate: Double(sampleRate))
        let url = try write(samples, to: "rate-\(sampleRate).wav", sampleRate: sampleRate, channels: channels)
        let converted = try assertConverted(url, file: file, line: line)
        let score = OnsetScore(detected: converted.transientTimes, truth: truth, tolerance: 0.01)
        XCTAssertEqual(score.truePositives, 2, "\(score)", file: file, line: line)
        XCTAssertEqual(score.falsePositives, 0, "\(score)", file: file, line: line)
    }

    func testEightKilohertz() throws { try assertClicksAt(sampleRate: 8_000) }
    func testOneHundredNinetyTwoKilohertz() throws { try assertClicksAt(sampleRate: 192_000) }
    func testThreeHundredEightyFourKilohertz() throws { try assertClicksAt(sampleRate: 384_000) }

    /// Eight channels, each with a click of its own at a different time: the mixdown keeps
    /// every channel's attack.
    func testEightChannelsEachWithItsOwnClick() throws {
        let channels = 8, rate = 44_100.0
        let truth = (0..<channels).map { 0.1 + 0.15 * Double($0) }
        let perChannel = truth.enumerated().map { c, t in
            Signals.clicks(at: [t], seconds: 1.3, sampleRate: rate, seed: UInt64(c + 1))
        }
        let interleaved = (0..<perChannel[0].count).flatMap { i in perChannel.map { $0[i] } }
        let url = try write(interleaved, to: "octo.wav", channels: channels, format: .wav24, interleaved: true)
        let converted = try assertConverted(url)
        let score = OnsetScore(detected: converted.transientTimes, truth: truth, tolerance: 0.025)
        XCTAssertEqual(score.truePositives, channels, "\(score)")
    }

    /// Full scale, every sample at ±1: loud, valid, no value out of range.
    func testFullScaleSquareWave() throws {
        let square = (0..<44_100).map { ($0 / 220) % 2 == 0 ? Float(1) : Float(-1) }
        let converted = try assertConverted(write(square, to: "square.wav"))
        XCTAssertFalse(converted.continuousEvents.isEmpty, "a full-scale tone is felt")
    }

    /// Floating-point files may hold any value: a sample of 3e38 between clicks (a broken
    /// plugin's) neither crashes the analysis nor takes the clicks before it away.
    func testAWildFloatSampleConvertsAndKeepsTheClicksBeforeIt() throws {
        var samples = Signals.clicks(at: [0.2, 0.4], seconds: 1, sampleRate: 44_100)
        samples[Int(0.7 * 44_100)] = 3e38
        let converted = try assertConverted(write(samples, to: "wild.wav", format: .wavFloat))
        let score = OnsetScore(detected: converted.transientTimes, truth: [0.2, 0.4], tolerance: 0.01)
        XCTAssertEqual(score.truePositives, 2, "\(score)")
    }

    // MARK: Names

    private func assertConvertsName(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let url = try write(Signals.clicks(at: [0.1], seconds: 0.3, sampleRate: 44_100), to: name)
        let converted = try assertConverted(url, file: file, line: line)
        XCTAssertEqual(converted.ahap.lastPathComponent, url.deletingPathExtension().lastPathComponent + ".ahap",
                       file: file, line: line)
        XCTAssertTrue(converted.document.metadata.contains { $0.key == "Source" && $0.value == name },
                      "Source metadata keeps the name exactly", file: file, line: line)
    }

    func testNameWithSpaces() throws { try assertConvertsName("big  boom hit.wav") }
    func testNameWithUnicode() throws { try assertConvertsName("Übergang café – straße.wav") }
    func testNameWithEmoji() throws { try assertConvertsName("💥 boom 🎧.wav") }
    func testUppercaseExtension() throws { try assertConvertsName("BOOM.WAV") }

    // MARK: Long files

    /// Thirty seconds of silence, then one hit: a single transient exactly there.
    func testThirtySecondsOfSilenceThenOneHit() throws {
        let rate = 16_000.0
        let url = try write(Signals.clicks(at: [30], seconds: 30.5, sampleRate: rate), to: "late-hit.wav",
                            sampleRate: Int(rate))
        let converted = try assertConverted(url)
        XCTAssertEqual(converted.transientTimes.count, 1)
        XCTAssertEqual(converted.transientTimes.first ?? 0, 30, accuracy: 0.005)
        XCTAssertTrue(converted.hapticEvents.allSatisfy { $0.time > 29.9 }, "nothing before the hit")
    }

    /// A 45 s noise bed: felt all along, as continuous events of at most 30 s that follow
    /// each other without a gap.
    func testFortyFiveSecondNoiseBedIsSplitIntoEventsOfAtMostThirtySeconds() throws {
        let rate = 8_000.0
        let url = try write(Signals.noise(seconds: 45, sampleRate: rate, amplitude: 0.3), to: "bed.wav",
                            sampleRate: Int(rate))
        let events = try assertConverted(url).continuousEvents.sorted { $0.time < $1.time }
        XCTAssertGreaterThanOrEqual(events.count, 2)
        XCTAssertTrue(events.allSatisfy { ($0.duration ?? .infinity) <= AHAPLimits.maxContinuousDuration })
        let covered = events.reduce(0) { $0 + ($1.duration ?? 0) }
        XCTAssertGreaterThan(covered, 44)
        for (a, b) in zip(events, events.dropFirst()) {
            XCTAssertEqual(a.time + (a.duration ?? 0), b.time, accuracy: 0.011, "no gap between \(a) and \(b)")
        }
    }

    /// One hour: converts in bounded memory, and a hit at 59:59.5 lands as precisely as one
    /// at the start (times must not drift with file length). 1 kHz keeps the debug-build
    /// test short; the frame count, not the sample rate, is what a long file stresses.
    /// Memory is each run's own (`measuresPeakMemory`), against one second of the same sound:
    /// what the hour adds is what its length costs, whatever the runtime and binary weigh.
    func testOneHourFile() throws {
        let rate = 1_000.0, truth = [600.0, 1_800, 3_599.5]
        let hour = Signals.clicks(at: truth, seconds: 3_600, sampleRate: rate, decayMs: 15)
        let url = try write(hour, to: "hour.wav", sampleRate: Int(rate))
        let measured = CLIRunner.Conditions(measuresPeakMemory: true)
        let converted = try assertConverted(url, conditions: measured)
        let score = OnsetScore(detected: converted.transientTimes, truth: truth, tolerance: 0.01)
        XCTAssertEqual(score.truePositives, 3, "\(score)")
        XCTAssertEqual(score.falsePositives, 0, "\(score)")

        let second = try write(Array(hour[599_500..<600_500]), to: "second.wav", sampleRate: Int(rate))
        let hourPeak = try XCTUnwrap(converted.peakMegabytes, "the hour's peak memory was not measured")
        let floor = try XCTUnwrap(assertConverted(second, conditions: measured).peakMegabytes)
        XCTAssertLessThan(hourPeak - floor, Self.hourGrowthLimitMegabytes,
                          "what an hour adds to a second's peak memory (\(hourPeak) MB against \(floor) MB)")
        XCTAssertLessThan(hourPeak, Self.hourPeakLimitMegabytes, "the hour's own peak memory")
    }

    /// Measured (Linux, Swift 6.3, debug build; `make bench` measures the release build):
    /// one second 23.7 MB, the hour 31.7 MB, two hours 40.2 MB — about 8 MB an hour, the
    /// per-frame features (frames are a fixed time apart, so at any sample rate). 12 MB
    /// leaves half again for noise; a copy of the hour's samples (14.4 MB at 1 kHz) or a
    /// second copy of its features crosses it.
    static let hourGrowthLimitMegabytes = 12.0
    /// The hour's own peak, with room for another runtime or build configuration (the floor
    /// is mostly the runtime's and the binary's pages): 31.7 MB measured.
    static let hourPeakLimitMegabytes = 48.0
}
