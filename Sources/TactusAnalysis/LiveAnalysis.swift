import TactusCore

/// The analysis as a live stream runs it: push mono blocks of any size, get each frame's
/// features as soon as the frame is complete and each onset as soon as its frame is judged
/// (`lookaheadFrames` after it), or, with `peaks.liveDecision` `rise`, as soon as the frame
/// where it rises is complete (`PeakPicker.isRising`).
///
/// The frames, their features and the onsets' rules 1–5 are the offline pass's
/// (`AnalysisSession`): the same DC blocker, STFT, analyzers, peak picker and attack locator,
/// so the frame features are equal to the offline ones for the same transform, whatever the
/// block sizes. What only the whole file can tell is applied to what has been seen
/// (`OnsetDetector.LiveRelease`: the gates and the minimum interval), and an onset is not moved
/// onto a later sound start (`SoundStarts`), which needs the silence's end.
///
/// Memory is fixed at set-up: after `init`, `push` allocates nothing, takes no lock and does no
/// I/O (`LiveAllocationTests`).
public final class LiveAnalysis {
    /// The features of one frame.
    public struct Frame: Equatable, Sendable {
        /// Frame number; the frame is centred on sample `index * hop`.
        public var index: Int
        /// RMS level of the frame, dBFS (`LevelAnalyzer.output`).
        public var levelDb: Float
        /// Magnitude centroid, Hz; 0 for a silent frame (`CentroidAnalyzer.output`).
        public var centroidHz: Float
        /// Weighted centroid, log2 Hz; 0 for a silent frame (`CentroidAnalyzer.weightedOutput`).
        public var weightedOctaves: Float
    }

    /// Called with each released onset and the stream position from which it is known, in
    /// samples.
    public typealias OnsetRelease = (DetectedOnset, Int) -> Void

    /// Window, hop and FFT size in samples at this signal's rate.
    public var geometry: FrameGeometry { frames.geometry }
    /// Frames a frame waits for before it is judged (`PeakPicker.lookahead`).
    public var lookaheadFrames: Int { frames.onsets.lookahead }
    private let frames: FramePipeline
    private let minHz: Double, maxHz: Double
    /// Samples pushed so far.
    @exclusivity(unchecked) public private(set) var sampleCount = 0

    /// - Parameters:
    ///   - sampleRate: the signal's sample rate, in Hz.
    ///   - configuration: the analysis parts' settings (its `transform` computes the STFT).
    public init(sampleRate: Double, configuration: AnalysisConfiguration) {
        frames = FramePipeline(sampleRate: sampleRate, configuration: configuration, live: true)
        minHz = configuration.centroid.number(CentroidAnalyzer.minHz)
        maxHz = configuration.centroid.number(CentroidAnalyzer.maxHz)
    }

    /// How far past an onset's frame centre the signal must have come before the picker has
    /// judged it, in samples: the look-ahead frames and the half window after the last one's
    /// centre. An onset released on its rising frame (`peaks.liveDecision` `rise`) is known
    /// half a window after that frame's centre.
    public var lookaheadSamples: Int { lookaheadFrames * geometry.hop + (geometry.windowLength - geometry.windowLength / 2) }

    /// The loudest momentary loudness (BS.1770) read so far, in LUFS (`LoudnessMeter.loudestSoFar`).
    public var loudestMomentaryLufs: Double { frames.loudness.loudestSoFar }

    /// `loudestMomentaryLufs`, or the lower bound of the read in progress when louder (the energy
    /// its 400 ms block holds so far, `LoudnessMeter.loudestWithNextRead`), in LUFS: at most the
    /// loudest the whole signal reaches, and a sound's first 400 ms rise with it frame by frame.
    public var loudestMomentaryLufsWithNextRead: Double { frames.loudness.loudestWithNextRead }

    /// Analyses the next mono samples (−1…1, any block size).
    /// - Parameters:
    ///   - samples: the next samples of the signal, in order.
    ///   - frame: called with each frame that became complete, in order.
    ///   - onset: called with each onset released, after the frame that released it, and the
    ///     stream position from which it is known, in samples: that frame's end.
    public func push(_ samples: UnsafeBufferPointer<Float>, frame: (Frame) -> Void, onset: OnsetRelease) {
        sampleCount += samples.count
        frames.push(samples, frame: { features($0, frame) }, judged: { release($0, onset) })
    }

    /// Ends the signal: the last frames are analysed and judged. Call once.
    /// - Parameters:
    ///   - frame: called with each remaining frame, in order.
    ///   - onset: called with each onset released by them and the stream position from which
    ///     it is known, in samples (the end of its frame, or of the signal).
    public func finish(frame: (Frame) -> Void, onset: OnsetRelease) {
        frames.finish(frame: { features($0, frame) }, judged: { release($0, onset) })
        _ = frames.loudness.finish()
        _ = frames.onsets.finish()
        frames.onsets.release { onset($0, sampleCount) }
    }

    /// Hands on the features of the frame `spectral`, before the onsets read it.
    private func features(_ spectral: SpectralFrame, _ frame: (Frame) -> Void) {
        let moments = BandMoments(of: spectral, minHz: minHz, maxHz: maxHz)
        frame(Frame(index: spectral.index, levelDb: spectral.levelDb, centroidHz: moments.centroid,
                    weightedOctaves: moments.weightedOctaves(of: spectral)))
    }

    /// Hands on the onsets released once the frame `spectral` is judged, known from its end.
    private func release(_ spectral: SpectralFrame, _ onset: OnsetRelease) {
        let end = spectral.index * geometry.hop + geometry.windowLength - geometry.windowLength / 2
        frames.onsets.release { onset($0, end) }
    }
}
