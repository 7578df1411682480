import TactusAHAP
import TactusAnalysis
import TactusAudio
import TactusPresets
import TactusCore

/// The analysis of one file as a designer reads it: per-frame features, the onsets found,
/// and the threshold they had to beat. Deterministic text, JSON or CSV.
public struct AnalysisReport {
    /// The analysed file, as the user named it.
    public let file: String
    /// The file's header: sample rate, channels, length.
    public let format: AudioFormat
    /// Per-frame features and onsets, times in seconds.
    public let analysis: AnalysisResult
    /// The track the preset maps the analysis to.
    public let track: HapticTrack
    /// The resolved preset's name.
    public let presetName: String
    /// The onset method's id.
    public let onsetMethod: String

    /// - Parameters:
    ///   - file: the analysed file, as the user named it.
    ///   - format: its header.
    ///   - analysis: the analysis of its samples.
    ///   - track: the mapped track.
    ///   - preset: the preset it was analysed and mapped with.
    public init(file: String, format: AudioFormat, analysis: AnalysisResult, track: HapticTrack,
                preset: ResolvedPreset) {
        self.file = file
        self.format = format
        self.analysis = analysis
        self.track = track
        presetName = preset.name
        onsetMethod = preset.onsetMethod.id
    }

    struct OnsetRow {
        var time, strength, threshold, levelDb: Double
        var intensity, sharpness: Double?
    }

    var onsetRows: [OnsetRow] {
        analysis.onsets.enumerated().map { i, onset in
            let transient = track.transients.count == analysis.onsets.count ? track.transients[i] : nil
            return OnsetRow(time: onset.time, strength: Double(onset.strength), threshold: Double(onset.threshold),
                            levelDb: Double(onset.levelDb), intensity: transient?.intensity, sharpness: transient?.sharpness)
        }
    }

    /// The per-frame outputs reported: every output the analysis declares, in order.
    var columns: [FeatureDescriptor] { AnalysisSession.outputDescriptors }

    /// The report as JSON: the file, the preset, each onset with its strength, threshold, level and
    /// the transient made of it, and every declared per-frame output.
    /// - Returns: the JSON text, ending with a newline.
    public func json() -> String {
        let f = analysis.features
        let count = f[LevelAnalyzer.output]?.count ?? 0
        func column(_ output: FeatureDescriptor) -> String {
            "[" + (f[output.id] ?? []).map { Self.number(Double($0), output.decimals) }.joined(separator: ",") + "]"
        }
        let times = "[" + (0..<count).map { Self.number(Double($0) * analysis.hopSeconds, 5) }.joined(separator: ",") + "]"
        let onsets = onsetRows.map { row in
            "    {\"time\": \(Self.number(row.time, 6)), \"strength\": \(Self.number(row.strength, 3)), "
                + "\"threshold\": \(Self.number(row.threshold, 3)), \"levelDb\": \(Self.number(row.levelDb, 2)), "
                + "\"intensity\": \(row.intensity.map { Self.number($0, 4) } ?? "null"), "
                + "\"sharpness\": \(row.sharpness.map { Self.number($0, 4) } ?? "null")}"
        }
        let outputs = columns.map {
            "    {\"id\": \(JSONText.quote($0.id)), \"unit\": \(JSONText.quote($0.unit)), "
                + "\"description\": \(JSONText.quote($0.description))}"
        }
        let frames = ["    \"time\": \(times)"] + columns.map { "    \(JSONText.quote($0.id)): \(column($0))" }
        return """
        {
          "file": \(JSONText.quote(file)),
          "container": \(JSONText.quote(format.container)),
          "encoding": \(JSONText.quote(format.encoding)),
          "sampleRate": \(Self.number(format.sampleRate, 0)),
          "channels": \(format.channels),
          "durationSeconds": \(Self.number(analysis.duration, 6)),
          "preset": \(JSONText.quote(presetName)),
          "onsetMethod": \(JSONText.quote(onsetMethod)),
          "hopSeconds": \(Self.number(analysis.hopSeconds, 6)),
          "onsets": [
        \(onsets.joined(separator: ",\n"))
          ],
          "outputs": [
        \(outputs.joined(separator: ",\n"))
          ],
          "frames": {
        \(frames.joined(separator: ",\n"))
          }
        }

        """
    }

    /// The onsets as CSV, one per line after a header: time (s), strength, threshold, level (dBFS),
    /// the transient's intensity and sharpness (0…1).
    /// - Returns: the CSV text.
    public func csv() -> String {
        var lines = ["onset_time,strength,threshold,level_db,intensity,sharpness"]
        for row in onsetRows {
            lines.append([Self.number(row.time, 6), Self.number(row.strength, 3), Self.number(row.threshold, 3),
                          Self.number(row.levelDb, 2), row.intensity.map { Self.number($0, 4) } ?? "",
                          row.sharpness.map { Self.number($0, 4) } ?? ""].joined(separator: ","))
        }
        lines.append("")
        lines.append((["time"] + columns.map(\.id)).joined(separator: ","))
        let values = columns.map { analysis.features[$0.id] ?? [] }
        for k in (analysis.features[LevelAnalyzer.output] ?? []).indices {
            lines.append(([Self.number(Double(k) * analysis.hopSeconds, 5)] + zip(columns, values).map { output, series in
                k < series.count ? Self.number(Double(series[k]), output.decimals) : ""
            }).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Fixed-precision decimal without trailing zeros; `null` for a missing (non-finite) value.
    static func number(_ value: Double, _ digits: Int) -> String {
        value.isFinite ? JSONText.fixed(value, digits: digits) : "null"
    }
}
