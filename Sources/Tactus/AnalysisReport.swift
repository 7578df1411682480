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

    /// The report as JSON: the file, the preset, the loudest momentary loudness (LUFS), each onset with its strength, threshold, level and
    /// the transient made of it, and every declared per-frame output. Members one per line, each
    /// onset and output on one line, each frame series on one line without spaces; numbers to
    /// the decimals the CSV has, `null` where a value is missing or not finite.
    /// - Returns: the JSON text, ending with a newline.
    public func json() -> String {
        let features = analysis.features
        let count = features[LevelAnalyzer.output]?.count ?? 0
        return JSONWriter.text { json in
            json.beginObject()
            json.member("file", file)
            json.member("container", format.container)
            json.member("encoding", format.encoding)
            json.key("sampleRate")
            json.number(orNull: format.sampleRate, digits: 0)
            json.member("channels", format.channels)
            json.key("durationSeconds")
            json.number(orNull: analysis.duration, digits: 6)
            json.key("loudestMomentaryLufs")
            json.number(orNull: analysis.loudestMomentaryLufs, digits: 3)
            json.member("preset", presetName)
            json.member("onsetMethod", onsetMethod)
            json.key("hopSeconds")
            json.number(orNull: analysis.hopSeconds, digits: 6)
            json.key("onsets")
            json.beginArray()
            for row in onsetRows {
                json.beginObject(.inline)
                for (key, value, digits) in [("time", row.time, 6), ("strength", row.strength, 3), ("threshold", row.threshold, 3),
                                             ("levelDb", row.levelDb, 2), ("intensity", row.intensity, 4),
                                             ("sharpness", row.sharpness, 4)] as [(String, Double?, Int)] {
                    json.key(key)
                    json.number(orNull: value, digits: digits)
                }
                json.endObject()
            }
            json.endArray()
            json.key("outputs")
            json.beginArray()
            for output in columns {
                json.value(.object([("id", .string(output.id)), ("unit", .string(output.unit)),
                                    ("description", .string(output.description))]), layout: .inline)
            }
            json.endArray()
            json.key("frames")
            json.beginObject()
            json.key("time")
            json.numbers((0..<count).map { Double($0) * analysis.hopSeconds }, .fixed(digits: 5), layout: .compact)
            for output in columns {
                json.key(output.id)
                json.beginArray(.compact)
                for value in features[output.id] ?? [] { json.number(orNull: Double(value), digits: output.decimals) }
                json.endArray()
            }
            json.endObject()
            json.endObject()
        }
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

private extension JSONWriter {
    /// Writes `value` to `digits` decimals (`JSONNumberFormat.fixed`), or `null` when it is
    /// missing or not finite.
    mutating func number(orNull value: Double?, digits: Int) {
        guard let value, value.isFinite else { return null() }
        number(value, .fixed(digits: digits))
    }
}
