import TactusCore
import XCTest

/// The format-neutral "what plays" evaluator on hand-built tracks.
final class HapticPlaybackTests: XCTestCase {
    private func point(_ time: Double, _ value: Double) -> HapticTrack.Point { .init(time: time, value: value) }

    func testTransientsPlayInTimeOrderClampedToTheirRange() {
        let playback = HapticPlayback(HapticTrack(duration: 2, transients: [
            .init(time: 1.5, intensity: 1.4, sharpness: -0.2),
            .init(time: 0.25, intensity: 0.6, sharpness: 0.3),
        ]))
        XCTAssertEqual(playback.transients, [.init(time: 0.25, intensity: 0.6, sharpness: 0.3),
                                             .init(time: 1.5, intensity: 1, sharpness: 0)])
        XCTAssertEqual(playback.endTime, 1.5, "the last transient ends the haptics, not the track's duration")
        XCTAssertEqual(playback.continuousIntensity(at: 0.25), 0, "a transient is not continuous")
        XCTAssertNil(playback.continuousSharpness(at: 0.25))
    }

    func testCurvesInterpolateLinearlyHoldAtTheirEndsAndStep() {
        let region = HapticTrack.ContinuousRegion(
            start: 1, end: 3,
            intensity: [point(1.5, 0.2), point(2, 0.6), point(2.5, 0.6), point(2.5, 0.1)],
            sharpness: [point(1, 0), point(3, 1)])
        let playback = HapticPlayback(HapticTrack(duration: 4, regions: [region]))
        let expected: [(t: Double, intensity: Double, sharpness: Double?)] = [
            (0.999, 0, nil),          // before the region: nothing continuous
            (1, 0.2, 0), (1.25, 0.2, 0.125), // the first value holds until the first point
            (1.75, 0.4, 0.375), (2.25, 0.6, 0.625),
            (2.5, 0.1, 0.75),         // two points at one time: a step, the later one from then
            (2.999, 0.1, 0.9995),     // the last value holds to the end
            (3, 0, nil),              // the end is not played
        ]
        for (t, intensity, sharpness) in expected {
            XCTAssertEqual(playback.continuousIntensity(at: t), intensity, accuracy: 1e-12, "at \(t)")
            if let sharpness {
                XCTAssertEqual(try XCTUnwrap(playback.continuousSharpness(at: t)), sharpness, accuracy: 1e-12, "at \(t)")
            } else {
                XCTAssertNil(playback.continuousSharpness(at: t), "at \(t)")
            }
        }
        XCTAssertEqual(playback.endTime, 3)
        XCTAssertEqual(playback.curvePointCount, 6)
    }

    func testTouchingRegionsHandOverAndMergeIntoOneSpan() {
        let first = HapticTrack.ContinuousRegion(start: 0, end: 1, intensity: [point(0, 0.5)], sharpness: [point(0, 0.2)])
        let second = HapticTrack.ContinuousRegion(start: 1, end: 2, intensity: [point(1, 0.9)], sharpness: [point(1, 0.8)])
        let apart = HapticTrack.ContinuousRegion(start: 3, end: 3.5, intensity: [point(3, 2)], sharpness: [])
        let playback = HapticPlayback(HapticTrack(duration: 4, regions: [first, second, apart]))
        XCTAssertEqual(playback.continuousIntensity(at: 0.999), 0.5)
        XCTAssertEqual(playback.continuousIntensity(at: 1), 0.9, "the next region plays from its start")
        XCTAssertEqual(playback.continuousSharpness(at: 1), 0.8)
        XCTAssertEqual(playback.continuousIntensity(at: 3.2), 1, "clamped to 0…1")
        XCTAssertEqual(playback.continuousSharpness(at: 3.2), 0, "a region without a sharpness curve plays 0")
        XCTAssertEqual(playback.continuousSpans, [0...2, 3...3.5])
    }

    func testOnePolylineForEveryCurve() {
        let knots = [point(0, 0), point(1, 1), point(1, 0.5), point(3, 1.5)]
        XCTAssertEqual(Polyline.value(of: knots, at: -1), 0)
        XCTAssertEqual(Polyline.value(of: knots, at: 0.25), 0.25)
        XCTAssertEqual(Polyline.value(of: knots, at: 1), 0.5, "at a step, the later knot")
        XCTAssertEqual(Polyline.value(of: knots, before: 1), 1, "just before a step, the earlier one")
        XCTAssertEqual(Polyline.value(of: knots, at: 2), 1)
        XCTAssertEqual(Polyline.value(of: knots, at: 9), 1.5)
        XCTAssertEqual(Polyline.value(of: [], at: 1), 0)
        XCTAssertEqual(Polyline([point(2, 1), point(1, 3)]).knots.map(\.time), [2, 2], "out-of-order knots move up")
    }

    /// The cursor reads the same curve forwards: bit for bit `value(of:at:)` at every instant,
    /// through a step, repeated times and times past either end.
    func testPolylineCursorReadsForwardsAsTheCurve() {
        let knots = [point(0.5, 0.1), point(1, 1), point(1, 0.5), point(1.7, 0.3), point(3, 1.5)]
        var cursor = Polyline.Cursor(knots)
        for k in 0...400 {
            let t = Double(k) * 0.0087
            XCTAssertEqual(cursor.value(at: t).bitPattern, Polyline.value(of: knots, at: t).bitPattern, "at \(t)")
            XCTAssertEqual(cursor.value(at: t).bitPattern, Polyline.value(of: knots, at: t).bitPattern, "again at \(t)")
        }
        XCTAssertEqual(cursor.value(at: 9), 1.5)
        var empty = Polyline.Cursor([])
        XCTAssertEqual(empty.value(at: 1), 0)
    }
}
