import TactusCore
import TactusPlatform

/// What one preview wrote and the numbers a designer checks first.
public struct PreviewSummary: Equatable, Sendable {
    /// The haptic file previewed.
    public var file: URL
    /// Base name of every output (`<stem>.html`, `<stem>.svg`, …).
    public var stem: String
    /// `<stem>.html`: the page with plot, players and numbers.
    public var page: URL
    /// `<stem>.svg`: the plot on its own (also the gallery's thumbnail).
    public var plot: URL
    /// `<stem>.haptics.wav`: the haptics as sound.
    public var hapticsAudio: URL
    /// `<stem>.side-by-side.wav`: sound left, haptics right; nil without a playable sound.
    public var sideBySideAudio: URL?
    /// The file's own sound (AHAP's `AudioCustom` file); nil when it has none or it cannot be read.
    public var originalAudio: URL?
    /// The `Preset` entry of the file's Metadata, if any.
    public var presetName: String?
    /// Seconds covered by the preview's sounds and plot: the longer of the sound and the
    /// haptics, the last transient's tick included.
    public var duration: Double
    /// The length the page states, in seconds: the sound's when the file has one, else where
    /// the last haptic ends.
    public var length: Double
    /// Transients the file plays.
    public var transientCount: Int
    /// Seconds during which continuous haptics play.
    public var continuousSeconds: Double
    /// Points of the played intensity and sharpness curves (`HapticPlayback.curvePointCount`).
    public var curvePointCount: Int
    /// The validator's findings and anything the preview had to leave out, one line each.
    public var warnings: [String]
}
