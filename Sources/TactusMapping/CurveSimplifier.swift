import TactusAHAP

/// Error-bounded piecewise-linear simplification: keeps the fewest points such that every
/// dropped point lies within `tolerance` (in value units) of the line through the kept ones.
///
/// It walks the curve once, keeping a cone of slopes from the last kept point that satisfy
/// every point seen since; when the next point leaves the cone, the previous one is kept.
/// Linear time, so an hour-long steady envelope collapses to a handful of points.
public enum CurveSimplifier {
    public static func simplify(_ points: [HapticTrack.Point], tolerance: Double) -> [HapticTrack.Point] {
        guard points.count > 2 else { return points }
        var kept = [points[0]]
        var anchor = points[0]
        var low = -Double.infinity, high = Double.infinity
        var previous = points[0]
        for point in points.dropFirst() {
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
        if kept.last != points.last { kept.append(points[points.count - 1]) }
        return kept
    }
}
