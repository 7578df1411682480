#if canImport(Accelerate)
import Accelerate

/// A forward real FFT on Accelerate's vDSP (`vDSP_fft_zrip`), for power-of-two sizes, on
/// Apple platforms only: Accelerate is part of every Apple OS, so an app takes on no
/// licence and no library with it. Its output is rescaled and unpacked to the protocol's
/// layout (vDSP's packed form doubles every bin and keeps the Nyquist bin's real part in
/// bin 0's imaginary slot). Not compiled or run on Linux, where this package is tested.
public final class AccelerateRealFFT: RealTransform {
    public let size: Int
    public let binCount: Int
    public let input: UnsafeMutablePointer<Float>
    private let output: UnsafeMutablePointer<Float>
    private let re: UnsafeMutablePointer<Float>
    private let im: UnsafeMutablePointer<Float>
    private let log2Size: vDSP_Length
    private let setup: FFTSetup

    /// - Parameter size: a power of two, at least 16.
    public init(size: Int) {
        precondition(size >= 16 && size & (size - 1) == 0, "AccelerateRealFFT needs a power-of-two size of at least 16")
        self.size = size
        binCount = size / 2 + 1
        var bits = 0
        while 1 << bits < size { bits += 1 }
        log2Size = vDSP_Length(bits)
        setup = vDSP_create_fftsetup(log2Size, FFTRadix(kFFTRadix2))!
        input = .allocate(capacity: size)
        input.initialize(repeating: 0, count: size)
        output = .allocate(capacity: 2 * binCount)
        output.initialize(repeating: 0, count: 2 * binCount)
        re = .allocate(capacity: size / 2)
        re.initialize(repeating: 0, count: size / 2)
        im = .allocate(capacity: size / 2)
        im.initialize(repeating: 0, count: size / 2)
    }

    deinit {
        vDSP_destroy_fftsetup(setup)
        for pointer in [input, output, re, im] { pointer.deallocate() }
    }

    public var spectrum: UnsafePointer<Float> { UnsafePointer(output) }

    public func execute() {
        let half = size / 2
        var split = DSPSplitComplex(realp: re, imagp: im)
        input.withMemoryRebound(to: DSPComplex.self, capacity: half) {
            vDSP_ctoz($0, 2, &split, 1, vDSP_Length(half))
        }
        vDSP_fft_zrip(setup, &split, 1, log2Size, FFTDirection(FFT_FORWARD))
        output[0] = 0.5 * re[0]
        output[1] = 0
        output[2 * half] = 0.5 * im[0]
        output[2 * half + 1] = 0
        for k in 1..<half {
            output[2 * k] = 0.5 * re[k]
            output[2 * k + 1] = 0.5 * im[k]
        }
    }
}
#endif
