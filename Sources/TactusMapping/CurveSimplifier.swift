import TactusAHAP
import TactusCore

/// Error-bounded piecewise-linear simplification: keeps the fewest points such that every
/// dropped point lies within `tolerance` (in value units) of the line through the kept ones.
///
/// It walks the curve once, keeping a cone of slopes from the last kept point that satisfy
/// every point seen since; when the next point leaves the cone, the previous one is kept.
/// Linear time, so an hour-long steady envelope collapses to a handful of points.
public enum CurveSimplifier {
    public static func simplify(_ points: [HapticTrack.Point], tolerance: Double) -> [HapticTrack.Point] {
        simplify(count: points.count, tolerance: tolerance) { points[$0] }
    }

    /// The same over points made on demand, so a long curve is never held whole.
    public static func simplify(count: Int, tolerance: Double,
                                point: (Int) -> HapticTrack.Point) -> [HapticTrack.Point] {
        guard count > 2 else { return (0..<count).map(point) }
        let first = point(0)
        var kept = [first]
        var anchor = first
        var low = -Double.infinity, high = Double.infinity
        var previous = first
        for index in 1..<count {
            let point = point(index)
            let dt = point.time - anchor.time
            guard dt > 0 else { previous = point; continue }
            let slope = (point.value - anchor.value) / dt
            if slope < low || slope > high {
                kept.append(previous)
                anchor = previous
                let dt2 = point.time - anchor.time
                low = (point.value - tolerance - anchor.value) / dt2
                high = (point.value + tolerance - anchor.value) / dt2
            } else {
                low = max(low, (point.value - tolerance - anchor.value) / dt)
                high = min(high, (point.value + tolerance - anchor.value) / dt)
            }
            previous = point
        }
        if kept.last != previous { kept.append(previous) }
        return kept
    }
}
