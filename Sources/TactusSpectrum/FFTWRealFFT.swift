import CFFTW
import TactusCore
import TactusFFT

/// A forward real-to-complex FFT of one size on FFTW single precision: the `tactus` command
/// line's `RealTransform` (FFTW is GPL, so it stays out of the modules an app embeds).
///
/// Plans are made with `FFTW_ESTIMATE`, so the same input always gives the same output
/// (measured planning would pick different algorithms run to run). A plan is made once per
/// size for the whole process and shared. FFTW's planner is not thread-safe, so planning goes through one
/// lock; executing a plan on other arrays (`fftwf_execute_dft_r2c`) is, and each `RealFFT`
/// owns its buffers, so one instance per thread runs without locks.
public final class FFTWRealFFT: RealTransform {
    /// Real input samples per transform.
    public let size: Int
    /// Number of complex bins: size / 2 + 1.
    public let binCount: Int
    /// Time-domain input; fill `size` values, then call `execute()`.
    public let input: UnsafeMutablePointer<Float>
    private let output: UnsafeMutablePointer<fftwf_complex>
    private let plan: fftwf_plan

    /// - Parameter size: the transform length, at least 2 (a power of two is fastest).
    public required init(size: Int) {
        precondition(size >= 2, "FFT size must be at least 2")
        self.size = size
        self.binCount = size / 2 + 1
        // fftwf_alloc aligns for SIMD, as the planning arrays were: a shared plan requires it.
        input = fftwf_alloc_real(size)!
        input.initialize(repeating: 0, count: size)
        output = fftwf_alloc_complex(binCount)!
        plan = Self.plan(size: size)
    }

    deinit {
        fftwf_free(input)
        fftwf_free(output)
    }

    /// Transforms `input` (which FFTW may overwrite) into the complex spectrum.
    public func execute() {
        fftwf_execute_dft_r2c(plan, input, output)
    }

    /// The spectrum after `execute()` as `binCount` (real, imaginary) pairs, unscaled.
    public var spectrum: UnsafePointer<Float> { UnsafeRawPointer(output).assumingMemoryBound(to: Float.self) }

    /// One plan per size for the life of the process (a handful of sizes at most); the
    /// cache's lock serialises planning.
    private static let plans = ProcessCache<Int, fftwf_plan>()

    private static func plan(size: Int) -> fftwf_plan {
        plans.value(for: size) {
            let input = fftwf_alloc_real(size)!, output = fftwf_alloc_complex(size / 2 + 1)!
            defer {
                fftwf_free(input)
                fftwf_free(output)
            }
            return fftwf_plan_dft_r2c_1d(Int32(size), input, output, UInt32(FFTW_ESTIMATE | FFTW_DESTROY_INPUT))!
        }
    }
}
