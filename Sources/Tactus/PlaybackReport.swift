import TactusCore

/// What a haptic file plays, as data for scripts and plots: the transients, the spans where a
/// continuous region plays, and the continuous intensity and sharpness on a regular grid, all
/// as `HapticPlayback` evaluates the track a format's reader made of the file (the same reading
/// `compare`, `preview` and `evaluate` use). Times in seconds; intensity and sharpness 0…1.
public struct PlaybackReport {
    /// The most grid instants one report holds (about 2.8 hours at 1 ms): beyond it the JSON
    /// would take hundreds of megabytes, and a coarser step says the same.
    public static let maxInstants = 10_000_000

    /// Why a report cannot be made: the grid from 0 to the end of the haptics would hold more
    /// than `maxInstants` instants.
    public struct TooManyInstants: Error, CustomStringConvertible {
        /// When the last haptic plays, in seconds.
        public let endTime: Double
        /// The grid's step, in seconds.
        public let step: Double
        /// The reason in one line, with what to do.
        public var description: String {
            "the haptics last \(JSONText.shortest(endTime)) s: every \(JSONText.shortest(step * 1000)) ms that is more than "
                + "\(PlaybackReport.maxInstants) instants: use a larger --step-ms"
        }
    }

    /// The file, as the user named it.
    public let file: String
    /// The track's playback.
    public let playback: HapticPlayback
    /// Seconds between grid instants (above 0).
    public let step: Double
    /// Grid instants: `0, step, 2·step, …` up to the end of the haptics.
    public let instants: Int

    /// - Parameters:
    ///   - file: the file, as the user named it.
    ///   - track: what it plays (a format reader's track).
    ///   - step: seconds between grid instants, above 0.
    /// - Throws: `TooManyInstants` when the grid would hold more than `maxInstants`.
    public init(file: String, track: HapticTrack, step: Double) throws {
        precondition(step > 0 && step.isFinite)
        self.file = file
        playback = HapticPlayback(track)
        self.step = step
        let count = (playback.endTime / step).rounded(.down) + 1
        guard count.isFinite, count <= Double(Self.maxInstants) else {
            throw TooManyInstants(endTime: playback.endTime, step: step)
        }
        instants = Int(count)
    }

    /// The report as JSON: `file`, `endTime`, `transients` (each `time`, `intensity`,
    /// `sharpness`), and `continuous`: `spans` (each `[start, end]`, merged where they touch),
    /// `stepMs`, then `intensity` (0 where no region plays) and `sharpness` (null where none
    /// plays), one value per grid instant `k · stepMs / 1000`.
    /// - Returns: pretty-printed JSON, ending with a newline.
    public func json() -> String {
        let times = (0..<instants).map { Double($0) * step }
        let continuous: JSONValue = .object([
            ("spans", .array(playback.continuousSpans.map { .array([.number($0.lowerBound), .number($0.upperBound)]) })),
            ("stepMs", .number(step * 1000)),
            ("intensity", .array(times.map { .number(playback.continuousIntensity(at: $0)) })),
            ("sharpness", .array(times.map { JSONValue.optional(playback.continuousSharpness(at: $0), JSONValue.number) })),
        ])
        return JSONValue.object([
            ("file", .string(file)),
            ("endTime", .number(playback.endTime)),
            ("transients", .array(playback.transients.map {
                .object([("time", .number($0.time)), ("intensity", .number($0.intensity)), ("sharpness", .number($0.sharpness))])
            })),
            ("continuous", continuous),
        ]).prettyText()
    }
}
