import Foundation

/// Android files written by hand, for the reader's tests and the CLI's.
public enum AndroidSample {
    /// A valid Android file (`<stem>.android.json`, `Integrations/Android/FORMAT.md`) with every
    /// form; each argument replaces one part (a JSON fragment).
    public static func file(format: String = #""tactus-android""#, version: String = "1", durationMs: String = "60",
                            waveform: String = #"{"timings": [10, 20, 30], "amplitudes": [0, 255, 64]}"#,
                            onOff: String = #"{"timings": [10, 50]}"#,
                            composition: String = #"{"complete": false, "primitives": [{"primitive": "THUD", "scale": 0.9, "startMs": 10}]}"#,
                            envelope: String = #"{"initialSharpness": 0.5, "controlPoints": [{"intensity": 1, "sharpness": 0.4, "durationMs": 20}, {"intensity": 0, "sharpness": 0.4, "durationMs": 40}]}"#) -> Data {
        Data(#"{"format": \#(format), "version": \#(version), "metadata": {"Source": "a.wav"}, "durationMs": \#(durationMs), "waveform": \#(waveform), "onOff": \#(onOff), "composition": \#(composition), "envelope": \#(envelope), "future": [1]}"#.utf8)
    }
}
