import XCTest
import Tactus
import TactusCore

/// `Movement`: a flat or rail-saturated curve scores a low spread or a high rails share, a
/// curve that follows the level scores the envelope measure ~1 at the lag it trails by.
final class MovementTests: XCTestCase {
    static let hop = ReferenceEnvelope.hopSeconds
    static let frames = 200

    /// Levels in dBFS, −60…0, irregular (a fixed pseudo-random walk), so a shift by one frame
    /// changes the correlation.
    static func levels() -> [Double] {
        var state: UInt64 = 12345, db = -30.0
        return (0..<frames).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            db = min(0, max(-60, db + Double(Int(state >> 33) % 21 - 10)))
            return db
        }
    }

    /// Log2 centroids per frame, moving over 9…12 octaves with the level.
    static func octaves(_ levels: [Double]) -> [Double] { levels.map { 12 + $0 / 20 } }

    /// A reference with these frame levels and centroids.
    static func reference(_ levels: [Double]) -> ReferenceEnvelope {
        ReferenceEnvelope(levelDb: levels, logCentroid: octaves(levels), frameLevelDb: levels,
                          duration: Double(frames) * hop)
    }

    /// One region over the whole reference playing `intensity(k)` and `sharpness(k)` at each
    /// frame's centre.
    static func playback(intensity: (Int) -> Double, sharpness: (Int) -> Double) -> HapticPlayback {
        let times = (0..<frames).map { Double($0) * hop }
        // From half a frame before the first frame's centre, so every frame plays whole.
        let region = HapticTrack.ContinuousRegion(
            start: -hop / 2, end: Double(frames) * hop,
            intensity: times.indices.map { .init(time: times[$0], value: intensity($0)) },
            sharpness: times.indices.map { .init(time: times[$0], value: sharpness($0)) })
        return HapticPlayback(HapticTrack(duration: Double(frames) * hop, regions: [region]))
    }

    func testAFlatCurveHasNoSpread() throws {
        let movement = Movement.measure(Self.playback(intensity: { _ in 0.5 }, sharpness: { _ in 0.5 }),
                                        reference: Self.reference(Self.levels()))
        XCTAssertEqual(movement.bodyFrames, Self.frames)
        XCTAssertEqual(try XCTUnwrap(movement.sharpnessSpread), 0, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(movement.intensitySpread), 0, accuracy: 1e-9)
        XCTAssertNil(movement.sharpnessPearson, "a constant sharpness has no correlation")
        XCTAssertNil(movement.envelope, "a constant intensity has no correlation with the level")
        XCTAssertEqual(try XCTUnwrap(movement.sharpnessRailShare), 0)
        XCTAssertTrue(movement.isMovingSound, "the sound moves 3 octaves even though the curve does not")
    }

    func testARailSaturatedCurveIsAtTheRails() throws {
        let levels = Self.levels()
        let top = Movement.measure(Self.playback(intensity: { _ in 1 }, sharpness: { _ in 1 }), reference: Self.reference(levels))
        XCTAssertEqual(try XCTUnwrap(top.sharpnessRailShare), 1)
        XCTAssertEqual(try XCTUnwrap(top.intensityHighRailShare), 1)
        XCTAssertEqual(try XCTUnwrap(top.intensityLowRailShare), 0)
        XCTAssertEqual(try XCTUnwrap(top.intensitySpread), 0, accuracy: 1e-9)
        // Bright where loud, dark where quiet: it moves, but only between the rails.
        let bottom = Movement.measure(Self.playback(intensity: { _ in 0.03 }, sharpness: { levels[$0] > -30 ? 0.95 : 0.02 }),
                                      reference: Self.reference(levels))
        XCTAssertEqual(try XCTUnwrap(bottom.intensityLowRailShare), 1)
        XCTAssertEqual(bottom.bodyFrames, 0, "0.03 plays no body")
        let steps = Movement.measure(Self.playback(intensity: { _ in 0.5 }, sharpness: { levels[$0] > -30 ? 0.95 : 0.02 }),
                                     reference: Self.reference(levels))
        XCTAssertEqual(try XCTUnwrap(steps.sharpnessRailShare), 1)
        XCTAssertGreaterThan(try XCTUnwrap(steps.sharpnessSpread), 0.9)
    }

    func testACurveFollowingTheLevelScoresTheEnvelopeOne() throws {
        let levels = Self.levels()
        let movement = Movement.measure(Self.playback(intensity: { 1 + levels[$0] / 60 }, sharpness: { 0.1 * Self.octaves(levels)[$0] - 0.6 }),
                                        reference: Self.reference(levels))
        XCTAssertEqual(try XCTUnwrap(movement.envelope), 1, accuracy: 0.01)
        XCTAssertEqual(movement.envelopeLag, 0)
        XCTAssertEqual(try XCTUnwrap(movement.intensitySlopePer10Db), 10.0 / 60, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(movement.sharpnessPearson), 1, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(movement.sharpnessSlopePerOctave), 0.1, accuracy: 0.005)
        XCTAssertGreaterThan(try XCTUnwrap(movement.sharpnessSpread), 0.1)
    }

    /// A known ramp in a real reference: a tone rising 60 dB in a second, then falling, measured
    /// from its frames; a curve at the mapped level plays ~1.
    func testARampFollowedScoresOne() throws {
        let ramp: [Double] = (0..<Self.frames).map { (k: Int) -> Double in
            let distance: Double = abs(Double(k) - 100) / 100
            return -60 * distance
        }
        let reference = Self.reference(ramp)
        XCTAssertEqual(reference.frameLoudness[100], 1)
        XCTAssertEqual(reference.frameLoudness[0], 0)
        let movement = Movement.measure(Self.playback(intensity: { reference.frameLoudness[$0] }, sharpness: { _ in 0.5 }),
                                        reference: reference)
        XCTAssertEqual(try XCTUnwrap(movement.envelope), 1, accuracy: 0.005)
    }

    func testTheLagIsFound() throws {
        let levels = Self.levels()
        let mapped = levels.map { 1 + $0 / 60 }
        for lag in [-1, 1] {
            let played = mapped.indices.map { k in mapped[min(max(k - lag, 0), mapped.count - 1)] }
            let (r, found) = Movement.envelope(played: played, level: mapped)
            XCTAssertEqual(found, lag)
            XCTAssertEqual(try XCTUnwrap(r), 1, accuracy: 0.01)
            // Without the lag search the same curve scores lower.
            let atZero = try XCTUnwrap(Statistics.pearson(played, mapped))
            XCTAssertLessThan(atZero, 0.97, "lag \(lag)")
        }
        let two = mapped.indices.map { k in mapped[max(k - 2, 0)] }
        XCTAssertLessThan(try XCTUnwrap(Movement.envelope(played: two, level: mapped).r), 0.97, "2 frames is beyond the search")
    }

    func testQuietFramesOfBothAreLeftOut() throws {
        // Silence on both sides at 0 would raise a plain Pearson; the envelope measure skips it.
        // Two unrelated series over the 50 frames where something plays (the levels' walk, and
        // the same walk reversed).
        let walk = Self.levels().prefix(50).map { 1 + $0 / 60 }
        let level = [Double](repeating: 0, count: 100) + walk
        let played = [Double](repeating: 0, count: 100) + walk.reversed()
        let plain = try XCTUnwrap(Statistics.pearson(played, level))
        let envelope = try XCTUnwrap(Movement.envelope(played: played, level: level).r)
        XCTAssertGreaterThan(plain, 0.6)
        XCTAssertLessThan(envelope, 0.6)
    }
}
