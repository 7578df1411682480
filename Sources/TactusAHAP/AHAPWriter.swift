import TactusCore
import TactusPlatform

/// Turns a `HapticTrack` into an AHAP document whose transients play exactly as designed.
///
/// Layout (each rule exists because Core Haptics would otherwise play something else):
/// - Optional `AudioCustom` event at 0 s carrying the paired audio and its `AudioVolume`.
///   `EventWaveformUseVolumeEnvelope` defaults to false here: Core Haptics' default fade
///   would soften the very attack the haptics are matched to.
/// - Each continuous region becomes abutting `HapticContinuous` events: one run per
///   segment, each run of equal parts ≤ 30 s, with `HapticIntensity` = the segment's peak
///   intensity and `HapticSharpness` = the region's median sharpness; nothing continuous is
///   written outside regions, so silence never buzzes. A region is one segment, split at
///   each transient inside it that the control below would have to lift (see below): a
///   segment's peak is at most the region's, so its control is higher, and a transient on
///   an attack or on a decay finds the control at or near 1 and needs no lift. A transient
///   that still needs one (the body rises after it, or it starts the region) also splits the
///   region just after its lift ends, so the lifted body rises at most to the body's peak
///   over the lift × the transient's intensity, not to the region's.
/// - The region's intensity ÷ its segment's peak becomes a `HapticIntensityControl` curve
///   (stepping at a split, as a ramp of one 10 µs grid step, over which the segment of the
///   lower peak plays, so the body dips there for 10 µs but never rises) and its sharpness a
///   `HapticSharpnessControl` curve of (sharpness − median). Curves hold ≤ 16 points,
///   consecutive curves repeat their joint point, and point times are relative to the
///   curve's own `Time`.
/// - Controls act on transients too: `HapticIntensityControl` multiplies a transient's
///   intensity (a naive writer scales its transients by the envelope), and Apple's
///   documentation is ambiguous about whether `HapticSharpnessControl` shifts them. So, with
///   the curves rounded exactly as they will be written:
///   - inside a region, the intensity control is left as the body needs it wherever it is at
///     least the transient's intensity, and otherwise lifted to exactly that intensity (ramps
///     of `rampDuration`); the transient's `HapticIntensity` is its intensity ÷ the control
///     as evaluated (≤ 1), so it plays at its own intensity while the body under it plays
///     as the track says, or rises only as far as the transient itself;
///   - the sharpness control is notched to neutral (0) at every transient where it lies more
///     than `sharpnessSlack` from it; elsewhere it is left as the body needs it and the
///     transient's `HapticSharpness` absorbs half of it, so each transient plays within
///     `sharpnessSlack` / 2 of its own sharpness under either reading;
///   - after the last region, and after each region that a transient follows before the next
///     region starts, both controls ramp back to neutral within `rampDuration` of its end (and
///     a transient there pins them to neutral), so later transients are not scaled by a
///     persisting last value and the pattern ends neutral. Between regions with no event in
///     between, the next region's curves take over at its start instead.
///
/// Output is sorted by time (at equal times: audio, curves, continuous events, transients).
public struct AHAPWriter: Sendable {
    /// What the writer adds around the track: paired audio, metadata, ramp length.
    public struct Options: Equatable, Sendable {
        /// The audio event: the paired audio's name relative to the AHAP file, its `AudioVolume`
        /// (0…1) and `EventWaveformUseVolumeEnvelope`; nil writes a haptics-only pattern.
        public var pairedAudio: PairedAudio?
        /// `Metadata` entries, in order (Project, Created, Description, Source, Preset, ToolVersion…).
        public var metadata: [MetadataEntry]
        /// Length in seconds (0.001…1) of the ramps around a transient's lift or notch and
        /// of the return to neutral after a region. Short enough to leave the continuous
        /// feel alone, long enough not to be a discontinuity.
        public var rampDuration: Double
        /// `rampDuration` unless set (also `AHAPFormat`'s `rampMs` default).
        public static let defaultRampDuration = 0.005
        /// How far (in sharpness, 0…1) the sharpness control may lie from neutral at a
        /// transient without notching it there: the transient then plays within half of it of
        /// its own sharpness under either reading of the control. Below the 0.01 by which
        /// `AHAPValidator` lets the two readings differ (`transientTolerance`), less room for
        /// rounding; a vibrotactile frequency difference needs some 15–30 % to be felt.
        public static let sharpnessSlack = 0.008

        /// - Parameters:
        ///   - pairedAudio: the audio event's file, volume and volume envelope, or nil.
        ///   - metadata: `Metadata` entries, in order.
        ///   - rampDuration: the ramps' length in seconds, 0.001…1.
        public init(pairedAudio: PairedAudio? = nil, metadata: [MetadataEntry] = [],
                    rampDuration: Double = defaultRampDuration) {
            self.pairedAudio = pairedAudio
            self.metadata = metadata
            self.rampDuration = rampDuration
        }
    }

    /// Input the writer refuses rather than silently repairs.
    public enum WriteError: Error, Equatable, Sendable, CustomStringConvertible {
        /// A NaN, infinite or absurdly large (> `maxTime`) number, with where it is.
        case invalidNumber(String)
        /// The regions at these indices of `HapticTrack.regions` overlap; `HapticTrack` forbids it.
        case overlappingRegions(Int, Int)
        /// An option outside its range.
        case invalidOption(String)

        /// The error as one line's reason.
        public var description: String {
            switch self {
            case .invalidNumber(let location): return "a number that is not finite, or a time past \(JSONText.shortest(AHAPWriter.maxTime)) s, at \(location)"
            case .overlappingRegions(let a, let b): return "regions \(a) and \(b) overlap"
            case .invalidOption(let name): return "invalid option \(name)"
            }
        }
    }

    /// Latest time accepted, in seconds (about three years; keeps time arithmetic exact).
    public static let maxTime = 1e8

    /// Paired audio, metadata and ramp length.
    public var options: Options

    /// - Parameter options: paired audio, metadata and ramp length.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// The encoded file (see `AHAPEncoder`).
    /// - Parameter track: the track to write (values 0…1, times in seconds).
    /// - Returns: the AHAP's UTF-8 bytes.
    /// - Throws: a `WriteError` for a non-finite number or a time past `maxTime`,
    ///   overlapping regions, or an option out of range.
    public func data(for track: HapticTrack) throws -> Data {
        AHAPEncoder().encode(try document(for: track))
    }

    /// The track laid out as an AHAP document (rounded as the encoder writes it).
    /// - Parameter track: the track to write (values 0…1, times in seconds).
    /// - Returns: the document, elements sorted by time.
    /// - Throws: a `WriteError` for a non-finite number or a time past `maxTime`,
    ///   overlapping regions, or an option out of range.
    public func document(for track: HapticTrack) throws -> AHAPDocument {
        try check(track)
        // Sorted by time; transients at one time keep the track's order.
        let transients = track.transients.enumerated()
            .map { (PlannedTransient(time: roundedTime($1.time), intensity: roundedValue($1.intensity),
                                     sharpness: roundedValue($1.sharpness)), $0) }
            .sorted { ($0.0.time, $0.1) < ($1.0.time, $1.1) }
            .map(\.0)
        let regions = track.regions.sorted { $0.start < $1.start }.compactMap { PlannedRegion($0, transients: transients, liftRadius: options.rampDuration) }

        var elements: [(rank: Int, element: AHAPElement)] = []
        if let audio = options.pairedAudio {
            let volume = AHAPEvent.Parameter(id: AHAPParameterID.audioVolume, value: roundedValue(audio.volume))
            elements.append((0, .event(AHAPEvent(time: 0, type: .audioCustom, waveformPath: audio.fileName,
                                                 useVolumeEnvelope: audio.useVolumeEnvelope, parameters: [volume]))))
        }
        elements += regions.flatMap { $0.continuousEvents() }.map { (2, .event($0)) }
        // Intensity control: lifted at a transient inside a region only as far as the
        // transient needs (to its own intensity, when the control is below it); the transient's
        // event then absorbs the rest. After a region's end it is pinned to neutral.
        let intensityCurves = controlCurves(AHAPParameterID.hapticIntensityControl, neutral: 1, regions: regions,
                                            knots: \.intensity, transients: transients) { max($0, $1.intensity) }
        // Sharpness control: notched to neutral at each transient it would shift by more than
        // the slack.
        let sharpnessCurves = controlCurves(AHAPParameterID.hapticSharpnessControl, neutral: 0, regions: regions,
                                            knots: \.sharpnessOffset, transients: transients,
                                            slack: Options.sharpnessSlack) { _, _ in 0 }
        let curves = intensityCurves + sharpnessCurves
        elements += curves.map { (1, .curve($0)) }

        // Compensate each transient for the controls exactly as they will play: its event
        // intensity is its wanted intensity ÷ the intensity control (≤ 1 by the lift above),
        // its event sharpness its own less half the sharpness control (0 where notched).
        let controls = PatternEvaluator(AHAPDocument(pattern: curves.map { .curve($0) }))
        for transient in transients {
            let control = controls.controlValue(AHAPParameterID.hapticIntensityControl, at: transient.time)
            let intensity = control > 0 ? roundedValue(min(1, transient.intensity / control)) : 0
            let offset = controls.controlValue(AHAPParameterID.hapticSharpnessControl, at: transient.time)
            let parameters = [AHAPEvent.Parameter(id: AHAPParameterID.hapticIntensity, value: intensity),
                              AHAPEvent.Parameter(id: AHAPParameterID.hapticSharpness,
                                                  value: roundedValue(transient.sharpness - offset / 2))]
            elements.append((3, .event(AHAPEvent(time: transient.time, type: .hapticTransient, parameters: parameters))))
        }

        // Stable sort keeps creation order among equal (time, rank).
        let ordered = elements.enumerated().sorted {
            ($0.element.element.time, $0.element.rank, $0.offset) < ($1.element.element.time, $1.element.rank, $1.offset)
        }
        return AHAPDocument(metadata: options.metadata, pattern: ordered.map(\.element.element))
    }

    // MARK: - Input checks

    private func check(_ track: HapticTrack) throws {
        guard options.pairedAudio?.volume.isFinite ?? true else { throw WriteError.invalidOption("audioVolume") }
        guard (0.001...1).contains(options.rampDuration) else {
            throw WriteError.invalidOption("rampDuration (must be 0.001…1 s)")
        }
        func require(_ values: [Double], times: [Double], _ location: @autoclosure () -> String) throws {
            guard values.allSatisfy(\.isFinite), times.allSatisfy({ $0.isFinite && abs($0) <= Self.maxTime }) else {
                throw WriteError.invalidNumber(location())
            }
        }
        for (i, transient) in track.transients.enumerated() {
            try require([transient.intensity, transient.sharpness], times: [transient.time], "transients[\(i)]")
        }
        for (i, region) in track.regions.enumerated() {
            try require(region.intensity.map(\.value) + region.sharpness.map(\.value),
                        times: [region.start, region.end] + region.intensity.map(\.time) + region.sharpness.map(\.time),
                        "regions[\(i)]")
        }
        let starts = track.regions.indices.sorted { track.regions[$0].start < track.regions[$1].start }
        for (a, b) in zip(starts, starts.dropFirst()) where track.regions[b].start < track.regions[a].end {
            throw WriteError.overlappingRegions(a, b)
        }
    }

    // MARK: - Control curves

    /// The curves of one control over all regions.
    ///
    /// Each region's knots run from its start to its end, then back to neutral within
    /// `rampDuration`, or by the next region's start if that comes sooner. When the next
    /// region starts right at the end, there is no room for a ramp: that region then writes
    /// a curve even if it is neutral throughout, so that it takes over from its start.
    /// Each transient from a region's start to its end pins the control to
    /// `target(current, transient)`; each from its end to the next region's start (the rest of
    /// the span where that region's curves are in force) pins it to `neutral`.
    private func controlCurves(_ id: String, neutral: Double, regions: [PlannedRegion],
                               knots: KeyPath<PlannedRegion, [Polyline.Knot]>, transients: [PlannedTransient],
                               slack: Double = 0, target: (Double, PlannedTransient) -> Double) -> [AHAPParameterCurve] {
        var curves: [AHAPParameterCurve] = []
        var mustTakeOver = false
        for (index, region) in regions.enumerated() {
            var shape = region[keyPath: knots]
            guard mustTakeOver || shape.contains(where: { $0.value != neutral }) else { continue }
            let nextStart = index + 1 < regions.count ? regions[index + 1].start : Double.infinity
            let resetTime = roundedTime(min(region.end + options.rampDuration, nextStart))
            let inForce = transients.filter { $0.time >= region.start && $0.time < nextStart }
            // With no next region, or a transient before it, the control returns to neutral;
            // otherwise nothing plays until the next region's curve takes over.
            let returns = nextStart == .infinity || inForce.contains { $0.time >= region.end }
            if returns, let last = shape.last, last.value != neutral, resetTime > region.end {
                shape.append(Polyline.Knot(time: resetTime, value: neutral))
            }
            let control = Polyline(shape)
            let pins = inForce.map { ($0.time, $0.time < region.end ? target(control.value(at: $0.time), $0) : neutral) }
            let pinned = control.pinned(pins, radius: options.rampDuration, slack: slack)
            curves += Self.curves(id, pinned)
            mustTakeOver = pinned.knots.last.map { $0.value != neutral } ?? false
        }
        return curves
    }

    /// `ParameterCurve`s of ≤ 16 points for a control shape: consecutive curves share their
    /// joint point so the value never steps, and point times count from each curve's `Time`.
    private static func curves(_ id: String, _ shape: Polyline) -> [AHAPParameterCurve] {
        let knots = shape.knots
        guard !knots.isEmpty else { return [] }
        var curves: [AHAPParameterCurve] = []
        var first = 0
        repeat {
            let chunk = knots[first..<min(first + AHAPLimits.maxControlPoints, knots.count)]
            let start = chunk.first!.time
            curves.append(AHAPParameterCurve(parameterID: id, time: start, controlPoints: chunk.map {
                .init(time: AHAPEncoder.roundedTime($0.time - start), value: $0.value)
            }))
            first = chunk.endIndex - 1
        } while first < knots.count - 1
        return curves
    }
}

private func roundedTime(_ t: Double) -> Double { AHAPEncoder.roundedTime(max(0, t)) }
private func roundedValue(_ v: Double) -> Double { AHAPEncoder.roundedValue(clampUnit(v)) }

/// A transient on the written grid: time and values rounded as they will be read back.
private struct PlannedTransient {
    var time: Double
    var intensity: Double
    var sharpness: Double
}

/// A region on the written grid, its curves clipped to it; its intensity split into a base
/// per segment (the body's maximum over the segment, carried by the segment's events) and
/// a ratio (carried by the control), its sharpness into a base (the median, carried by the
/// events) and an offset (carried by the control). The region is one segment unless a
/// transient in it would need the control lifted; it is then split at such transients (and
/// after their lifts), so the body around them plays as the track says or close to it.
private struct PlannedRegion {
    var start: Double
    var end: Double
    /// The spans its continuous events cover, each with its base intensity.
    var segments: [Segment]
    var baseSharpness: Double
    var intensity: [Polyline.Knot]
    var sharpnessOffset: [Polyline.Knot]

    /// Nil for a region that is empty once rounded, or has no intensity to feel.
    /// - Parameters:
    ///   - region: the track's region.
    ///   - transients: the track's transients on the written grid, sorted by time.
    ///   - liftRadius: how far, in seconds, a lift reaches either side of its transient.
    init?(_ region: HapticTrack.ContinuousRegion, transients: [PlannedTransient], liftRadius: Double) {
        start = roundedTime(region.start)
        end = roundedTime(region.end)
        guard end > start, !region.intensity.isEmpty else { return nil }
        baseSharpness = median(ofSorted: region.sharpness.map { clampUnit($0.value) }.sorted()).map(roundedValue)
            ?? PatternEvaluator.assumedSharpness
        let body = Polyline(region.intensity.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map { Polyline.Knot(time: $0.element.time, value: clampUnit($0.element.value)) })
        guard roundedValue(body.knots.map(\.value).max() ?? 0) > 0 else { return nil }
        // Split at each transient that would need a lift, and where it still needs one (the body
        // rises after it), also where its lift ends: that segment's peak is the body's over the
        // lift. Until no split helps (each split only lowers the bases, so it never adds a need).
        let (start, end) = (start, end)
        let inside = transients.filter { $0.time >= start && $0.time < end }
        var splits: [Double] = []
        var spans = Self.segments(of: body, from: start, to: end, splitAt: splits)
        while true {
            let added = inside.filter { transient in
                roundedValue(body.value(at: transient.time) / spans.last { $0.start <= transient.time }!.base) < transient.intensity
            }.map { transient in
                transient.time > start && !splits.contains(transient.time)
                    ? transient.time : roundedTime(transient.time + liftRadius + AHAPEncoder.timeResolution)
            }.filter { $0 < end && !splits.contains($0) }
            guard !added.isEmpty else { break }
            splits = Array(Set(splits + added)).sorted()
            spans = Self.segments(of: body, from: start, to: end, splitAt: splits)
        }
        segments = spans
        intensity = Self.clipped(Self.ratio(of: body, to: spans), start, end) { roundedValue($0) }
        let base = baseSharpness
        sharpnessOffset = region.sharpness.isEmpty ? [.init(time: start, value: 0), .init(time: end, value: 0)]
            : Self.clipped(region.sharpness, start, end) { AHAPEncoder.roundedValue(clampUnit($0) - base) }
    }

    /// The spans between `start`, each split time and `end`, each with the body's maximum
    /// over it (from its start up to, not including, its end) on the written grid.
    private static func segments(of body: Polyline, from start: Double, to end: Double,
                                 splitAt splits: [Double]) -> [Segment] {
        let bounds = [start] + splits + [end]
        return zip(bounds, bounds.dropFirst()).map { a, b in
            let inside = body.knots.filter { $0.time > a && $0.time < b }.map(\.value)
            let base = roundedValue(([body.value(at: a), body.value(before: b)] + inside).max()!)
            return Segment(start: a, end: b, base: base)
        }
    }

    /// The body ÷ its segment's base, as curve points; at a split, a step from the old
    /// segment's ratio to the new one's (a segment of base 0 plays nothing: ratio 0).
    private static func ratio(of body: Polyline, to segments: [Segment]) -> [HapticTrack.Point] {
        func divided(_ value: Double, _ segment: Segment) -> Double { segment.base > 0 ? value / segment.base : 0 }
        let splits = Set(segments.dropFirst().map(\.start))
        var points = body.knots.filter { !splits.contains($0.time) }.map { knot in
            HapticTrack.Point(time: knot.time, value: divided(knot.value, segments.last { $0.start <= knot.time } ?? segments[0]))
        }
        for (before, after) in zip(segments, segments.dropFirst()) {
            points.append(.init(time: after.start, value: divided(body.value(before: after.start), before)))
            points.append(.init(time: after.start, value: divided(body.value(at: after.start), after)))
        }
        return points
    }

    /// The curve's knots inside the region plus its values at both edges, on the written grid.
    /// A step (points at one time, or closer than a grid step) becomes a ramp of one grid
    /// step ending where the later value holds; at the end, the value the region ends with is
    /// the one played just before it (a region plays up to, not including, its end).
    private static func clipped(_ points: [HapticTrack.Point], _ start: Double, _ end: Double,
                                _ value: (Double) -> Double) -> [Polyline.Knot] {
        let curve = Polyline(points.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map { Polyline.Knot(time: $0.element.time, value: $0.element.value) })
        var knots = [Polyline.Knot(time: start, value: value(curve.value(at: start)))]
        let inside = curve.knots.filter { $0.time > start && $0.time < end }
        var first = 0
        while first < inside.count {
            // The knots that land on one grid time.
            let time = roundedTime(inside[first].time)
            var last = first
            while last + 1 < inside.count, roundedTime(inside[last + 1].time) == time { last += 1 }
            defer { first = last + 1 }
            guard time < end else { continue }
            let stepFrom = value(curve.value(before: inside[first].time)), stepTo = value(curve.value(at: inside[last].time))
            if time == knots[knots.count - 1].time {
                knots[knots.count - 1].value = stepTo  // a step within a grid step of the start
            } else if stepFrom == stepTo {
                knots.append(Polyline.Knot(time: time, value: value(curve.value(at: time))))
            } else {
                let beforeStep = roundedTime(time - AHAPEncoder.timeResolution)
                if beforeStep > knots[knots.count - 1].time { knots.append(Polyline.Knot(time: beforeStep, value: stepFrom)) }
                knots.append(Polyline.Knot(time: time, value: stepTo))
            }
        }
        knots.append(Polyline.Knot(time: end, value: value(curve.value(before: end))))
        return knots
    }

    /// `HapticContinuous` events covering the region: one run per segment, with the
    /// segment's base as `HapticIntensity`, each run split into equal parts of ≤ 30 s.
    /// Boundaries are computed on the integer 10 µs grid so all parts abut exactly. Over the
    /// grid step of the control's ramp before a split, the run of the lower base plays (the
    /// later run starts a step early when its base is lower), so the body there plays
    /// between the two ratios times the lower base: never above the track.
    func continuousEvents() -> [AHAPEvent] {
        let scale = 100_000.0
        let maxPart = Int64(AHAPLimits.maxContinuousDuration * scale)
        func laterStartsEarly(_ split: Int) -> Bool { split > 0 && segments[split].base < segments[split - 1].base }
        func gridTime(_ t: Double, early: Bool) -> Int64 { Int64((t * scale).rounded()) - (early ? 1 : 0) }
        return segments.enumerated().flatMap { index, segment -> [AHAPEvent] in
            let from = gridTime(segment.start, early: laterStartsEarly(index))
            let to = gridTime(segment.end, early: index + 1 < segments.count && laterStartsEarly(index + 1))
            guard to > from else { return [] }
            let parts = (to - from + maxPart - 1) / maxPart
            let bounds = (0...parts).map { from + (to - from) * $0 / parts }
            let parameters = [AHAPEvent.Parameter(id: AHAPParameterID.hapticIntensity, value: segment.base),
                              AHAPEvent.Parameter(id: AHAPParameterID.hapticSharpness, value: baseSharpness)]
            return zip(bounds, bounds.dropFirst()).map { a, b in
                AHAPEvent(time: Double(a) / scale, type: .hapticContinuous, duration: Double(b - a) / scale,
                          parameters: parameters)
            }
        }
    }

    /// A span of the region played by its own continuous events.
    struct Segment {
        /// Start and end, in seconds on the written grid.
        var start: Double
        var end: Double
        /// The body's maximum over the span: the events' `HapticIntensity`.
        var base: Double
    }
}

private extension Polyline {
    /// A copy that passes through every pin within `slack`, changed only near the pins that
    /// need it.
    ///
    /// Around each pin whose value differs from the curve by more than `slack`, the curve is
    /// replaced within `radius` (never before its first knot, which is its start) by straight
    /// ramps from the curve to the pin and back. Pins inside a replaced stretch are kept as knots so
    /// their values survive; nearby pins share one stretch. Pins at one time merge to the
    /// largest value. Times are on the written grid already; new knots are rounded onto it.
    func pinned(_ pins: [(time: Double, value: Double)], radius: Double, slack: Double) -> Polyline {
        guard let firstTime = knots.first?.time else { return self }
        let round = AHAPEncoder.roundedValue
        var merged: [(time: Double, value: Double)] = []
        for pin in pins.sorted(by: { $0.time < $1.time }) {
            if let last = merged.last, last.time == pin.time {
                merged[merged.count - 1].value = max(last.value, round(pin.value))
            } else {
                merged.append((pin.time, round(pin.value)))
            }
        }
        var windows: [ClosedRange<Double>] = []
        for pin in merged where abs(pin.value - round(value(at: pin.time))) > slack {
            let window = roundedTime(max(firstTime, pin.time - radius))...roundedTime(pin.time + radius)
            if let last = windows.last, window.lowerBound <= last.upperBound {
                windows[windows.count - 1] = last.lowerBound...window.upperBound
            } else {
                windows.append(window)
            }
        }
        guard !windows.isEmpty else { return self }
        var result = knots.filter { knot in !windows.contains { $0.contains(knot.time) } }
        for window in windows {
            let inside = merged.filter { window.contains($0.time) }
            for edge in [window.lowerBound, window.upperBound] where !inside.contains(where: { $0.time == edge }) {
                result.append(Knot(time: edge, value: round(value(at: edge))))
            }
            result += inside.map { Knot(time: $0.time, value: $0.value) }
        }
        // Sort by time, keeping the order of equal-time knots (a step stays a step).
        let ordered = result.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
        return Polyline(ordered.map(\.element))
    }
}
