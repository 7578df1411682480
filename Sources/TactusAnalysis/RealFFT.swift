import CFFTW
import Foundation

/// A forward real-to-complex FFT of one size on FFTW single precision.
///
/// Plans are made with `FFTW_ESTIMATE`, so the same input always gives the same output
/// (measured planning would pick different algorithms run to run). FFTW's planner is not
/// thread-safe, so planning goes through one lock; executing a plan is thread-safe, and each
/// `RealFFT` owns its buffers, so one instance per thread runs without locks.
public final class RealFFT {
    public let size: Int
    /// Number of complex bins: size / 2 + 1.
    public let binCount: Int
    /// Time-domain input; fill `size` values, then call `execute()`.
    public let input: UnsafeMutablePointer<Float>
    private let output: UnsafeMutablePointer<fftwf_complex>
    private let plan: fftwf_plan

    private static let plannerLock = NSLock()

    public init(size: Int) {
        precondition(size >= 2, "FFT size must be at least 2")
        self.size = size
        self.binCount = size / 2 + 1
        input = fftwf_alloc_real(size)!
        input.initialize(repeating: 0, count: size)
        output = fftwf_alloc_complex(binCount)!
        RealFFT.plannerLock.lock()
        plan = fftwf_plan_dft_r2c_1d(Int32(size), input, output, UInt32(FFTW_ESTIMATE | FFTW_DESTROY_INPUT))!
        RealFFT.plannerLock.unlock()
    }

    deinit {
        RealFFT.plannerLock.lock()
        fftwf_destroy_plan(plan)
        RealFFT.plannerLock.unlock()
        fftwf_free(input)
        fftwf_free(output)
    }

    /// Transforms `input` (which FFTW may overwrite) into the complex spectrum.
    public func execute() {
        fftwf_execute(plan)
    }

    /// The spectrum after `execute()` as `binCount` (real, imaginary) pairs, unscaled.
    public var spectrum: UnsafePointer<Float> { UnsafeRawPointer(output).assumingMemoryBound(to: Float.self) }
}
