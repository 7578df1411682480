import TactusCore
import TactusFiles

/// What a track plays, as sound: the rendering `tactus preview` writes (`HapticSonifier` on
/// `HapticPlayback`), for a caller that plays it itself (`tactus tune`'s page).
public enum HapticSound {
    /// The sonified track at `sampleRate`, mono, from 0 s until its last tick has rung out
    /// (at least `PreviewRenderer.minimumDuration`).
    /// - Throws: a `FileError` naming `name` when the haptics run past `PreviewRenderer.maxDuration`.
    /// - Parameters:
    ///   - track: the track to sonify.
    ///   - sampleRate: samples per second, in Hz.
    ///   - name: the file the track came from, for the error.
    /// - Returns: mono samples in −1…1.
    public static func samples(of track: HapticTrack, sampleRate: Double, name: String) throws -> [Float] {
        let playback = HapticPlayback(track)
        guard playback.endTime.isFinite, playback.endTime <= PreviewRenderer.maxDuration else {
            throw FileError(file: name, reason: "its haptics run past \(Markup.seconds(PreviewRenderer.maxDuration))")
        }
        let seconds = max(playback.endTime + HapticSonifier.longestTick, PreviewRenderer.minimumDuration)
        var samples = [Float](repeating: 0, count: Int((seconds * sampleRate).rounded(.up)))
        samples.withUnsafeMutableBufferPointer { HapticSonifier(playback: playback, sampleRate: sampleRate).render(into: $0) }
        return samples
    }
}
