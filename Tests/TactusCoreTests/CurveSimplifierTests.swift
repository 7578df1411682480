import TactusCore
import TactusTestSupport
import XCTest

/// `CurveSimplifier` against its definition: the error bound, the fewest points, hostile values.
final class CurveSimplifierTests: XCTestCase {
    /// Every dropped point lies within the tolerance of the kept polyline, the ends are kept,
    /// and a straight line collapses to its ends, however long (longer than one search block).
    func testCurveSimplifierKeepsItsErrorBound() {
        var generator = SeededGenerator(seed: 21)
        for tolerance in [0.001, 0.01, 0.05] {
            var value = 0.5
            let points = (0..<10_000).map { i -> HapticTrack.Point in
                value = min(1, max(0, value + generator.nextSigned() * 0.02))
                return HapticTrack.Point(time: Double(i) * 0.01, value: value)
            }
            let kept = CurveSimplifier.simplify(points, tolerance: tolerance)
            XCTAssertEqual(kept.first, points.first)
            XCTAssertEqual(kept.last, points.last)
            XCTAssertLessThan(kept.count, points.count)
            XCTAssertEqual(kept.map(\.time), kept.map(\.time).sorted())
            for point in points {
                let after = kept.firstIndex { $0.time >= point.time }!
                let b = kept[after], a = after > 0 ? kept[after - 1] : b
                let interpolated = b.time == a.time ? b.value : a.value + (b.value - a.value) * (point.time - a.time) / (b.time - a.time)
                XCTAssertLessThanOrEqual(abs(interpolated - point.value), tolerance + 1e-9, "t \(point.time), tolerance \(tolerance)")
            }
        }
        let line = (0..<200_000).map { HapticTrack.Point(time: Double($0), value: Double($0) / 200_000) }
        XCTAssertEqual(CurveSimplifier.simplify(line, tolerance: 1e-6), [line.first!, line.last!])
    }

    /// No subset with fewer points keeps the error bound, and among the subsets that small
    /// none lies closer to the dropped points: on short random curves the count and the
    /// squared error equal an exhaustive search's (a greedy walk keeps more points on some).
    func testCurveSimplifierKeepsTheFewestPointsAndTheClosest() {
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<300 {
            var value = 0.5
            let points = (0..<11).map { i -> HapticTrack.Point in
                value = min(1, max(0, value + generator.nextSigned() * 0.1))
                return HapticTrack.Point(time: Double(i) * 0.01, value: value)
            }
            let tolerance = 0.04
            let kept = CurveSimplifier.simplify(points, tolerance: tolerance)
            let best = Self.bestByExhaustion(points, tolerance: tolerance)
            XCTAssertEqual(kept.count, best.count, "\(points.map(\.value))")
            XCTAssertEqual(Self.squaredError(points, kept: kept.map { k in points.firstIndex(of: k)! }), best.error,
                           accuracy: 1e-9, "\(points.map(\.value))")
        }
    }

    /// Sum of the dropped points' squared vertical distances to the polyline through `kept`.
    private static func squaredError(_ points: [HapticTrack.Point], kept: [Int]) -> Double {
        distances(points, kept: kept).map { $0 * $0 }.reduce(0, +)
    }

    /// Each dropped point's vertical distance to the polyline through `kept` (indices).
    private static func distances(_ points: [HapticTrack.Point], kept: [Int]) -> [Double] {
        zip(kept, kept.dropFirst()).flatMap { a, b in
            ((a + 1)..<b).map { k in
                let line = points[a].value + (points[b].value - points[a].value)
                    * (points[k].time - points[a].time) / (points[b].time - points[a].time)
                return abs(line - points[k].value)
            }
        }
    }

    /// Tries every subset that keeps both ends: the fewest points within the tolerance, and
    /// the least squared error among subsets of that size.
    private static func bestByExhaustion(_ points: [HapticTrack.Point], tolerance: Double) -> (count: Int, error: Double) {
        let inner = points.count - 2
        var best = (count: points.count, error: 0.0)
        for mask in 0..<(1 << inner) {
            let kept = [0] + (0..<inner).filter { mask & (1 << $0) != 0 }.map { $0 + 1 } + [points.count - 1]
            let distances = distances(points, kept: kept)
            guard distances.allSatisfy({ $0 <= tolerance }) else { continue }
            let error = distances.map { $0 * $0 }.reduce(0, +)
            if kept.count < best.count || (kept.count == best.count && error < best.error) { best = (kept.count, error) }
        }
        return best
    }

    /// A non-finite value (which no line fits) neither traps nor loses the curve's ends.
    func testCurveSimplifierSurvivesNonFiniteValues() {
        for bad in [Double.nan, .infinity, -.infinity] {
            var points = (0..<50).map { HapticTrack.Point(time: Double($0) * 0.01, value: Double($0 % 7) / 7) }
            points[20].value = bad
            let kept = CurveSimplifier.simplify(points, tolerance: 0.05)
            XCTAssertEqual(kept.first, points.first)
            XCTAssertEqual(kept.last, points.last)
            XCTAssertEqual(kept.map(\.time), kept.map(\.time).sorted(), "\(bad)")
        }
    }
}
