import TactusCore
import TactusFiles

/// What a haptic file plays, as data for scripts and plots: the transients, the spans where a
/// continuous region plays, and the continuous intensity and sharpness on a regular grid, all
/// as `HapticPlayback` evaluates the track a format's reader made of the file (the same reading
/// `compare`, `preview` and `evaluate` use). Times in seconds; intensity and sharpness 0…1.
public struct PlaybackReport {
    /// The most grid instants one report holds (about 2.8 hours at 1 ms): beyond it the JSON
    /// would take hundreds of megabytes, and a coarser step says the same.
    public static let maxInstants = 10_000_000

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
    /// - Throws: `FileError` naming the file when the grid would hold more than `maxInstants`.
    public init(file: String, track: HapticTrack, step: Double) throws {
        precondition(step > 0 && step.isFinite)
        self.file = file
        playback = HapticPlayback(track)
        self.step = step
        let count = (playback.endTime / step).rounded(.down) + 1
        guard count.isFinite, count <= Double(Self.maxInstants) else {
            throw FileError(file: file, reason: "its haptics last \(JSONText.shortest(playback.endTime)) s: every "
                                + "\(JSONText.shortest(step * 1000)) ms that is more than \(Self.maxInstants) instants",
                            hint: "use a larger --step-ms")
        }
        instants = Int(count)
    }

    /// Writes the report as pretty-printed JSON, handed to `emit` in pieces as it is made (a long
    /// grid is never held whole): `file`, `endTime`, `transients` (each `time`, `intensity`,
    /// `sharpness`), and `continuous`: `spans` (each `[start, end]`, merged where they touch),
    /// `stepMs`, then `intensity` (0 where no region plays) and `sharpness` (null where none
    /// plays), one value per grid instant `k · stepMs / 1000`; a final newline.
    /// - Parameter emit: receives the pieces in order.
    /// - Throws: the first error `emit` threw.
    public func write<Failure: Error>(to emit: (String) throws(Failure) -> Void) throws(Failure) {
        try JSONWriter.stream(to: emit) { json in
            json.beginObject()
            json.member("file", file)
            json.member("endTime", playback.endTime, .shortest)
            json.key("transients")
            json.beginArray()
            for transient in playback.transients {
                json.beginObject()
                json.member("time", transient.time, .shortest)
                json.member("intensity", transient.intensity, .shortest)
                json.member("sharpness", transient.sharpness, .shortest)
                json.endObject()
            }
            json.endArray()
            json.key("continuous")
            json.beginObject()
            json.key("spans")
            json.beginArray()
            for span in playback.continuousSpans {
                json.beginArray()
                json.number(span.lowerBound, .shortest)
                json.number(span.upperBound, .shortest)
                json.endArray()
            }
            json.endArray()
            json.member("stepMs", step * 1000, .shortest)
            json.key("intensity")
            json.beginArray()
            for k in 0..<instants { json.number(playback.continuousIntensity(at: Double(k) * step), .shortest) }
            json.endArray()
            json.key("sharpness")
            json.beginArray()
            for k in 0..<instants {
                if let sharpness = playback.continuousSharpness(at: Double(k) * step) {
                    json.number(sharpness, .shortest)
                } else {
                    json.null()
                }
            }
            json.endArray()
            json.endObject()
            json.endObject()
        }
    }
}
