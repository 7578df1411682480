import Foundation
import Tactus
import TactusCore
import TactusLive
import TactusTestSupport
import XCTest

final class LiveHapticsTests: XCTestCase {
    /// The same events, emission positions included, whatever the blocks the audio came in,
    /// with either live decision (`peaks.liveDecision`).
    func testEventsDoNotDependOnBlockSizes() throws {
        let sound = try LiveFixtures.sound("clean/gunshots_stereo48k.wav")
        for decision in ["peak", "rise"] {
            let preset = try LiveFixtures.preset(overrides: ["peaks.liveDecision=\(decision)"])
            let whole = try LiveFixtures.events(sound, preset: preset)
            XCTAssertGreaterThan(whole.filter { $0.kind == .transient }.count, 0)
            XCTAssertGreaterThan(whole.filter { $0.kind == .continuous }.count, 50)
            for block in [1, 64, 1031] {
                XCTAssertEqual(try LiveFixtures.events(sound, preset: preset, block: block), whole, "\(decision), block \(block)")
            }
        }
    }

    /// Planar channels mix as interleaved ones do, and another thread gives the same events.
    func testPlanarAndOtherThreadsGiveTheSameEvents() throws {
        let sound = try LiveFixtures.sound("clean/gunshots_stereo48k.wav")
        let preset = try LiveFixtures.preset()
        let interleaved = try LiveFixtures.events(sound, preset: preset, block: 480)
        var left = stride(from: 0, to: sound.samples.count, by: 2).map { sound.samples[$0] }
        var right = stride(from: 1, to: sound.samples.count, by: 2).map { sound.samples[$0] }
        let live = try LiveHaptics(preset: preset, sampleRate: sound.rate, channels: 2)
        var planar: [LiveEvent] = []
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                let channels = [l.baseAddress!, r.baseAddress!]
                channels.withUnsafeBufferPointer { live.push(planar: $0.baseAddress!, frames: l.count) { planar.append($0) } }
            }
        }
        live.finish { planar.append($0) }
        XCTAssertEqual(planar, interleaved)

        var threaded: [LiveEvent] = []
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            threaded = (try? LiveFixtures.events(sound, preset: preset, block: 64)) ?? []
            done.signal()
        }
        thread.start()
        done.wait()
        XCTAssertEqual(threaded, interleaved)
    }

    /// Transients agree with `tactus convert`'s on real sounds (±10 ms), and the body follows
    /// its played intensity as `scripts/bench/live.py` compares them: every hop where either
    /// plays, live's value held until its next, pooled over the sounds (live's running level
    /// reference and strength keep it from the offline one at a sound's start: BENCHMARKS.md, "Live").
    func testTransientsAndBodyFollowConvert() throws {
        let preset = try LiveFixtures.preset()
        var score = OnsetScore()
        var (live, offline) = ([Double](), [Double]())
        for path in ["clean/anvil_hits.aiff", "clean/ui_clicks.wav", "clean/gunshots_stereo48k.wav",
                     "multi/door_open_close.wav", "clean/footsteps_gravel.wav"] {
            let sound = try LiveFixtures.sound(path)
            let events = try LiveFixtures.events(sound, preset: preset, block: 256)
            let track = try LiveFixtures.offlineTrack(sound, preset: preset)
            score = score + OnsetScore(detected: events.filter { $0.kind == .transient }.map(\.time),
                                       truth: track.transients.map(\.time), tolerance: 0.010)
            let playback = HapticPlayback(track)
            let body = events.filter { $0.kind == .continuous }
            let hop = zip(body, body.dropFirst()).map { $1.time - $0.time }.min() ?? 0.01
            var next = 0, held = 0.0
            for k in 0..<Int((track.duration / hop).rounded(.up)) {
                let time = Double(k) * hop
                while next < body.count, body[next].time <= time + hop / 2 {
                    held = body[next].intensity
                    next += 1
                }
                let played = playback.continuousSharpness(at: time) == nil ? 0 : playback.continuousIntensity(at: time)
                guard held > 0 || played > 0 else { continue }
                live.append(held)
                offline.append(played)
            }
        }
        XCTAssertGreaterThanOrEqual(score.fMeasure, 0.95, "\(score)")
        let r = correlation(live, offline)
        XCTAssertGreaterThan(r, 0.98, "r \(r)")
    }

    /// A transient is known the look-ahead after its frame: never before its own time, and
    /// within the look-ahead plus the attack's distance before its frame.
    func testTransientLatencyIsBoundedByTheLookahead() throws {
        let sound = try LiveFixtures.sound("clean/ui_clicks.wav")
        let preset = try LiveFixtures.preset()
        let live = try LiveHaptics(preset: preset, sampleRate: sound.rate, channels: sound.channels)
        let transients = try LiveFixtures.events(sound, preset: preset, block: 128).filter { $0.kind == .transient }
        XCTAssertFalse(transients.isEmpty)
        for event in transients {
            XCTAssertGreaterThan(event.emittedAt, event.time)
            XCTAssertLessThan(event.emittedAt - event.time, live.lookaheadSeconds + 0.05)
        }
    }

    /// `peaks.liveDecision=rise` releases a clear attack on its rising frame: within 20 ms of
    /// its time in stream position (half a window after a frame centred at most 10 ms after
    /// the attack), where `peak` waits its look-ahead (60 ms and half a window after its
    /// frame); the transients are the same, within 1 ms. A regression of the rising decision
    /// (waiting for later frames) fails here.
    func testRisingDecisionReleasesClearAttacksWithin20Ms() throws {
        for path in ["clean/gunshots_stereo48k.wav", "clean/ui_clicks.wav"] {
            let sound = try LiveFixtures.sound(path)
            let peak = try LiveFixtures.events(sound, preset: try LiveFixtures.preset(), block: 256).filter { $0.kind == .transient }
            let rise = try LiveFixtures.events(sound, preset: try LiveFixtures.preset(overrides: ["peaks.liveDecision=rise"]),
                                               block: 256).filter { $0.kind == .transient }
            XCTAssertEqual(rise.count, peak.count, path)
            XCTAssertGreaterThanOrEqual(rise.count, 3, path)
            for (early, late) in zip(rise, peak) {
                XCTAssertEqual(early.time, late.time, accuracy: 0.001, path)
                XCTAssertGreaterThanOrEqual(early.emittedAt, early.time, path)
                XCTAssertLessThanOrEqual(early.emittedAt - early.time, 0.020, "\(path) at \(early.time)")
                XCTAssertGreaterThanOrEqual(late.emittedAt - late.time, 0.060, "\(path) at \(late.time)")
            }
        }
    }

    /// The body is updated every hop while it plays: 100 values a second at the 10 ms hop.
    func testBodyIsUpdatedEveryHop() throws {
        let sound = try LiveFixtures.sound("clean/engine_loop.wav")
        let body = try LiveFixtures.events(sound, preset: try LiveFixtures.preset()).filter { $0.kind == .continuous }
        XCTAssertGreaterThan(body.count, 100)
        for (a, b) in zip(body, body.dropFirst()) { XCTAssertEqual(b.time - a.time, 0.01, accuracy: 1e-9) }
    }

    /// A preset whose onsets wait longer than the budget is refused on one line, not changed.
    func testPresetLookingTooFarAheadIsRefused() throws {
        let preset = try LiveFixtures.preset(overrides: ["peaks.postMedianMs=150"])
        XCTAssertThrowsError(try LiveHaptics(preset: preset, sampleRate: 48_000, channels: 1)) { error in
            let line = "\(error)"
            XCTAssertTrue(line.contains("looks 160 ms ahead"), line)
            XCTAssertFalse(line.contains("\n"))
        }
        XCTAssertNoThrow(try LiveHaptics(preset: preset, sampleRate: 48_000, channels: 1, maxLookaheadMs: 200))
        XCTAssertThrowsError(try LiveHaptics(preset: try LiveFixtures.preset(), sampleRate: 0, channels: 1))
    }

    private func correlation(_ a: [Double], _ b: [Double]) -> Double {
        let n = Double(a.count)
        let (ma, mb) = (a.reduce(0, +) / n, b.reduce(0, +) / n)
        var (ab, aa, bb) = (0.0, 0.0, 0.0)
        for (x, y) in zip(a, b) {
            ab += (x - ma) * (y - mb)
            aa += (x - ma) * (x - ma)
            bb += (y - mb) * (y - mb)
        }
        return ab / (aa * bb).squareRoot()
    }
}
