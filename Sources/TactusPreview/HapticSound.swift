import TactusAHAP
import TactusCore

/// What a track plays, as sound: the rendering `tactus preview` writes (`HapticSonifier` on
/// the pattern `AHAPWriter` lays out, evaluated as Core Haptics plays it), for a caller that
/// plays it itself (`tactus tune`'s page).
public enum HapticSound {
    /// The sonified track at `sampleRate`, mono, from 0 s until its last tick has rung out
    /// (at least `PreviewRenderer.minimumDuration`).
    /// - Throws: what `AHAPWriter` refuses (times past `AHAPWriter.maxTime`), and a
    ///   `FileError` naming `name` when the haptics run past `PreviewRenderer.maxDuration`.
    public static func samples(of track: HapticTrack, sampleRate: Double, name: String) throws -> [Float] {
        let evaluator = PatternEvaluator(try AHAPWriter().document(for: track))
        guard evaluator.hapticEndTime.isFinite, evaluator.hapticEndTime <= PreviewRenderer.maxDuration else {
            throw FileError(file: name, reason: "its haptics run past \(Markup.seconds(PreviewRenderer.maxDuration))")
        }
        let seconds = max(evaluator.hapticEndTime + HapticSonifier.longestTick, PreviewRenderer.minimumDuration)
        var samples = [Float](repeating: 0, count: Int((seconds * sampleRate).rounded(.up)))
        samples.withUnsafeMutableBufferPointer { HapticSonifier(evaluator: evaluator, sampleRate: sampleRate).render(into: $0) }
        return samples
    }
}
