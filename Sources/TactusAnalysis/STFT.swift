import Foundation

/// One analysis frame, handed to every analyzer in turn.
///
/// The STFT reuses a single instance for every frame, so analyzers read it during
/// `process` and must not keep it.
public final class SpectralFrame {
    /// Frame number; the frame is centred on sample `index * hop`.
    public internal(set) var index = 0
    /// Time of the frame centre in seconds.
    public internal(set) var time = 0.0
    public let sampleRate: Double
    /// The frame's samples before windowing (`windowLength` values).
    public internal(set) var samples: [Float]
    /// Magnitude spectrum of the windowed frame, scaled so a full-scale sine peaks near 0.5.
    public internal(set) var magnitude: [Float]
    /// Complex spectrum (same scale), for phase-aware methods.
    public internal(set) var real: [Float]
    public internal(set) var imag: [Float]
    /// Width of one FFT bin in Hz.
    public let binHz: Double
    /// RMS level of `samples` in dBFS (a full-scale sine reads −3 dB), floored at −120.
    public internal(set) var levelDb: Float = -120

    init(windowLength: Int, binCount: Int, sampleRate: Double, fftSize: Int) {
        self.sampleRate = sampleRate
        samples = Array(repeating: 0, count: windowLength)
        magnitude = Array(repeating: 0, count: binCount)
        real = Array(repeating: 0, count: binCount)
        imag = Array(repeating: 0, count: binCount)
        binHz = sampleRate / Double(fftSize)
    }
}

/// Frame geometry derived from millisecond settings, so analysis means the same at any rate.
public struct FrameGeometry: Equatable, Sendable {
    public let sampleRate: Double
    public let windowLength: Int
    public let hop: Int
    public let fftSize: Int

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
    public let geometry: FrameGeometry
    private let fft: RealFFT
    private let window: [Float]
    private let frame: SpectralFrame
    private var pending: [Float]
    private var readPosition = 0
    private var nextIndex = 0
    private var samplesSeen = 0

    public init(geometry: FrameGeometry) {
        self.geometry = geometry
        fft = RealFFT(size: geometry.fftSize)
        let n = geometry.windowLength
        // Periodic Hann, scaled so that magnitudes are independent of the window length.
        let hann = (0..<n).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n)) }
        let sum = hann.reduce(0, +)
        window = hann.map { Float($0 / sum * 2) }
        frame = SpectralFrame(windowLength: n, binCount: fft.binCount, sampleRate: geometry.sampleRate,
                              fftSize: geometry.fftSize)
        pending = Array(repeating: 0, count: n / 2)
        pending.reserveCapacity(n * 4)
    }

    /// Adds samples and calls `body` for each frame that became complete.
    public func push(_ samples: UnsafeBufferPointer<Float>, _ body: (SpectralFrame) -> Void) {
        pending.append(contentsOf: samples)
        samplesSeen += samples.count
        emitCompleteFrames(body)
        compact()
    }

    /// Pads the end with zeros and emits the remaining frames whose centre lies in the signal.
    public func finish(_ body: (SpectralFrame) -> Void) {
        pending.append(contentsOf: repeatElement(0, count: geometry.windowLength))
        emitCompleteFrames(body)
    }

    /// Number of frames produced for a signal of `sampleCount` samples.
    public static func frameCount(sampleCount: Int, hop: Int) -> Int {
        sampleCount <= 0 ? 0 : (sampleCount - 1) / hop + 1
    }

    private func emitCompleteFrames(_ body: (SpectralFrame) -> Void) {
        let n = geometry.windowLength
        while pending.count - readPosition >= n, nextIndex * geometry.hop < samplesSeen {
            analyse(from: readPosition)
            body(frame)
            readPosition += geometry.hop
            nextIndex += 1
        }
    }

    private func analyse(from start: Int) {
        let n = geometry.windowLength
        frame.index = nextIndex
        frame.time = Double(nextIndex * geometry.hop) / geometry.sampleRate
        pending.withUnsafeBufferPointer { src in
            frame.samples.withUnsafeMutableBufferPointer { dst in
                for i in 0..<n { dst[i] = src[start + i] }
            }
        }
        let input = fft.input
        var power: Float = 0
        frame.samples.withUnsafeBufferPointer { s in
            for i in 0..<n {
                input[i] = s[i] * window[i]
                power += s[i] * s[i]
            }
        }
        frame.levelDb = decibels(power: power / Float(n))
        for i in n..<geometry.fftSize { input[i] = 0 }
        fft.execute()
        let scale: Float = 0.5
        for k in 0..<fft.binCount {
            let re = fft.real(k) * scale, im = fft.imag(k) * scale
            frame.real[k] = re
            frame.imag[k] = im
            frame.magnitude[k] = (re * re + im * im).squareRoot()
        }
    }

    private func compact() {
        if readPosition > 8 * geometry.windowLength {
            pending.removeFirst(readPosition)
            readPosition = 0
        }
    }
}
