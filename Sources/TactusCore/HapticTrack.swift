/// A format-free description of the haptics designed for one sound.
///
/// The mapper produces it, every writer consumes it, and no writer re-analyses audio.
/// All times are in seconds from the start of the audio; all values are what the
/// user should *feel* (0…1), before any format-specific encoding (such as AHAP's
/// multiplicative intensity control) is applied.
public struct HapticTrack: Equatable, Sendable {
    /// A short, sharp haptic tap at an onset.
    public struct Transient: Equatable, Sendable {
        /// Start time in seconds.
        public var time: Double
        /// Designed intensity, 0…1: what the transient must play at.
        public var intensity: Double
        /// Designed sharpness, 0…1.
        public var sharpness: Double

        /// - Parameters:
        ///   - time: start, in seconds.
        ///   - intensity: 0…1.
        ///   - sharpness: 0…1.
        public init(time: Double, intensity: Double, sharpness: Double) {
            self.time = time
            self.intensity = intensity
            self.sharpness = sharpness
        }
    }

    /// One point of a piecewise-linear curve, in absolute seconds.
    public struct Point: Equatable, Sendable {
        /// Seconds from the start of the track.
        public var time: Double
        /// The curve's value there (0…1 for intensity and sharpness).
        public var value: Double

        /// - Parameters:
        ///   - time: seconds from the start of the track.
        ///   - value: the value there.
        public init(time: Double, value: Double) {
            self.time = time
            self.value = value
        }
    }

    /// A span where the sound has a body worth feeling continuously.
    ///
    /// Regions never overlap and are sorted. Outside every region the pattern is
    /// silent apart from transients: that is how "no buzz under silence" is expressed.
    public struct ContinuousRegion: Equatable, Sendable {
        /// Start, in seconds.
        public var start: Double
        /// End, in seconds (after `start`); the region plays up to, not including, it.
        public var end: Double
        /// Intensity to feel, 0…1, piecewise linear, times within `start…end`, sorted.
        public var intensity: [Point]
        /// Sharpness to feel, 0…1, piecewise linear, times within `start…end`, sorted.
        public var sharpness: [Point]

        /// - Parameters:
        ///   - start: start, in seconds.
        ///   - end: end, in seconds.
        ///   - intensity: the intensity curve, 0…1.
        ///   - sharpness: the sharpness curve, 0…1.
        public init(start: Double, end: Double, intensity: [Point], sharpness: [Point]) {
            self.start = start
            self.end = end
            self.intensity = intensity
            self.sharpness = sharpness
        }
    }

    /// Duration of the source audio in seconds.
    public var duration: Double
    /// Transients sorted by time.
    public var transients: [Transient]
    /// Continuous regions sorted by time, not overlapping.
    public var regions: [ContinuousRegion]

    /// - Parameters:
    ///   - duration: the source audio's length, in seconds.
    ///   - transients: sorted by time.
    ///   - regions: sorted, not overlapping.
    public init(duration: Double, transients: [Transient] = [], regions: [ContinuousRegion] = []) {
        self.duration = duration
        self.transients = transients
        self.regions = regions
    }
}

extension HapticTrack {
    /// A region's intensity or sharpness curve clipped to it: the points strictly inside, plus
    /// its values at both ends (at the end, the value played just before it, since a region plays
    /// up to, not including, its end), so points a rounding error outside are not lost.
    /// - Parameters:
    ///   - points: a curve, sorted by time.
    ///   - start: the span's start, in seconds.
    ///   - end: the span's end, in seconds.
    /// - Returns: the curve within `start…end`.
    public static func clipped(_ points: [Point], from start: Double, to end: Double) -> [Point] {
        guard !points.isEmpty else { return [] }
        return [Point(time: start, value: Polyline.value(of: points, at: start))]
            + points.filter { $0.time > start && $0.time < end }
            + [Point(time: end, value: Polyline.value(of: points, before: end))]
    }
}

extension HapticTrack {
    /// The region playing at `time`, if any (a region plays from its `start` up to, not
    /// including, its `end`).
    /// - Parameter time: the time, in seconds.
    /// - Returns: the region, or nil between regions.
    public func region(at time: Double) -> ContinuousRegion? {
        let after = regions.partitioningIndex { $0.start > time }
        guard after > 0, time < regions[after - 1].end else { return nil }
        return regions[after - 1]
    }

    /// Whether nothing is felt: no transient and no point of any region's intensity above 0.
    public var playsNothing: Bool {
        !transients.contains { $0.intensity > 0 } && !regions.contains { $0.intensity.contains { $0.value > 0 } }
    }

    /// The continuous intensity played at `time`: the curve of the region playing then, 0
    /// outside every region.
    /// - Parameter time: the time, in seconds.
    /// - Returns: the intensity, 0…1.
    public func continuousIntensity(at time: Double) -> Double {
        region(at: time).map { Polyline.value(of: $0.intensity, at: time) } ?? 0
    }
}

extension HapticTrack {
    /// Checks that every time and value is finite and of magnitude under `limit` (seconds for
    /// times): what formats that lay the track on a grid of milliseconds or samples require.
    /// - Throws: `FormatWriteError` when one is not.
    /// - Parameter limit: the largest time allowed, in seconds.
    public func checkFinite(below limit: Double) throws {
        let numbers = [duration] + transients.flatMap { [$0.time, $0.intensity, $0.sharpness] }
            + regions.flatMap { [$0.start, $0.end] + ($0.intensity + $0.sharpness).flatMap { [$0.time, $0.value] } }
        guard numbers.allSatisfy({ $0.isFinite && abs($0) < limit }) else {
            throw FormatWriteError("non-finite or out-of-range number in the track")
        }
    }
}
