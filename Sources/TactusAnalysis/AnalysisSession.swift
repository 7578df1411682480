import TactusCore
import TactusFFT

/// Frame geometry settings, a part of its own so presets tune it like any other.
public enum FrameSettings: TunablePart {
    public static let id = "stft"
    public static let summary = "Analysis window and hop, in milliseconds (independent of the sample rate)."
    public static let windowMs = ParameterDescriptor.number("windowMs", 5...200, default: 20, unit: "ms", help: "Analysis window length (Hann).")
    public static let hopMs = ParameterDescriptor.number("hopMs", 1...50, default: 10, unit: "ms",
                help: "Time between frames; also the envelope's resolution. Onsets are placed on the waveform, so their timing does not depend on it.")
    public static let parameters: [ParameterDescriptor] = [windowMs, hopMs]
}

/// Everything the analysis stage needs, validated.
public struct AnalysisConfiguration {
    /// Window and hop (`FrameSettings`), in ms.
    public var frame: ParameterSet
    /// The onset method whose novelty the peak picker reads.
    public var onsetMethod: any OnsetMethod.Type
    /// The onset method's own parameters (`onsetMethod.parameters`).
    public var onset: ParameterSet
    /// Peak picking (`PeakPicker.parameters`), over the method's `peakPickingDefaults`.
    public var peaks: ParameterSet
    /// Attack placement on the waveform (`AttackLocator.parameters`).
    public var attack: ParameterSet
    /// The brightness band (`CentroidAnalyzer.parameters`), in Hz.
    public var centroid: ParameterSet
    /// The FFT behind the STFT: the platform's permissively licensed one unless set (the
    /// `tactus` command line sets FFTW's, `FFTWRealFFT`). Not a preset setting: transforms
    /// agree within 1e-6 of a frame's largest bin, not bit for bit.
    public var transform: any RealTransform.Type = RealTransforms.platformDefault

    /// Each set must have been made from the descriptors of its part (its values are read
    /// through them; a value of another part is never looked at).
    /// - Parameters:
    ///   - frame: `FrameSettings` values.
    ///   - onsetMethod: the onset method's type.
    ///   - onset: that method's values.
    ///   - peaks: `PeakPicker` values.
    ///   - attack: `AttackLocator` values.
    ///   - centroid: `CentroidAnalyzer` values.
    public init(frame: ParameterSet, onsetMethod: any OnsetMethod.Type, onset: ParameterSet,
                peaks: ParameterSet, attack: ParameterSet, centroid: ParameterSet) {
        self.frame = frame
        self.onsetMethod = onsetMethod
        self.onset = onset
        self.peaks = peaks
        self.attack = attack
        self.centroid = centroid
    }

    /// The frames at `sampleRate` (`FrameSettings`).
    /// - Parameter sampleRate: the signal's sample rate, in Hz.
    /// - Returns: window, hop and FFT size in samples.
    func geometry(sampleRate: Double) -> FrameGeometry {
        FrameGeometry(sampleRate: sampleRate, windowMs: frame.number(FrameSettings.windowMs), hopMs: frame.number(FrameSettings.hopMs))
    }

    /// The onset detector these settings describe: the method, fresh, its peak picker and attack locator.
    /// - Parameters:
    ///   - geometry: the frames (`geometry(sampleRate:)`).
    ///   - live: judge as a live stream does (`OnsetDetector`'s `live`).
    /// - Returns: a detector to feed every frame.
    func onsetDetector(geometry: FrameGeometry, live: Bool) -> OnsetDetector {
        OnsetDetector(method: onsetMethod.init(parameters: onset, geometry: geometry),
                      picker: PeakPicker(parameters: peaks, geometry: geometry),
                      locator: AttackLocator(parameters: attack, geometry: geometry), geometry: geometry, live: live)
    }

    /// Every part at its defaults, with the given onset method's tuned peak-picking defaults.
    /// - Parameter method: the onset method (SuperFlux unless given).
    /// - Returns: the configuration the default preset's analysis sections amount to.
    /// - Throws: a `ParameterError` when the method's `peakPickingDefaults` name a parameter
    ///   `PeakPicker` does not have or a value out of its range (a defect of the method).
    public static func defaults(method: any OnsetMethod.Type = SuperFlux.self) throws -> AnalysisConfiguration {
        try AnalysisConfiguration(
            frame: ParameterSet(FrameSettings.parameters),
            onsetMethod: method,
            onset: ParameterSet(method.parameters),
            peaks: ParameterSet(PeakPicker.parameters, method.peakPickingDefaults.byName),
            attack: ParameterSet(AttackLocator.parameters),
            centroid: ParameterSet(CentroidAnalyzer.parameters))
    }
}

/// What the analysis found in one signal: named per-frame features and the onsets.
public struct AnalysisResult {
    /// The analysed signal's sample rate, in Hz.
    public var sampleRate: Double
    /// Mono samples analysed.
    public var sampleCount: Int
    /// Seconds between frames; frame k is centred at `k * hopSeconds`.
    public var hopSeconds: Double
    /// Per-frame outputs by name (`rms.db`, `centroid.hz`, `onset.novelty`, `onset.threshold`).
    public var features: [String: [Float]]
    /// The onsets in time order, each on its attack and none in a silence before a sound.
    public var onsets: [DetectedOnset]
    /// The loudest momentary loudness (BS.1770, 400 ms) of the signal, in LUFS;
    /// `LoudnessMeter.silentLufs` for silence.
    public var loudestMomentaryLufs: Double
    /// Where each sound begins (`SoundStarts`): no onset lies in the silence before one.
    public var soundStarts: [SoundStarts.Start]

    /// Signal length in seconds.
    public var duration: Double { Double(sampleCount) / sampleRate }

    /// The per-frame values of the feature named `name` (a `FeatureDescriptor.id`, such as
    /// `LevelAnalyzer.output`).
    /// - Parameter name: an output id from `AnalysisSession.outputDescriptors` (e.g. `rms.db`).
    /// - Returns: one value per frame, in the descriptor's unit.
    /// - Throws: `MissingFeature` when the result holds none by that name (it was dropped
    ///   before mapping, or no analyzer declares it).
    public func feature(_ name: String) throws -> [Float] {
        guard let values = features[name] else { throw MissingFeature(name: name) }
        return values
    }

    /// A per-frame feature a reader needs is not in the result.
    public struct MissingFeature: Error, Equatable, CustomStringConvertible {
        /// The feature's name (`FeatureDescriptor.id`).
        public let name: String
        /// One line, as errors are reported.
        public var description: String { "the analysis has no feature \(name) (keep it when filtering AnalysisResult.features)" }
    }
}

/// One streaming analysis pass: push mono blocks as they are decoded, then `finish()`.
///
/// Memory is bounded by the window, the onset history and the per-frame features (a few
/// floats per hop), never by the whole signal.
public final class AnalysisSession {
    /// Every per-frame output an `AnalysisResult` holds, in report order.
    public static let outputDescriptors = LevelAnalyzer.outputDescriptors + CentroidAnalyzer.outputDescriptors
        + OnsetDetector.outputDescriptors

    /// Window, hop and FFT size in samples at this signal's rate.
    public var geometry: FrameGeometry { frames.geometry }
    private let frames: FramePipeline
    private let level = LevelAnalyzer()
    private let centroid: CentroidAnalyzer
    private var onsets: OnsetDetector { frames.onsets }
    private let starts: SoundStarts
    /// Samples pushed so far.
    @exclusivity(unchecked) public private(set) var sampleCount = 0

    /// - Parameters:
    ///   - sampleRate: the signal's sample rate, in Hz.
    ///   - configuration: the analysis parts' settings.
    public init(sampleRate: Double, configuration: AnalysisConfiguration) {
        frames = FramePipeline(sampleRate: sampleRate, configuration: configuration, live: false)
        centroid = CentroidAnalyzer(parameters: configuration.centroid)
        starts = SoundStarts(sampleRate: sampleRate, blockLength: frames.geometry.hop)
    }

    /// Analyses the next mono samples (−1…1, any block size), raw: the pipeline's DC blocker
    /// removes their offset.
    /// - Parameter samples: the next samples of the signal, in order.
    public func push(_ samples: UnsafeBufferPointer<Float>) {
        sampleCount += samples.count
        starts.push(samples)
        frames.push(samples, frame: analyse) { _ in }
    }

    /// Makes room in the per-frame outputs for a signal of about `samples` samples (a
    /// header's frame count; at most `maxExpectedSeconds` are taken at its word, so a corrupt
    /// header cannot make it reserve much). A hint: the result does not depend on it.
    /// - Parameter samples: the signal's expected length in samples, as a header states it.
    public func expect(samples: Int) {
        let trusted = min(samples, Int(Self.maxExpectedSeconds * geometry.sampleRate))
        let frames = STFT.frameCount(sampleCount: trusted, hop: geometry.hop)
        for analyzer in [level, centroid, onsets] as [FrameAnalyzer] { analyzer.reserveCapacity(frames: frames) }
    }

    /// The longest signal `expect(samples:)` reserves room for, in seconds.
    static let maxExpectedSeconds = 4 * 3600.0

    /// `push(_:)` for an array.
    /// - Parameter samples: the next mono samples of the signal.
    public func push(_ samples: [Float]) {
        samples.withUnsafeBufferPointer { push($0) }
    }

    /// Ends the signal: the remaining frames are analysed and the onsets judged. Call once.
    /// - Returns: the features per frame, the onsets, the loudness in LUFS and where each sound starts.
    public func finish() -> AnalysisResult {
        frames.finish(frame: analyse) { _ in }
        let loudest = frames.loudness.finish()
        let soundStarts = starts.finish()
        let detected = Self.afterSilences(onsets.finish(), soundStarts, sampleRate: geometry.sampleRate)
        var features: [String: [Float]] = [:]
        for analyzer in [level, centroid, onsets] as [FrameAnalyzer] { features.merge(analyzer.outputs) { $1 } }
        return AnalysisResult(sampleRate: geometry.sampleRate, sampleCount: sampleCount,
                              hopSeconds: geometry.hopSeconds, features: features, onsets: detected,
                              loudestMomentaryLufs: loudest, soundStarts: soundStarts)
    }

    /// The onsets, each one that lies in the silence before a sound, more than
    /// `SoundStarts.allowedLead` before its first audible sample, moved onto that sample (an
    /// attack placed early by its frame must not be felt before it is heard); of onsets that
    /// land together, the first is kept.
    static func afterSilences(_ detected: [DetectedOnset], _ starts: [SoundStarts.Start], sampleRate: Double) -> [DetectedOnset] {
        var result: [DetectedOnset] = []
        for var onset in detected {
            let next = starts.partitioningIndex { $0.time > onset.time }
            if next < starts.count, starts[next].silenceStart <= onset.time,
               onset.time < starts[next].time - SoundStarts.allowedLead {
                let start = starts[next]
                onset.time = start.time
                onset.sample = Int((start.time * sampleRate).rounded())
            }
            if let last = result.last, last.time >= onset.time { continue }
            result.append(onset)
        }
        return result
    }

    /// Calls the analyzers directly rather than through a list of `FrameAnalyzer`s (no retain
    /// and release per analyzer and frame).
    private func analyse(_ frame: SpectralFrame) {
        level.process(frame)
        centroid.process(frame)
    }
}
