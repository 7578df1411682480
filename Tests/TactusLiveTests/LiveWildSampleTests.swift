import XCTest
import TactusCore
import TactusLive

/// What a broken source can push into a stream: a sample that is not a number or is wildly out
/// of range must neither stop the stream nor put a non-number into an event.
final class LiveWildSampleTests: XCTestCase {
    /// A real sound with one sample replaced, mid-sound, by NaN, +Inf or 3e38: the body still
    /// plays after it (at least three quarters of the body updates of the clean stream), and
    /// every event's values stay finite and in 0…1.
    func testAWildSampleNeitherStopsTheStreamNorReachesAnEvent() throws {
        let clean = try LiveFixtures.sound("clean/engine_loop.wav")
        let preset = try LiveFixtures.preset()
        let cleanBody = try LiveFixtures.events(clean, preset: preset, block: 512).filter { $0.kind == .continuous }
        XCTAssertGreaterThan(cleanBody.count, 100)
        for wild: Float in [.nan, .infinity, 3e38] {
            var samples = clean.samples
            samples[samples.count / 3] = wild
            let sound = LiveFixtures.Sound(rate: clean.rate, channels: clean.channels, samples: samples, url: clean.url)
            let events = try LiveFixtures.events(sound, preset: preset, block: 512)
            let body = events.filter { $0.kind == .continuous }
            let after = Double(samples.count / 3 / clean.channels) / clean.rate
            XCTAssertGreaterThan(body.filter { $0.time > after }.count, cleanBody.filter { $0.time > after }.count * 3 / 4,
                                 "the body plays on after a sample of \(wild)")
            for event in events {
                XCTAssertTrue((0...1).contains(event.intensity) && (0...1).contains(event.sharpness)
                              && event.time.isFinite && event.emittedAt.isFinite, "\(event) after a sample of \(wild)")
            }
        }
    }

    /// The mixdown holds what it analyses within ±`Mixdown.sampleLimit` and reads a
    /// non-number as silence.
    func testTheMixdownHoldsWildSamples() {
        let interleaved: [Float] = [3e38, -3e38, .nan, 0.5, .infinity, -.infinity, 2000, 0]
        var mono = [Float](repeating: 0, count: 4)
        interleaved.withUnsafeBufferPointer { input in
            mono.withUnsafeMutableBufferPointer { Mixdown.mono(input, frames: 4, channels: 2, into: $0) }
        }
        XCTAssertEqual(mono, [0, 0.25, 0, Mixdown.sampleLimit / 2])
    }
}
