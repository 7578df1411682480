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
    public let geometry: FrameGeometry
    /// Frames a frame waits for before it is judged (`PeakPicker.lookahead`).
    public let lookaheadFrames: Int
    private let stft: STFT
    private let onsets: OnsetDetector
    private let loudness: LoudnessMeter
    private let minHz: Double, maxHz: Double
    // Unchecked as `AnalysisSession`'s state is: one thread, no nested access.
    @exclusivity(unchecked) private var dcBlocker: DCBlocker
    @exclusivity(unchecked) private var filtered = [Float](repeating: 0, count: AnalysisSession.chunk)
    /// Samples pushed so far.
    @exclusivity(unchecked) public private(set) var sampleCount = 0

    /// - Parameters:
    ///   - sampleRate: the signal's sample rate, in Hz.
    ///   - configuration: the analysis parts' settings (its `transform` computes the STFT).
    public init(sampleRate: Double, configuration: AnalysisConfiguration) {
        geometry = configuration.geometry(sampleRate: sampleRate)
        stft = STFT(geometry: geometry, transform: configuration.transform)
        onsets = configuration.onsetDetector(geometry: geometry, live: true)
        lookaheadFrames = onsets.lookahead
        minHz = configuration.centroid.number(CentroidAnalyzer.minHz)
        maxHz = configuration.centroid.number(CentroidAnalyzer.maxHz)
        dcBlocker = DCBlocker(sampleRate: sampleRate)
        loudness = LoudnessMeter(geometry: geometry)
    }

    /// How far past an onset's frame centre the signal must have come before the picker has
    /// judged it, in samples: the look-ahead frames and the half window after the last one's
    /// centre. An onset released on its rising frame (`peaks.liveDecision` `rise`) is known
    /// half a window after that frame's centre.
    public var lookaheadSamples: Int { lookaheadFrames * geometry.hop + (geometry.windowLength - geometry.windowLength / 2) }

    /// The loudest momentary loudness (BS.1770) read so far, in LUFS (`LoudnessMeter.loudestSoFar`).
    public var loudestMomentaryLufs: Double { loudness.loudestSoFar }

    /// `loudestMomentaryLufs`, or the lower bound of the read in progress when louder (the energy
    /// its 400 ms block holds so far, `LoudnessMeter.loudestWithNextRead`), in LUFS: at most the
    /// loudest the whole signal reaches, and a sound's first 400 ms rise with it frame by frame.
    public var loudestMomentaryLufsWithNextRead: Double { loudness.loudestWithNextRead }

    /// Analyses the next mono samples (−1…1, any block size).
    /// - Parameters:
    ///   - samples: the next samples of the signal, in order.
    ///   - frame: called with each frame that became complete, in order.
    ///   - onset: called with each onset released, after the frame that released it, and the
    ///     stream position from which it is known, in samples: that frame's end.
    public func push(_ samples: UnsafeBufferPointer<Float>, frame: (Frame) -> Void, onset: OnsetRelease) {
        sampleCount += samples.count
        var start = 0
        while start < samples.count {
            // The blocker may add up to three samples held from the previous piece.
            let raw = UnsafeBufferPointer(rebasing: samples[start..<min(samples.count, start + AnalysisSession.chunk - 3)])
            let count = filtered.withUnsafeMutableBufferPointer { dcBlocker.process(raw, into: $0) }
            analyseFiltered(count, frame: frame, onset: onset)
            start += raw.count
        }
    }

    /// Ends the signal: the last frames are analysed and judged. Call once.
    /// - Parameters:
    ///   - frame: called with each remaining frame, in order.
    ///   - onset: called with each onset released by them and the stream position from which
    ///     it is known, in samples (the end of its frame, or of the signal).
    public func finish(frame: (Frame) -> Void, onset: OnsetRelease) {
        analyseFiltered(filtered.withUnsafeMutableBufferPointer { dcBlocker.flush(into: $0) }, frame: frame, onset: onset)
        stft.finish { analyse($0, frame: frame, onset: onset) }
        _ = loudness.finish()
        _ = onsets.finish()
        onsets.release { onset($0, sampleCount) }
    }

    private func analyseFiltered(_ count: Int, frame: (Frame) -> Void, onset: OnsetRelease) {
        filtered.withUnsafeBufferPointer { buffer in
            let piece = UnsafeBufferPointer(rebasing: buffer[0..<count])
            // The meter holds the samples until the frames that cover them arrive.
            loudness.push(piece)
            onsets.append(samples: piece)
            stft.push(piece) { analyse($0, frame: frame, onset: onset) }
        }
    }

    private func analyse(_ spectral: SpectralFrame, frame: (Frame) -> Void, onset: OnsetRelease) {
        let moments = BandMoments(of: spectral, minHz: minHz, maxHz: maxHz)
        frame(Frame(index: spectral.index, levelDb: spectral.levelDb, centroidHz: moments.centroid,
                    weightedOctaves: moments.weightedOctaves(of: spectral)))
        onsets.process(spectral)
        loudness.process(spectral)
        let end = spectral.index * geometry.hop + geometry.windowLength - geometry.windowLength / 2
        onsets.release { onset($0, end) }
    }
}
