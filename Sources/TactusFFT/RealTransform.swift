/// A forward real-to-complex FFT of one size: the seam between the analysis and whichever
/// library computes it.
///
/// The analysis (`TactusAnalysis`) takes its FFT only through this protocol, so the modules an
/// app embeds link no system library: `SwiftRealFFT` (this module, pure Swift) or, on Apple
/// platforms, `AccelerateRealFFT` (vDSP); the `tactus` command line hands the analysis
/// FFTW's (`TactusSpectrum`), whose outputs its golden files were made with.
///
/// A transform owns its buffers and is used by one thread at a time; after `init` no call
/// allocates, locks or does I/O (`TactusLive` runs it on an audio thread).
public protocol RealTransform: AnyObject {
    /// A transform of `size` real samples. Every conforming type accepts the sizes the STFT
    /// asks for (a power of two, at least 16); `SwiftRealFFT` accepts only powers of two.
    /// - Parameter size: real input samples per transform, at least 2.
    init(size: Int)
    /// Real input samples per transform.
    var size: Int { get }
    /// Number of complex bins: `size / 2 + 1`.
    var binCount: Int { get }
    /// Time-domain input; fill `size` values, then call `execute()`. The transform may
    /// overwrite it.
    var input: UnsafeMutablePointer<Float> { get }
    /// Transforms `input` into `spectrum`.
    func execute()
    /// The spectrum after `execute()`: `binCount` (real, imaginary) pairs, unscaled (bin k is
    /// Σ x[n]·e^(−2πikn/size), as FFTW's r2c computes it).
    var spectrum: UnsafePointer<Float> { get }
}

/// The transform an app's analysis uses when it names none.
public enum RealTransforms {
    /// vDSP (`AccelerateRealFFT`) where Accelerate exists, `SwiftRealFFT` elsewhere: both
    /// permissively licensed and present on every iPhone.
    public static var platformDefault: any RealTransform.Type {
        #if canImport(Accelerate)
        AccelerateRealFFT.self
        #else
        SwiftRealFFT.self
        #endif
    }
}
