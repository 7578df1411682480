import TactusCore
import TactusFFT
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One analysis frame, handed to every analyzer in turn.
///
/// The STFT reuses a single instance for every frame, so analyzers read it during
/// `process` and must not keep it (nor its buffers: `samples` points into the STFT's pending
/// samples, not into a copy). Its buffers are allocated once and exposed as read-only
/// buffer pointers: per-element access then costs no copy-on-write or exclusivity checks,
/// which would otherwise dominate the hot loop.
public final class SpectralFrame {
    // Per-frame state below is `@exclusivity(unchecked)`: a frame and its STFT are used by
    // one thread, and no access to these properties is ever nested in another (none is
    // passed `inout` to code that reaches back to it), so the runtime check Swift makes on
    // every write to a class's stored property (a few hundred instructions per frame) finds
    // nothing (outputs byte-identical).
    /// Frame number; the frame is centred on sample `index * hop`.
    @exclusivity(unchecked) public internal(set) var index = 0
    /// Time of the frame centre in seconds.
    @exclusivity(unchecked) public internal(set) var time = 0.0
    /// The signal's sample rate, in Hz.
    public let sampleRate: Double
    /// Width of one FFT bin in Hz.
    public let binHz: Double
    /// RMS level of `samples` in dBFS (a full-scale sine reads −3 dB), floored at −120.
    @exclusivity(unchecked) public internal(set) var levelDb: Float = -120

    /// Zeros, the samples of the silent frame `init` makes; afterwards `samplesStart` points
    /// into the STFT's own buffer of pending samples, valid while analyzers see the frame.
    let samplesStorage: UnsafeMutableBufferPointer<Float>
    @exclusivity(unchecked) var samplesStart: UnsafePointer<Float>
    let magnitudeStorage: UnsafeMutableBufferPointer<Float>
    let realStorage: UnsafeMutableBufferPointer<Float>
    let imagStorage: UnsafeMutableBufferPointer<Float>
    let powerStorage: UnsafeMutableBufferPointer<Float>

    /// The FFT's interleaved (real, imaginary) output for this frame, unscaled; split into
    /// `real`/`imag` only when a phase-aware method asks, since most never do.
    @exclusivity(unchecked) var spectrum: UnsafePointer<Float>?
    /// Whether `magnitudeStorage` holds this frame's magnitudes: they are derived from
    /// `power` when first asked for (the brightness sums take their square roots from the
    /// power spectrum as they go, so in the default analysis nothing asks).
    @exclusivity(unchecked) var magnitudeReady = true

    /// The frame's samples before windowing (`windowLength` values).
    public var samples: UnsafeBufferPointer<Float> {
        UnsafeBufferPointer(start: samplesStart, count: samplesStorage.count)
    }
    /// Magnitude spectrum of the windowed frame, scaled so a full-scale sine peaks near 0.5.
    public var magnitude: UnsafeBufferPointer<Float> {
        if !magnitudeReady {
            magnitudes(ofPower: powerStorage.baseAddress!, into: magnitudeStorage.baseAddress!,
                       count: magnitudeStorage.count)
            magnitudeReady = true
        }
        return UnsafeBufferPointer(magnitudeStorage)
    }
    /// Number of bins (`fftSize / 2 + 1`).
    public var binCount: Int { powerStorage.count }
    /// Complex spectrum (same scale), for phase-aware methods.
    public var real: UnsafeBufferPointer<Float> {
        splitSpectrum()
        return UnsafeBufferPointer(realStorage)
    }
    /// The imaginary parts, beside `real`.
    public var imag: UnsafeBufferPointer<Float> {
        splitSpectrum()
        return UnsafeBufferPointer(imagStorage)
    }
    /// Squared magnitudes (power spectrum), for energy sums without square roots.
    public var power: UnsafeBufferPointer<Float> { UnsafeBufferPointer(powerStorage) }

    /// A silent frame of the given shape.
    /// - Parameters:
    ///   - windowLength: samples per frame.
    ///   - binCount: spectrum bins, `fftSize / 2 + 1`.
    ///   - sampleRate: the signal's sample rate, in Hz.
    ///   - fftSize: the FFT length, at least `windowLength`.
    public init(windowLength: Int, binCount: Int, sampleRate: Double, fftSize: Int) {
        self.sampleRate = sampleRate
        binHz = sampleRate / Double(fftSize)
        func zeros(_ n: Int) -> UnsafeMutableBufferPointer<Float> {
            let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: n)
            buffer.initialize(repeating: 0)
            return buffer
        }
        samplesStorage = zeros(windowLength)
        samplesStart = UnsafePointer(samplesStorage.baseAddress!)
        magnitudeStorage = zeros(binCount)
        realStorage = zeros(binCount)
        imagStorage = zeros(binCount)
        // Zeros past the last bin, never written: the filterbank reads whole groups of four.
        powerStorage = UnsafeMutableBufferPointer(rebasing: zeros(binCount + Self.powerPadding)[0..<binCount])
    }

    deinit {
        for buffer in [samplesStorage, magnitudeStorage, realStorage, imagStorage, powerStorage] { buffer.deallocate() }
    }

    /// Zero floats allocated after `power`'s last bin, so sums over groups of four may run
    /// past it.
    static let powerPadding = 4

    /// Scale applied to the FFT output, so a full-scale sine peaks near 0.5 whatever the
    /// window length (the window is normalised to sum to 2).
    static let spectrumScale: Float = 0.5

    private func splitSpectrum() {
        guard let source = spectrum else { return }
        for k in realStorage.indices {
            realStorage[k] = source[2 * k] * Self.spectrumScale
            imagStorage[k] = source[2 * k + 1] * Self.spectrumScale
        }
        spectrum = nil
    }
}

/// Frame geometry derived from millisecond settings, so analysis means the same at any rate.
public struct FrameGeometry: Equatable, Sendable {
    /// The signal's sample rate, in Hz.
    public let sampleRate: Double
    /// Samples per window.
    public let windowLength: Int
    /// Samples between frame centres.
    public let hop: Int
    /// FFT length: the window rounded up to a power of two.
    public let fftSize: Int

    /// Window and hop rounded to whole samples (at least 16 and 1).
    /// - Parameters:
    ///   - sampleRate: the signal's sample rate, in Hz.
    ///   - windowMs: the window length, in ms.
    ///   - hopMs: the time between frames, in ms.
    public init(sampleRate: Double, windowMs: Double, hopMs: Double) {
        self.sampleRate = sampleRate
        windowLength = max(16, Int((windowMs * sampleRate / 1000).rounded()))
        hop = max(1, Int((hopMs * sampleRate / 1000).rounded()))
        var size = 16
        while size < windowLength { size *= 2 }
        fftSize = size
    }

    /// Seconds between frames (exact, from the rounded hop).
    public var hopSeconds: Double { Double(hop) / sampleRate }
}

/// Streaming short-time Fourier transform: push mono samples in blocks of any size, get
/// centred frames at a fixed hop. Memory is one window plus one block, whatever the length.
///
/// Frames are centred like librosa's `center=True`: frame k covers samples
/// `k*hop - windowLength/2 ..< k*hop + windowLength/2`, with zeros outside the signal, and
/// frames are made while the centre lies inside the signal.
public final class STFT {
    /// The frames' window, hop and FFT size.
    public let geometry: FrameGeometry
    private let fft: any RealTransform
    private let window: [Float]
    private let frame: SpectralFrame
    // Unchecked as `SpectralFrame`'s per-frame state is (see there).
    @exclusivity(unchecked) private var pending: [Float]
    @exclusivity(unchecked) private var readPosition = 0
    @exclusivity(unchecked) private var nextIndex = 0
    @exclusivity(unchecked) private var samplesSeen = 0

    /// - Parameters:
    ///   - geometry: the frames to make.
    ///   - transform: the FFT that computes each frame's spectrum (`RealTransform`).
    public init(geometry: FrameGeometry, transform: any RealTransform.Type) {
        self.geometry = geometry
        fft = transform.init(size: geometry.fftSize)
        let n = geometry.windowLength
        window = Self.window(length: n)
        frame = SpectralFrame(windowLength: n, binCount: fft.binCount, sampleRate: geometry.sampleRate,
                              fftSize: geometry.fftSize)
        pending = Array(repeating: 0, count: n / 2)
        // The most it holds between compactions (`compact`) with pushes of up to a chunk: a
        // live stream's pushes then never regrow it.
        pending.reserveCapacity(9 * n + geometry.hop + OnsetDetector.maxChunk)
    }

    /// The frames' window: periodic Hann, scaled to sum to 2 so that magnitudes are
    /// independent of the window length. Made once per length per process.
    /// - Parameter length: samples per frame.
    /// - Returns: `length` weights.
    static func window(length n: Int) -> [Float] {
        windows.value(for: n) { makeWindow(length: n) }
    }

    private static let windows = ProcessCache<Int, [Float]>()

    /// `window(length:)`'s weights, computed.
    private static func makeWindow(length n: Int) -> [Float] {
        let hann = (0..<n).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n)) }
        let sum = hann.reduce(0, +)
        return hann.map { Float($0 / sum * 2) }
    }

    /// Adds samples and calls `body` for each frame that became complete.
    /// - Parameters:
    ///   - samples: the next mono samples, any count.
    ///   - body: called with each completed frame, in order; the frame is valid only during the call.
    public func push(_ samples: UnsafeBufferPointer<Float>, _ body: (SpectralFrame) -> Void) {
        pending.append(contentsOf: samples)
        samplesSeen += samples.count
        emitCompleteFrames(body)
        compact()
    }

    /// Pads the end with zeros and emits the remaining frames whose centre lies in the signal.
    /// - Parameter body: called with each remaining frame, in order.
    public func finish(_ body: (SpectralFrame) -> Void) {
        pending.append(contentsOf: repeatElement(0, count: geometry.windowLength))
        emitCompleteFrames(body)
    }

    /// Number of frames produced for a signal of `sampleCount` samples.
    /// - Parameters:
    ///   - sampleCount: the signal's length in samples.
    ///   - hop: samples between frames, at least 1.
    /// - Returns: the frames `push` and `finish` emit together.
    public static func frameCount(sampleCount: Int, hop: Int) -> Int {
        sampleCount <= 0 ? 0 : (sampleCount - 1) / hop + 1
    }

    private func emitCompleteFrames(_ body: (SpectralFrame) -> Void) {
        let n = geometry.windowLength
        guard pending.count - readPosition >= n, nextIndex * geometry.hop < samplesSeen else { return }
        // The frame's samples are read in place: `pending` does not change until every
        // complete frame has been seen.
        pending.withUnsafeBufferPointer { source in
            while source.count - readPosition >= n, nextIndex * geometry.hop < samplesSeen {
                analyse(source.baseAddress! + readPosition)
                body(frame)
                readPosition += geometry.hop
                nextIndex += 1
            }
        }
        frame.samplesStart = UnsafePointer(frame.samplesStorage.baseAddress!)
    }

    private func analyse(_ samples: UnsafePointer<Float>) {
        let n = geometry.windowLength
        frame.index = nextIndex
        frame.time = Double(nextIndex * geometry.hop) / geometry.sampleRate
        let input = fft.input
        frame.samplesStart = samples
        let energy = window.withUnsafeBufferPointer { multiply(samples, $0.baseAddress!, into: input, count: n) }
        frame.levelDb = decibels(power: energy / Float(n))
        (input + n).update(repeating: 0, count: geometry.fftSize - n)
        fft.execute()
        frame.spectrum = fft.spectrum
        power(ofInterleaved: fft.spectrum, scale: SpectralFrame.spectrumScale,
              into: frame.powerStorage.baseAddress!, count: fft.binCount)
        frame.magnitudeReady = false
    }

    private func compact() {
        if readPosition > 8 * geometry.windowLength {
            // With a hop longer than the window, the next frame can start past the samples
            // that have arrived so far: drop what there is and keep the rest of the offset.
            let consumed = min(readPosition, pending.count)
            pending.removeFirst(consumed)
            readPosition -= consumed
        }
    }
}
