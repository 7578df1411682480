import TactusCore

/// Computes what Core Haptics plays for an AHAP pattern, moment by moment.
///
/// It is the reference the writer is tested against and the basis of the validator's
/// warnings and of later metrics, plots and sonification. Semantics, following
/// `CHHapticParameter.h` and Apple's "Representing Haptic Patterns in AHAP Files":
///
/// - A dynamic parameter is neutral until something sets it (intensity control 1,
///   sharpness control 0; see `AHAPParameterID.dynamic`).
/// - A `Parameter` sets its value at its `Time` (a step). A `ParameterCurve` starts at its
///   `Time`; control-point times count from there, values are interpolated linearly
///   between points, the first value holds until the first point and the last value
///   persists after the curve ends.
/// - For each parameter ID the source (curve or `Parameter`) that started most recently
///   wins, from its start on; at equal start times the later one in `Pattern` wins.
/// - Control values are clamped to their documented range, as Core Haptics clamps them.
/// - `HapticIntensityControl` multiplies the intensity of every haptic event, transients
///   included; `HapticSharpnessControl` is added to sharpness. Whether that addition also
///   reaches transients is documented two ways (Apple's AHAP article: continuous haptics;
///   the framework header: all active and future haptic events), so transients expose
///   their sharpness under both readings.
/// - A `HapticContinuous` event plays `clamp(EventIntensity × control)` and
///   `clamp(EventSharpness + control)` on `[Time, Time + EventDuration)`; where continuous
///   events overlap, the strongest (and the sharpest) wins.
/// - A haptic event without `HapticIntensity`/`HapticSharpness` is assumed to play at
///   `assumedIntensity`/`assumedSharpness`. Apple does not document these defaults; the
///   validator warns about such events so our files never depend on them.
public struct PatternEvaluator: Sendable {
    /// The two documented readings of what `HapticSharpnessControl` acts on.
    public enum SharpnessReading: CaseIterable, Sendable {
        /// Apple's AHAP article: the control affects continuous haptics only.
        case continuousOnly
        /// The framework header: the control affects all active and future haptic events.
        case allHapticEvents
    }

    /// A `HapticTransient` as designed in the file and as it plays.
    public struct Transient: Equatable, Sendable {
        /// Index of the event in `Pattern`.
        public var patternIndex: Int
        /// `Time`, in seconds.
        public var time: Double
        /// `EventIntensity` as written, clamped to 0…1.
        public var eventIntensity: Double
        /// `EventSharpness` as written, clamped to 0…1.
        public var eventSharpness: Double
        /// `HapticIntensityControl` at the transient's instant.
        public var intensityControl: Double
        /// `HapticSharpnessControl` at the transient's instant.
        public var sharpnessControl: Double

        /// The intensity felt: event intensity × intensity control.
        public var effectiveIntensity: Double { clampUnit(eventIntensity * intensityControl) }

        /// The sharpness felt under one reading of the sharpness control.
        /// - Parameter reading: what the sharpness control is taken to act on.
        /// - Returns: the sharpness felt, 0…1.
        public func effectiveSharpness(_ reading: SharpnessReading) -> Double {
            switch reading {
            case .continuousOnly: return eventSharpness
            case .allHapticEvents: return clampUnit(eventSharpness + sharpnessControl)
            }
        }
    }

    /// The state of the pattern at one instant of a regular grid.
    public struct Sample: Equatable, Sendable {
        /// The grid time, in seconds.
        public var time: Double
        /// Continuous haptic intensity felt, 0 when no continuous event plays.
        public var continuousIntensity: Double
        /// Continuous haptic sharpness felt, nil when no continuous event plays.
        public var continuousSharpness: Double?
        /// `HapticIntensityControl` at this instant (1 when unset).
        public var intensityControl: Double
        /// `HapticSharpnessControl` at this instant (0 when unset).
        public var sharpnessControl: Double
    }

    /// One source of a dynamic parameter's value: a curve or a `Parameter` element.
    struct ControlSource: Sendable {
        var patternIndex: Int
        var start: Double
        var shape: Polyline
        /// When the source reaches its last value (its own time for a `Parameter`).
        var end: Double { shape.knots.last?.time ?? start }
        var finalValue: Double { shape.knots.last?.value ?? 0 }
    }

    private struct Continuous: Sendable {
        var start: Double
        var end: Double
        var intensity: Double
        var sharpness: Double
    }

    /// `HapticIntensity` of a haptic event that does not set it.
    public static let assumedIntensity = 1.0
    /// `HapticSharpness` of a haptic event that does not set it.
    public static let assumedSharpness = 0.5

    /// Sources per dynamic parameter ID, sorted by start (ties in pattern order).
    let sources: [String: [ControlSource]]
    /// HapticContinuous events sorted by start, with the running maximum of their ends.
    private let continuous: [Continuous]
    private let maxEndSoFar: [Double]
    /// Every `HapticTransient`, in time order.
    public private(set) var transients: [Transient] = []
    /// When the last haptic event ends (0 for a pattern without haptics).
    public let hapticEndTime: Double

    /// - Parameter document: any decoded AHAP; out-of-range values are clamped as Core Haptics clamps them.
    public init(_ document: AHAPDocument) {
        var sources: [String: [ControlSource]] = [:]
        var continuous: [Continuous] = []
        var transientEvents: [(index: Int, event: AHAPEvent)] = []
        var end = 0.0
        for (index, element) in document.pattern.enumerated() {
            switch element {
            case .parameter(let parameter):
                let knot = Polyline.Knot(time: parameter.time, value: parameter.value)
                sources[parameter.parameterID, default: []].append(
                    ControlSource(patternIndex: index, start: parameter.time, shape: Polyline([knot])))
            case .curve(let curve) where !curve.controlPoints.isEmpty:
                let knots = curve.controlPoints.map { Polyline.Knot(time: curve.time + $0.time, value: $0.value) }
                sources[curve.parameterID, default: []].append(
                    ControlSource(patternIndex: index, start: curve.time, shape: Polyline(knots)))
            case .event(let event) where event.type == .hapticContinuous:
                guard let duration = event.duration, duration > 0 else { break }
                continuous.append(Continuous(start: event.time, end: event.time + duration,
                                             intensity: Self.intensity(of: event), sharpness: Self.sharpness(of: event)))
                end = max(end, event.time + duration)
            case .event(let event) where event.type == .hapticTransient:
                transientEvents.append((index, event))
                end = max(end, event.time)
            default:
                break
            }
        }
        self.sources = sources.mapValues { list in
            list.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        }
        continuous.sort { $0.start < $1.start }
        self.continuous = continuous
        var runningEnd = -Double.infinity
        maxEndSoFar = continuous.map { runningEnd = max(runningEnd, $0.end); return runningEnd }
        hapticEndTime = end
        transients = transientEvents
            .sorted { ($0.event.time, $0.index) < ($1.event.time, $1.index) }
            .map { index, event in
                Transient(patternIndex: index, time: event.time,
                          eventIntensity: Self.intensity(of: event), eventSharpness: Self.sharpness(of: event),
                          intensityControl: controlValue(AHAPParameterID.hapticIntensityControl, at: event.time),
                          sharpnessControl: controlValue(AHAPParameterID.hapticSharpnessControl, at: event.time))
            }
    }

    private static func intensity(of event: AHAPEvent) -> Double {
        clampUnit(event.parameter(AHAPParameterID.hapticIntensity) ?? assumedIntensity)
    }

    private static func sharpness(of event: AHAPEvent) -> Double {
        clampUnit(event.parameter(AHAPParameterID.hapticSharpness) ?? assumedSharpness)
    }

    /// The source of `id` in force at `t`, if any.
    private func source(_ id: String, at t: Double) -> ControlSource? {
        guard let list = sources[id] else { return nil }
        let after = list.partitioningIndex { $0.start > t }
        return after == 0 ? nil : list[after - 1]
    }

    /// The value of dynamic parameter `id` at `t`, clamped to its range.
    /// - Parameters:
    ///   - id: a dynamic parameter ID (`AHAPParameterID`).
    ///   - t: the time, in seconds.
    /// - Returns: the value at `t`: the latest started curve or `Parameter`, its last value held, or
    ///   the neutral value before any.
    public func controlValue(_ id: String, at t: Double) -> Double {
        guard let source = source(id, at: t) else { return AHAPParameterID.neutralValue(of: id) }
        let value = source.shape.value(at: t)
        guard let range = AHAPParameterID.dynamic[id]?.range else { return value }
        return min(max(value, range.lowerBound), range.upperBound)
    }

    /// The continuous events playing at `t`.
    private func activeContinuous(at t: Double) -> [Continuous] {
        var active: [Continuous] = []
        var index = continuous.partitioningIndex { $0.start > t } - 1
        while index >= 0, maxEndSoFar[index] > t {
            if continuous[index].end > t { active.append(continuous[index]) }
            index -= 1
        }
        return active
    }

    /// The spans where at least one `HapticContinuous` event plays, merged where they
    /// overlap or touch, in time order.
    public var continuousSpans: [ClosedRange<Double>] { HapticPlayback.merged(continuous.map { $0.start...$0.end }) }

    /// Every instant at which what the continuous events play may bend or step: their
    /// starts and ends and the knots of every haptic control source, sorted, without
    /// repeats. Between two consecutive instants the felt continuous intensity and sharpness
    /// are linear, so sampling at these instants (and just before each) captures them exactly.
    public var continuousBreakpoints: [Double] {
        var times = continuous.flatMap { [$0.start, $0.end] }
        for id in [AHAPParameterID.hapticIntensityControl, AHAPParameterID.hapticSharpnessControl] {
            for source in sources[id] ?? [] {
                times.append(source.start)
                times += source.shape.knots.map(\.time)
            }
        }
        return Array(Set(times.filter(\.isFinite))).sorted()
    }

    /// Whether a `HapticContinuous` event plays at `t`.
    /// - Parameter t: the time, in seconds.
    /// - Returns: true inside any `HapticContinuous` event.
    public func continuousPlays(at t: Double) -> Bool {
        !activeContinuous(at: t).isEmpty
    }

    /// Continuous haptic intensity felt at `t` (0 when no continuous event plays).
    /// - Parameter t: the time, in seconds.
    /// - Returns: the strongest playing event's intensity × the intensity control, 0…1.
    public func continuousIntensity(at t: Double) -> Double {
        let active = activeContinuous(at: t)
        guard let strongest = active.map(\.intensity).max() else { return 0 }
        return clampUnit(strongest * controlValue(AHAPParameterID.hapticIntensityControl, at: t))
    }

    /// Continuous haptic sharpness felt at `t` (nil when no continuous event plays).
    /// - Parameter t: the time, in seconds.
    /// - Returns: the sharpness felt, 0…1, or nil.
    public func continuousSharpness(at t: Double) -> Double? {
        let active = activeContinuous(at: t)
        guard let sharpest = active.map(\.sharpness).max() else { return nil }
        return clampUnit(sharpest + controlValue(AHAPParameterID.hapticSharpnessControl, at: t))
    }

    /// The pattern on a regular grid `start, start + step, …` up to `end` (default: the
    /// end of the last haptic event). Times are computed as `start + i × step`, not
    /// accumulated, so grids are reproducible. Empty for a non-positive or non-finite step;
    /// a grid of more than 100 million samples is a caller error and traps.
    /// - Parameters:
    ///   - step: seconds between samples, above 0.
    ///   - start: the first time, in seconds.
    ///   - end: the last time, in seconds; nil for `hapticEndTime`.
    /// - Returns: the state at each grid time.
    public func samples(step: Double, from start: Double = 0, through end: Double? = nil) -> [Sample] {
        let last = end ?? hapticEndTime
        guard step > 0, step.isFinite, start.isFinite, last.isFinite, last >= start else { return [] }
        let intervals = ((last - start) / step + 1e-9).rounded(.down)
        precondition(intervals < 1e8, "sampling grid too fine: \(intervals) samples")
        let count = Int(intervals) + 1
        return (0..<count).map { i in
            let t = start + Double(i) * step
            return Sample(time: t, continuousIntensity: continuousIntensity(at: t),
                          continuousSharpness: continuousSharpness(at: t),
                          intensityControl: controlValue(AHAPParameterID.hapticIntensityControl, at: t),
                          sharpnessControl: controlValue(AHAPParameterID.hapticSharpnessControl, at: t))
        }
    }
}

