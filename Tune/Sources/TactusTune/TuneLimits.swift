/// What one `tactus tune` run accepts at most: every request and every dropped sound is
/// bounded, so a page (or anything else that reaches the port) cannot grow the server's memory
/// or disk without limit.
public enum TuneLimits {
    /// Largest request body that is not a sound (settings, save and export requests), in bytes.
    public static let maxRequestBytes = 256 * 1024
    /// Largest sound that may be dropped on the page, in bytes (held in memory once, then written).
    public static let maxDroppedBytes = 64 * 1024 * 1024
    /// Most sounds dropped on the page in one run.
    public static let maxDroppedSounds = 100
    /// Most sounds in one run, found and dropped.
    public static let maxSounds = 1000
    /// Longest sound the page can play (original, haptics or mix), in seconds: its WAV is made
    /// in memory per request (16-bit mono, about 5.8 MB a minute at 48 kHz).
    public static let maxPlaybackSeconds = 600.0
    /// Columns of the waveform outline sent for each sound (min and max per column).
    public static let waveformColumns = 2000
    /// Longest name of a dropped sound kept for display, in characters.
    public static let maxNameCharacters = 200
    /// Analyses kept per sound: the settings in force and one more (A/B with different
    /// analysis settings does not re-analyse on each switch).
    public static let analysesPerSound = 2
}
