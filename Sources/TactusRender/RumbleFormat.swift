import TactusCore
import TactusPlatform

/// Gamepad rumble as a JSON timeline (`<stem>.rumble.json`, specified in
/// `Integrations/Rumble/FORMAT.md`): the speeds 0…1 of the low-frequency (heavy) and
/// high-frequency (light) motors at a fixed step, as `SDL_GameControllerRumble`, XInput's
/// `XINPUT_VIBRATION` and Steam Input take them, optionally the trigger motors
/// (`SDL_GameControllerRumbleTriggers`, Windows.Gaming.Input's impulse triggers).
///
/// Step n covers [n·stepMs, (n+1)·stepMs) and holds what the track plays at its middle:
/// - a continuous intensity I with sharpness S drives low = I · min(1, 2(1 − S)) and
///   high = I · min(1, 2S): the heavy motor for dull, the light one for sharp, both at I at
///   S = 0.5;
/// - a transient plays a `transientMs` pulse at its own intensity and sharpness, split the same
///   way and added to the body's speed, clipped at 1 (a transient plays over the body); with
///   `triggers`, the trigger motors play the pulses alone (left the low share, right the high
///   share);
/// - `transients` lists where each pulse starts (the first step it covers), so readers and
///   tools can tell a pulse from the body; players just play the timeline.
/// What is lost: timing finer than `stepMs` (a pulse starts within half a step of its
/// transient), sharpness beyond the two motors' split, the shape of a pulse (a motor holds one
/// speed for it), and whatever the clip at full speed cuts off.
public struct RumbleFormat: HapticReadableFormat {
    public static let id = "rumble"
    public static let fileExtension = "rumble.json"
    public static let summary = "Gamepad rumble: low/high-frequency motor speeds (and optional trigger motors) at a fixed step in JSON, for SDL, XInput and Steam Input."
    public static let readingSummary = "as its steps (intensity the faster motor's speed) with its listed transients"
    public static let rulesSummary = "the rumble timeline's rules (Integrations/Rumble/FORMAT.md)"
    public static let stepMs = ParameterDescriptor.integer("stepMs", 1...100, default: 4, unit: "ms",
                help: "Time step of the timeline (a pulse starts within half a step of its transient).")
    public static let transientMs = ParameterDescriptor.integer("transientMs", 1...500, default: 40, unit: "ms",
                help: "Length of a transient's pulse (rumble motors need tens of milliseconds to spin up).")
    public static let triggers = ParameterDescriptor.flag("triggers", default: false,
                help: "Also write leftTrigger and rightTrigger timelines (the transients' pulses) for controllers with trigger motors.")
    public static let parameters = [stepMs, transientMs, triggers]

    /// Longest track written, seconds (a day, as Android's waveform).
    static let maxSeconds = 86_400.0

    let step: Int, transient: Int, hasTriggers: Bool

    public init(parameters: ParameterSet) {
        step = Int(parameters.number(Self.stepMs))
        transient = Int(parameters.number(Self.transientMs))
        hasTriggers = parameters.flag(Self.triggers)
    }

    /// The two motors' speeds for intensity `i` and sharpness `s` (clamped to 0…1).
    static func motors(intensity i: Double, sharpness s: Double) -> (low: Double, high: Double) {
        let (i, s) = (clampUnit(i), clampUnit(s))
        return (i * min(1, 2 * (1 - s)), i * min(1, 2 * s))
    }

    /// Intensity and sharpness from the motors' speeds: `motors(intensity:sharpness:)` undone
    /// (sharpness 0.5 when both are still).
    static func track(low: Double, high: Double) -> (intensity: Double, sharpness: Double) {
        let intensity = max(low, high)
        guard intensity > 0 else { return (0, 0.5) }
        return (intensity, low >= high ? high / (2 * low) : 1 - low / (2 * high))
    }

    public func write(_ track: HapticTrack, context: HapticWriteContext, to emit: (String) throws -> Void) throws {
        try track.checkFinite(below: Self.maxSeconds)
        let stepSeconds = Double(step) / 1000, pulse = Double(transient) / 1000
        let end = ([track.duration] + track.regions.map(\.end) + track.transients.map { $0.time + pulse }).max() ?? 0
        let steps = Int((end / stepSeconds - 1e-9).rounded(.up))  // a rounding error does not add a step
        var sampler = TrackSampler(track, pulse: pulse, edge: 0, shape: .rectangle)
        var timelines = [[Double]](repeating: [], count: hasTriggers ? 4 : 2)
        for n in 0..<steps {
            let instant = sampler.sample(at: (Double(n) + 0.5) * stepSeconds)
            let body = Self.motors(intensity: instant.continuousIntensity, sharpness: instant.continuousSharpness)
            let hit = Self.motors(intensity: instant.pulse, sharpness: instant.pulseSharpness)
            timelines[0].append(min(1, body.low + hit.low))
            timelines[1].append(min(1, body.high + hit.high))
            if hasTriggers {
                timelines[2].append(hit.low)
                timelines[3].append(hit.high)
            }
        }
        try JSONWriter.stream(to: emit) { json in
            json.beginTactusDocument(format: "tactus-rumble", version: 1, metadata: context.metadata)
            json.member("stepMs", step)
            json.member("durationMs", steps * step)
            json.key("transients")
            json.beginArray(Style.document)
            for transient in track.transients {
                json.beginObject(Style.transient)
                json.member("startMs", max(0, Int((transient.time / stepSeconds - 0.5).rounded(.up))) * step)
                json.member("intensity", transient.intensity, Style.speed)
                json.member("sharpness", transient.sharpness, Style.speed)
                json.endObject()
            }
            json.endArray()
            for (name, values) in zip(["lowFrequency", "highFrequency", "leftTrigger", "rightTrigger"], timelines) {
                json.key(name)
                json.numbers(values, Style.speed, layout: Style.timeline)
            }
            json.endObject()
        }
    }

    /// The file's declared style: one member a line, each transient on one line, the timelines
    /// 16 speeds a line; speeds and transients' values to 3 decimals.
    enum Style {
        static let document = JSONLayout.lines
        static let transient = JSONLayout.inline
        static let timeline = JSONLayout.wrapped(perLine: 16)
        static let speed = JSONNumberFormat.fixed(digits: 3)
    }

    public func read(_ data: Data) throws -> ImportedHaptics {
        let (file, diagnostics) = RumbleFileReader.inspect(data)
        if let error = diagnostics.first(where: { $0.severity == .error }) {
            throw FormatReadError(location: error.location, message: error.message)
        }
        guard let file else { throw FormatReadError(location: "", message: "not a rumble file") }
        return ImportedHaptics(track: file.track, metadata: file.metadata, warnings: diagnostics)
    }

    /// The `metadata` object's entries, read up to it (`beginTactusDocument` writes it third).
    public func metadata(fromStart start: Data) throws -> [MetadataEntry] {
        try MetadataEntry.jsonHeader("metadata", in: start)
    }

    /// The rules of `Integrations/Rumble/FORMAT.md`; a rumble file names no other files, so
    /// `baseDirectory` is not used.
    public func validate(_ data: Data, baseDirectory: URL?) -> [FormatDiagnostic] {
        RumbleFileReader.inspect(data).diagnostics
    }
}
