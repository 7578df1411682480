import Tactus
import TactusAnalysis
import TactusAudio
import TactusCore
import TactusFiles
import TactusMapping
import TactusPresets
import TactusPreview
import TactusRender
import TactusPlatform

/// One sound being tuned: where it is, its outline for the plot, and its analyses, kept so a
/// knob that only changes the mapping re-maps without decoding or analysing again.
final class TuneSound: @unchecked Sendable {
    /// The file, opened read-only for each use (never modified).
    let url: URL
    /// How the page and messages name it: the path as found, or a dropped file's own name.
    let name: String
    /// The folder whose `tactus.json` tunes it; nil for a dropped sound.
    let folder: URL?
    let format: AudioFormat
    /// `TuneLimits.waveformColumns` (low, high) pairs over the whole duration, interleaved.
    let waveform: [Float]
    private let lock = Lock()
    /// Most recently used first, at most `TuneLimits.analysesPerSound`.
    private var analyses: [(key: String, result: AnalysisResult)] = []

    /// Decodes the sound once for its outline and analyses it with `preset`.
    /// - Throws: `FileError` naming `name` when it cannot be decoded.
    init(url: URL, name: String, folder: URL?, preset: ResolvedPreset) throws {
        self.url = url
        self.name = name
        self.folder = folder
        var envelope = WaveformEnvelope()
        do {
            let reader = try AudioFileReader(url: url)
            format = reader.format
            let blocks = MonoBlockReader<Float>(reader, blockFrames: 4096)
            while try blocks.next({ _, mono in envelope.add(mono) }) {}
        } catch {
            throw FileError(file: name, error)
        }
        waveform = envelope.columns(TuneLimits.waveformColumns).flatMap { [$0.low, $0.high] }
        _ = try analysis(for: preset)
    }

    /// The analysis `preset`'s analysis settings give, from the cache when it holds it.
    /// - Returns: the analysis, and whether it had to be made now.
    /// - Parameter key: `analysisKey(preset)`, when the caller has it (it is the same for every sound).
    func analysis(for preset: ResolvedPreset, key given: String? = nil) throws -> (AnalysisResult, fresh: Bool) {
        let key = given ?? Self.analysisKey(preset)
        if let cached = lock.withLock({ () -> AnalysisResult? in
            guard let index = analyses.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = analyses.remove(at: index)
            analyses.insert(entry, at: 0)
            return entry.result
        }) {
            return (cached, false)
        }
        var result: AnalysisResult
        do {
            result = try Converter(preset: preset, log: CommittedFiles()).analyze(url).1
        } catch {
            throw FileError(file: name, error)
        }
        // What `Converter` keeps for mapping; the novelty curves are most of an analysis.
        result.features = result.features.filter { HapticMapper.inputs.contains($0.key) }
        lock.withLock {
            analyses.removeAll { $0.key == key }
            analyses.insert((key, result), at: 0)
            analyses = Array(analyses.prefix(TuneLimits.analysesPerSound))
        }
        return (result, true)
    }

    /// The track `preset` maps this sound to, and whether its analysis had to be made now.
    func track(for preset: ResolvedPreset, key: String? = nil) throws -> (HapticTrack, analysed: Bool) {
        let (analysis, fresh) = try analysis(for: preset, key: key)
        return (try preset.mapper().map(analysis), fresh)
    }

    /// The sound mixed down to mono, as 16-bit WAV bytes at its own rate.
    /// - Throws: `FileError` when it is longer than `TuneLimits.maxPlaybackSeconds` or cannot be decoded.
    func monoWAV() throws -> Data {
        guard format.duration <= TuneLimits.maxPlaybackSeconds else {
            throw FileError(file: name, reason: "is too long to play on the page",
                            hint: "the page plays sounds up to \(Int(TuneLimits.maxPlaybackSeconds)) s")
        }
        var samples: [Float] = []
        samples.reserveCapacity(Int(min(format.frames, Int64(TuneLimits.maxPlaybackSeconds * format.sampleRate))))
        do {
            let blocks = MonoBlockReader<Float>(try AudioFileReader(url: url), blockFrames: 4096)
            while try blocks.next({ _, mono in samples += mono }) {}
        } catch {
            throw FileError(file: name, error)
        }
        return Data(try PCMWAVWriter.file(samples, sampleRate: Int(format.sampleRate)))
    }

    /// The sections whose parameters the analysis reads (`ResolvedPreset.analysisConfiguration`):
    /// the page marks their knobs ⟳ ("analyses again"). The cache does not use this list: its
    /// key is the configuration itself (`analysisKey`).
    static let analysisSections: Set<String> = [FrameSettings.id, PresetSections.onset, PeakPicker.id,
                                                AttackLocator.id, CentroidAnalyzer.id]

    /// The analysis `preset` runs, as one string: its `analysisConfiguration()` — the onset
    /// method and every value of each set the analysis reads, after the `feel` controls — so a
    /// value the analysis reads always analyses again, and no other value does.
    static func analysisKey(_ preset: ResolvedPreset) -> String {
        let configuration = preset.analysisConfiguration()
        let sets = [configuration.frame, configuration.onset, configuration.peaks, configuration.attack, configuration.centroid]
        return ([configuration.onsetMethod.id] + sets.map { set in
            set.values.keys.sorted().map { "\($0)=\(set.values[$0]!.plainText)" }.joined(separator: " ")
        }).joined(separator: "\n")
    }
}
