import TactusCore

/// The frames the offline pass and a live stream make of the raw mono samples, alike: the DC
/// blocker, then on the blocked samples the loudness meter, the onset history and the STFT.
/// Each complete frame goes to the caller (`frame`), then to the onset detector and the meter,
/// then to the caller again (`judged`).
///
/// Samples are handed on at most `chunk` at a time (the onset history is sized to cover one
/// chunk beyond the frames still being judged). Memory is fixed at `init`: pushing allocates
/// nothing.
final class FramePipeline {
    /// Samples handed on at once.
    static let chunk = OnsetDetector.maxChunk

    /// Window, hop and FFT size in samples at this signal's rate.
    let geometry: FrameGeometry
    /// The onsets, fed every frame.
    let onsets: OnsetDetector
    /// The loudness, fed every blocked sample and every frame.
    let loudness: LoudnessMeter
    private let stft: STFT
    // Unchecked, as `SpectralFrame`'s state is: a pipeline is used by one thread and no access
    // to its state is nested in another.
    @exclusivity(unchecked) private var dcBlocker: DCBlocker
    /// The current chunk with its DC removed.
    @exclusivity(unchecked) private var filtered = [Float](repeating: 0, count: FramePipeline.chunk)

    /// - Parameters:
    ///   - sampleRate: the signal's sample rate, in Hz.
    ///   - configuration: the analysis parts' settings (its `transform` computes the STFT).
    ///   - live: judge onsets as a live stream does (`OnsetDetector`'s `live`).
    init(sampleRate: Double, configuration: AnalysisConfiguration, live: Bool) {
        geometry = configuration.geometry(sampleRate: sampleRate)
        stft = STFT(geometry: geometry, transform: configuration.transform)
        onsets = configuration.onsetDetector(geometry: geometry, live: live)
        loudness = LoudnessMeter(geometry: geometry)
        dcBlocker = DCBlocker(sampleRate: sampleRate)
    }

    /// Takes the next raw mono samples (−1…1, any count).
    /// - Parameters:
    ///   - samples: the next samples of the signal, in order.
    ///   - frame: called with each frame that became complete, in order, before the onset
    ///     detector and the meter read it; valid only during the call.
    ///   - judged: called with each frame after the onset detector and the meter read it.
    func push(_ samples: UnsafeBufferPointer<Float>, frame: (SpectralFrame) -> Void, judged: (SpectralFrame) -> Void) {
        var start = 0
        while start < samples.count {
            // The blocker may add up to three samples held from the previous piece.
            let raw = UnsafeBufferPointer(rebasing: samples[start..<min(samples.count, start + Self.chunk - 3)])
            let count = filtered.withUnsafeMutableBufferPointer { dcBlocker.process(raw, into: $0) }
            analyseFiltered(count, frame: frame, judged: judged)
            start += raw.count
        }
    }

    /// Ends the signal: the blocker's last samples, then the STFT's last frames. Call once.
    /// - Parameters:
    ///   - frame: called with each remaining frame, as in `push`.
    ///   - judged: called with each remaining frame after the onset detector and the meter.
    func finish(frame: (SpectralFrame) -> Void, judged: (SpectralFrame) -> Void) {
        analyseFiltered(filtered.withUnsafeMutableBufferPointer { dcBlocker.flush(into: $0) }, frame: frame, judged: judged)
        stft.finish { analyse($0, frame: frame, judged: judged) }
    }

    /// Hands the first `count` samples of `filtered` to the meter, the onset history and the STFT.
    private func analyseFiltered(_ count: Int, frame: (SpectralFrame) -> Void, judged: (SpectralFrame) -> Void) {
        filtered.withUnsafeBufferPointer { buffer in
            let piece = UnsafeBufferPointer(rebasing: buffer[0..<count])
            // The meter holds the samples until the frames that cover them arrive.
            loudness.push(piece)
            onsets.append(samples: piece)
            stft.push(piece) { analyse($0, frame: frame, judged: judged) }
        }
    }

    private func analyse(_ spectral: SpectralFrame, frame: (SpectralFrame) -> Void, judged: (SpectralFrame) -> Void) {
        frame(spectral)
        onsets.process(spectral)
        loudness.process(spectral)
        judged(spectral)
    }
}
