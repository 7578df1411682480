import TactusCore

/// The continuous intensity and sharpness a track plays at any instant, clamped to 0…1: the one
/// place the Android forms read the track's continuous curves through.
struct ContinuousCurves {
    let track: HapticTrack

    /// The continuous intensity felt at `t`, 0 outside every region.
    func continuous(at t: Double) -> Double { clampUnit(track.continuousIntensity(at: t)) }

    /// The continuous sharpness at `t`; `fallback` outside every region.
    func sharpness(at t: Double, fallback: Double) -> Double {
        guard let region = track.region(at: t), !region.sharpness.isEmpty else { return fallback }
        return clampUnit(Polyline.value(of: region.sharpness, at: t))
    }
}

/// `VibrationEffect.createWaveform(timings, amplitudes, -1)` data: a per-millisecond amplitude
/// (255 × intensity², the √ law Meta's SDK uses between amplitude and felt intensity), the
/// continuous part held on a `stepMs` grid, each transient a pulse of `transientMs` at its
/// intensity, then run-length encoded.
struct AndroidWaveform: Equatable {
    var timings: [Int] = []
    var amplitudes: [Int] = []

    /// Amplitude (0–255) for a felt intensity (0…1).
    static func amplitude(_ intensity: Double) -> Int { Int((255 * clampUnit(intensity) * clampUnit(intensity)).rounded()) }

    /// Per-millisecond amplitudes of `track` over `durationMs`.
    static func levels(_ track: HapticTrack, durationMs: Int, stepMs: Int, transientMs: Int) -> [UInt8] {
        let curves = ContinuousCurves(track: track)
        var levels = [UInt8](repeating: 0, count: durationMs)
        var cell = 0
        while cell * stepMs < durationMs {
            let start = cell * stepMs, end = min(durationMs, start + stepMs)
            let level = UInt8(amplitude(curves.continuous(at: (Double(start) + Double(end)) / 2000)))
            for ms in start..<end { levels[ms] = level }
            cell += 1
        }
        for transient in track.transients {
            let level = UInt8(amplitude(transient.intensity))
            let start = max(0, Int((transient.time * 1000).rounded()))
            guard start < durationMs else { continue }
            for ms in start..<min(durationMs, start + transientMs) { levels[ms] = max(levels[ms], level) }
        }
        return levels
    }

    init(levels: [UInt8]) {
        for level in levels {
            if let last = amplitudes.last, last == Int(level) {
                timings[timings.count - 1] += 1
            } else {
                timings.append(1)
                amplitudes.append(Int(level))
            }
        }
        if timings.isEmpty { (timings, amplitudes) = ([0], [0]) }
    }
}

/// `VibrationEffect.createWaveform(timings, -1)` data for devices without amplitude control:
/// alternating off/on spans (starting with off), on where the amplitude reaches `threshold`.
struct AndroidOnOff: Equatable {
    var timings: [Int] = [0]

    init(levels: [UInt8], threshold: Int) {
        var on = false
        for level in levels {
            if (Int(level) >= threshold) != on {
                on.toggle()
                timings.append(0)
            }
            timings[timings.count - 1] += 1
        }
    }
}

/// A `VibrationEffect.Composition` of primitives at absolute start times.
struct AndroidComposition: Equatable {
    struct Primitive: Equatable {
        var name: String
        var scale: Double
        var startMs: Int
    }

    var primitives: [Primitive] = []
    /// True when the primitives express the whole pattern: no region is long and strong enough
    /// to be felt as a body.
    var complete = true

    /// Regions at least this long (s) and this intense make a body primitives cannot hold.
    static let bodySeconds = 0.15, bodyIntensity = 0.2
    /// Transients below this sharpness play as THUD / LOW_TICK, from it as CLICK / TICK;
    /// below `lightIntensity` as the light ones (TICK / LOW_TICK).
    static let dullBelow = 0.5, lightIntensity = 0.4

    init(_ track: HapticTrack, minGapMs: Int) {
        var events: [Primitive] = track.transients.map { t in
            let dull = t.sharpness < Self.dullBelow, light = t.intensity < Self.lightIntensity
            let name = dull ? (light ? "LOW_TICK" : "THUD") : (light ? "TICK" : "CLICK")
            return Primitive(name: name, scale: clampUnit(t.intensity), startMs: max(0, Int((t.time * 1000).rounded())))
        }
        for region in track.regions {
            let peak = region.intensity.max { $0.value < $1.value }
            guard let peak, region.end - region.start >= Self.bodySeconds, peak.value >= Self.bodyIntensity else { continue }
            complete = false
            // A swell that takes its time to peak opens with a slow rise.
            if peak.time - region.start >= Self.bodySeconds {
                events.append(Primitive(name: "SLOW_RISE", scale: clampUnit(peak.value),
                                        startMs: max(0, Int((region.start * 1000).rounded()))))
            }
        }
        events = events.enumerated().sorted { ($0.element.startMs, $0.offset) < ($1.element.startMs, $1.offset) }.map(\.element)
        for event in events where primitives.last.map({ event.startMs - $0.startMs >= minGapMs }) ?? true {
            primitives.append(event)
        }
    }
}

/// An Android 16 `BasicEnvelopeBuilder` envelope: control points reached over their durations,
/// starting from intensity 0 and ending at 0, each duration within `minMs…maxMs`.
struct AndroidEnvelope: Equatable {
    struct ControlPoint: Equatable {
        var intensity: Double
        var sharpness: Double
        var durationMs: Int
    }

    var initialSharpness: Double
    var controlPoints: [ControlPoint]

    /// A target of the envelope at an absolute time (ms).
    private struct Knot {
        var ms: Int
        var intensity: Double
        var sharpness: Double
        /// Kept even when closer than `minMs` to the previous knot (moved later instead).
        var essential: Bool
    }

    init(_ track: HapticTrack, minMs: Int, maxMs: Int) {
        let curves = ContinuousCurves(track: track)
        func ms(_ t: Double) -> Int { max(0, Int((t * 1000).rounded())) }
        var knots: [Knot] = []
        for region in track.regions {
            // Off until the region starts (the builder would otherwise ramp up over the silence).
            knots.append(Knot(ms: ms(region.start), intensity: 0,
                              sharpness: curves.sharpness(at: region.start, fallback: 0.5), essential: false))
            let times = Set((region.intensity + region.sharpness).map(\.time) + [region.start, region.end])
                .filter { $0 >= region.start && $0 <= region.end }.sorted()
            for t in times {
                let at = t < region.end ? t : region.end.nextDown
                knots.append(Knot(ms: ms(t), intensity: curves.continuous(at: at),
                                  sharpness: curves.sharpness(at: at, fallback: 0.5), essential: false))
            }
            knots.append(Knot(ms: ms(region.end) + minMs, intensity: 0,
                              sharpness: curves.sharpness(at: region.end.nextDown, fallback: 0.5), essential: true))
        }
        // A transient: from the continuous level `minMs / 2` before it, to its peak, and back.
        for transient in track.transients {
            let at = ms(transient.time), half = minMs / 2
            let around = { (t: Int) in curves.continuous(at: Double(t) / 1000) }
            let sharp = clampUnit(transient.sharpness)
            knots.append(Knot(ms: max(0, at - half), intensity: around(at - half), sharpness: sharp, essential: false))
            knots.append(Knot(ms: at + half, intensity: max(clampUnit(transient.intensity), around(at + half)),
                              sharpness: sharp, essential: true))
            knots.append(Knot(ms: at + half + minMs, intensity: around(at + half + minMs),
                              sharpness: curves.sharpness(at: Double(at + half + minMs) / 1000, fallback: sharp),
                              essential: false))
        }
        // By time; at one time the essential knot last, then in the order made above.
        knots = knots.enumerated()
            .sorted { ($0.element.ms, $0.element.essential ? 1 : 0, $0.offset) < ($1.element.ms, $1.element.essential ? 1 : 0, $1.offset) }
            .map(\.element)

        // Durations: every point at least `minMs` after the previous; points too close are
        // dropped unless essential (a transient's peak, a region's return to 0), which move later.
        var points: [ControlPoint] = []
        var last = 0
        for knot in knots {
            let gap = knot.ms - last
            if gap < minMs && !knot.essential { continue }
            let duration = max(gap, minMs)
            points.append(ControlPoint(intensity: knot.intensity, sharpness: knot.sharpness, durationMs: duration))
            last += duration
        }
        if points.last.map({ $0.intensity > 0 }) ?? true {
            points.append(ControlPoint(intensity: 0, sharpness: points.last?.sharpness ?? 0.5, durationMs: minMs))
        }
        // Spans longer than `maxMs` become several points on the same line.
        var split: [ControlPoint] = []
        var previous = (intensity: 0.0, sharpness: points.first?.sharpness ?? 0.5)
        for point in points {
            let parts = (point.durationMs + maxMs - 1) / maxMs
            for part in 1...parts {
                let fraction = Double(part) / Double(parts)
                let duration = point.durationMs * part / parts - point.durationMs * (part - 1) / parts
                split.append(ControlPoint(
                    intensity: previous.intensity + (point.intensity - previous.intensity) * fraction,
                    sharpness: previous.sharpness + (point.sharpness - previous.sharpness) * fraction,
                    durationMs: duration))
            }
            previous = (point.intensity, point.sharpness)
        }
        initialSharpness = split.first?.sharpness ?? 0.5
        controlPoints = split
    }
}
