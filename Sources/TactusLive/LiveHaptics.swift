import TactusAnalysis
import TactusCore
import TactusFFT
import TactusMapping
import TactusPresets

/// Haptics from audio as it plays: push blocks of audio of any size (Float, interleaved or
/// planar, any rate and channel count), get `LiveEvent`s (transients, and the body's intensity
/// and sharpness once per analysis hop while it plays: 100 a second at the default 10 ms hop).
///
/// It runs a preset as `tactus convert` does (the same presets, `--set` keys and `feel`
/// controls), through `LiveAnalysis` and `LiveMapper`, which say what live cannot know that
/// offline does. Its FFT is `RealTransforms.platformDefault` (vDSP on Apple platforms, pure
/// Swift elsewhere): no system library, nothing GPL or LGPL.
///
/// Real-time safe after `init`: `push` allocates nothing, takes no lock and does no I/O, so it
/// may run on an audio thread (one thread at a time per instance). Events are handed to the
/// caller's closure during `push`; the closure must be real-time safe too. The events depend
/// on the audio only, never on the block sizes it came in.
public final class LiveHaptics {
    /// The budget an onset's look-ahead must fit by default, ms: presets whose analysis waits
    /// longer are refused (`LiveRefusal`).
    public static let defaultMaxLookaheadMs = 100.0
    /// Mono samples analysed at once (the mixdown's buffer).
    static let chunk = 1024

    /// The signal's sample rate, in Hz.
    public let sampleRate: Double
    /// Channels per frame of the pushed audio.
    public let channels: Int
    /// How long after a frame's centre its onset and its body are known at the latest, seconds:
    /// the peak picker's look-ahead and half a window (`LiveAnalysis.lookaheadSamples`); the body
    /// waits the same frames (`LiveMapper`'s `delayFrames`). With `peaks.liveDecision` `rise`, a
    /// clear attack is known half a window after its rising frame's centre.
    public let lookaheadSeconds: Double
    private let analysis: LiveAnalysis
    private let mapper: LiveMapper
    private let hop: Int
    private let frameEnd: Int
    @exclusivity(unchecked) private var mono: [Float]
    /// The raw mixdown's hop peaks, where the body looks for the silence before a sound.
    @exclusivity(unchecked) private var peaks: HopPeaks
    @exclusivity(unchecked) private var ended = false

    /// Sets up a stream; everything it needs is allocated here.
    /// - Parameters:
    ///   - preset: the resolved preset (`--set` overrides and `feel` applied).
    ///   - sampleRate: the audio's rate, in Hz (at least 1000).
    ///   - channels: channels per frame (at least 1).
    ///   - maxLookaheadMs: the longest look-ahead accepted, ms.
    ///   - transform: the FFT (`RealTransforms.platformDefault` unless given).
    /// - Throws: `LiveRefusal` when the preset's analysis looks further ahead than
    ///   `maxLookaheadMs`, or the rate or channel count cannot be analysed.
    public init(preset: ResolvedPreset, sampleRate: Double, channels: Int,
                maxLookaheadMs: Double = LiveHaptics.defaultMaxLookaheadMs,
                transform: any RealTransform.Type = RealTransforms.platformDefault) throws {
        guard sampleRate.isFinite, sampleRate >= 1000 else {
            throw LiveRefusal("a sample rate of \(sampleRate) Hz cannot be analysed (at least 1000 Hz)")
        }
        guard channels >= 1 else { throw LiveRefusal("\(channels) channels: at least 1 is needed") }
        var configuration = preset.analysisConfiguration()
        configuration.transform = transform
        let analysis = LiveAnalysis(sampleRate: sampleRate, configuration: configuration)
        let lookaheadMs = Double(analysis.lookaheadSamples) / sampleRate * 1000
        guard lookaheadMs <= maxLookaheadMs + 1e-9 else {
            throw LiveRefusal("preset \(preset.name) looks \(Int(lookaheadMs.rounded())) ms ahead (peaks.postMaxMs, peaks.postMedianMs and half of stft.windowMs), more than the live budget of \(Int(maxLookaheadMs.rounded())) ms")
        }
        self.analysis = analysis
        self.sampleRate = sampleRate
        self.channels = channels
        lookaheadSeconds = lookaheadMs / 1000
        let geometry = analysis.geometry
        hop = geometry.hop
        frameEnd = geometry.windowLength - geometry.windowLength / 2
        // A transient reads its attack window's frames: from its attack, which the locator
        // places up to `searchBackMs` (at most 200 ms) and half a window (at most 100 ms)
        // before its frame, itself the look-ahead behind the newest frame: 400 ms covers both.
        let reach = analysis.lookaheadFrames + Int((0.2 + 0.2 + geometry.hopSeconds) / geometry.hopSeconds) + 4
        // The body waits as long as an onset does, so the frames after it decide its regions.
        mapper = LiveMapper(mapper: preset.mapper(), hopSeconds: geometry.hopSeconds, historyFrames: reach,
                            delayFrames: analysis.lookaheadFrames)
        mono = Array(repeating: 0, count: Self.chunk)
        // A frame is complete half a window after its centre, and a chunk may be read ahead of it.
        peaks = HopPeaks(hop: hop, capacity: (Self.chunk + geometry.windowLength) / max(1, hop) + 4)
    }

    /// Analyses the next interleaved frames (`channels` samples each; a partial frame at the
    /// end is a precondition failure).
    /// - Parameters:
    ///   - interleaved: the next frames, channel samples side by side, −1…1.
    ///   - events: called with each event that became known, in order of `emittedAt`.
    public func push(interleaved: UnsafeBufferPointer<Float>, _ events: (LiveEvent) -> Void) {
        precondition(interleaved.count % channels == 0, "a whole number of frames")
        let frames = interleaved.count / channels
        var start = 0
        while start < frames {
            let n = min(Self.chunk, frames - start)
            mono.withUnsafeMutableBufferPointer { mono in
                Mixdown.mono(UnsafeBufferPointer(rebasing: interleaved[(start * channels)...]), frames: n, channels: channels, into: mono)
            }
            analyse(n, events)
            start += n
        }
    }

    /// Analyses the next planar frames (one buffer per channel, as `AVAudioPCMBuffer`'s
    /// `floatChannelData`).
    /// - Parameters:
    ///   - planar: `channels` pointers, each to at least `frames` samples, −1…1.
    ///   - frames: frames in each buffer.
    ///   - events: called with each event that became known, in order of `emittedAt`.
    public func push(planar: UnsafePointer<UnsafeMutablePointer<Float>>, frames: Int, _ events: (LiveEvent) -> Void) {
        var start = 0
        while start < frames {
            let n = min(Self.chunk, frames - start)
            mono.withUnsafeMutableBufferPointer { mono in
                Mixdown.mono(planar: planar, channels: channels, offset: start, frames: n, into: mono)
            }
            analyse(n, events)
            start += n
        }
    }

    /// Ends the stream: the frames still waiting for samples after the end are analysed as if
    /// silence followed, and the onsets still waiting for their look-ahead are released (at
    /// `emittedAt` = the end). Call once; nothing may be pushed after it.
    /// - Parameter events: called with each event, in order.
    public func finish(_ events: (LiveEvent) -> Void) {
        precondition(!ended, "finish is called once")
        ended = true
        let end = Double(analysis.sampleCount) / sampleRate
        analysis.finish(frame: { handle($0, events, ceiling: end) }, onset: { handle($0, known: $1, events, ceiling: end) })
        mapper.finish(gain: mapper.gain(loudestLufs: analysis.loudestMomentaryLufsWithNextRead)) { emit($0, events, at: end) }
    }

    private func analyse(_ count: Int, _ events: (LiveEvent) -> Void) {
        precondition(!ended, "nothing is pushed after finish")
        mono.withUnsafeBufferPointer { mono in
            peaks.push(UnsafeBufferPointer(rebasing: mono[0..<count]))
            analysis.push(UnsafeBufferPointer(rebasing: mono[0..<count]),
                          frame: { handle($0, events, ceiling: .infinity) }, onset: { handle($0, known: $1, events, ceiling: .infinity) })
        }
    }

    /// The stream position, seconds, from which frame `index` is complete, at most `ceiling`.
    private func known(frame index: Int, ceiling: Double) -> Double {
        min(ceiling, Double(index * hop + frameEnd) / sampleRate)
    }

    private func handle(_ frame: LiveAnalysis.Frame, _ events: (LiveEvent) -> Void, ceiling: Double) {
        let gain = mapper.gain(loudestLufs: analysis.loudestMomentaryLufsWithNextRead)
        guard let body = mapper.frame(levelDb: frame.levelDb, centroidHz: frame.centroidHz,
                                      weightedOctaves: frame.weightedOctaves,
                                      peakBefore: peaks.peak(beforeFrame: frame.index), gain: gain) else { return }
        emit(body, events, at: known(frame: frame.index, ceiling: ceiling))
    }

    private func emit(_ body: LiveMapper.Body, _ events: (LiveEvent) -> Void, at emittedAt: Double) {
        events(LiveEvent(kind: .continuous, time: Double(body.frame * hop) / sampleRate, intensity: body.intensity,
                         sharpness: body.sharpness, emittedAt: emittedAt))
    }

    /// - Parameter sample: the stream position from which the onset is known, in samples.
    private func handle(_ onset: DetectedOnset, known sample: Int, _ events: (LiveEvent) -> Void, ceiling: Double) {
        let gain = mapper.gain(loudestLufs: analysis.loudestMomentaryLufsWithNextRead)
        guard let transient = mapper.transient(at: onset.time, gain: gain) else { return }
        events(LiveEvent(kind: .transient, time: onset.time, intensity: transient.intensity,
                         sharpness: transient.sharpness, emittedAt: min(ceiling, Double(sample) / sampleRate)))
    }
}

/// Why a stream cannot be set up, on one line.
public struct LiveRefusal: Error, Equatable, CustomStringConvertible {
    /// The reason, one line.
    public let description: String

    init(_ description: String) { self.description = description }
}
