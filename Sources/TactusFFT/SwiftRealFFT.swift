#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A forward real FFT in pure Swift (this package's own code, under its licence) for sizes
/// that are a power of two, which is every size the STFT asks for (`FrameGeometry.fftSize`:
/// the window rounded up to a power of two, at least 16).
///
/// The `size` real samples are read as `size / 2` complex ones (even samples real, odd
/// imaginary), transformed by an iterative radix-2 complex FFT, and split into the real
/// signal's spectrum with one more twiddle per bin. Twiddles are computed once in Double and
/// stored as Float; the arithmetic is Float. Against FFTW single precision it agrees within
/// 1e-6 of each frame's largest bin (`RealTransformTests`). Set-up allocates; `execute()` does not.
public final class SwiftRealFFT: RealTransform {
    public let size: Int
    public let binCount: Int
    public let input: UnsafeMutablePointer<Float>
    /// Interleaved (real, imaginary) output, `binCount` pairs.
    private let output: UnsafeMutablePointer<Float>
    /// Half the size: the complex FFT's length.
    private let half: Int
    /// The complex FFT's working arrays, `half` values each.
    private let re: UnsafeMutablePointer<Float>
    private let im: UnsafeMutablePointer<Float>
    /// cos and −sin of 2πj/half for j < half/2: the complex FFT's twiddles.
    private let cosines: UnsafeMutablePointer<Float>
    private let sines: UnsafeMutablePointer<Float>
    /// cos and −sin of 2πk/size for k ≤ half: the split's twiddles.
    private let splitCosines: UnsafeMutablePointer<Float>
    private let splitSines: UnsafeMutablePointer<Float>
    /// Bit-reversed index of each of the `half` complex samples.
    private let reversed: UnsafeMutablePointer<Int32>

    /// - Parameter size: a power of two, at least 2.
    public init(size: Int) {
        precondition(size >= 2 && size & (size - 1) == 0, "SwiftRealFFT needs a power-of-two size")
        self.size = size
        binCount = size / 2 + 1
        half = size / 2
        func floats(_ n: Int) -> UnsafeMutablePointer<Float> {
            let pointer = UnsafeMutablePointer<Float>.allocate(capacity: max(1, n))
            pointer.initialize(repeating: 0, count: max(1, n))
            return pointer
        }
        input = floats(size)
        output = floats(2 * binCount)
        re = floats(half)
        im = floats(half)
        cosines = floats(half / 2)
        sines = floats(half / 2)
        for j in 0..<half / 2 {
            let angle = 2 * Double.pi * Double(j) / Double(half)
            cosines[j] = Float(cos(angle))
            sines[j] = Float(-sin(angle))
        }
        splitCosines = floats(half + 1)
        splitSines = floats(half + 1)
        for k in 0...half {
            let angle = 2 * Double.pi * Double(k) / Double(size)
            splitCosines[k] = Float(cos(angle))
            splitSines[k] = Float(-sin(angle))
        }
        reversed = .allocate(capacity: half)
        var bits = 0
        while 1 << bits < half { bits += 1 }
        for j in 0..<half {
            var r = 0
            for b in 0..<bits where j & (1 << b) != 0 { r |= 1 << (bits - 1 - b) }
            reversed[j] = Int32(r)
        }
    }

    deinit {
        for pointer in [input, output, re, im, cosines, sines, splitCosines, splitSines] { pointer.deallocate() }
        reversed.deallocate()
    }

    public var spectrum: UnsafePointer<Float> { UnsafePointer(output) }

    public func execute() {
        let n = half
        // Even samples as the real parts, odd as the imaginary, in bit-reversed order.
        for j in 0..<n {
            let r = Int(reversed[j])
            re[r] = input[2 * j]
            im[r] = input[2 * j + 1]
        }
        var length = 2
        while length <= n {
            let halfLength = length / 2, stride = n / length
            var start = 0
            while start < n {
                for j in 0..<halfLength {
                    let (c, s) = (cosines[j * stride], sines[j * stride])
                    let a = start + j, b = a + halfLength
                    let tr = re[b] * c - im[b] * s
                    let ti = re[b] * s + im[b] * c
                    re[b] = re[a] - tr
                    im[b] = im[a] - ti
                    re[a] += tr
                    im[a] += ti
                }
                start += length
            }
            length *= 2
        }
        // X[k] = (Z[k] + conj Z[n−k]) / 2 − i·w^k·(Z[k] − conj Z[n−k]) / 2, w = e^(−2πi/size).
        for k in 0...n {
            let (zr, zi) = k == n ? (re[0], im[0]) : (re[k], im[k])
            let m = k == 0 ? 0 : n - k
            let (yr, yi) = (re[m], -im[m])
            let (er, ei) = (0.5 * (zr + yr), 0.5 * (zi + yi))
            let (dr, di) = (0.5 * (zr - yr), 0.5 * (zi - yi))
            // −i·d = (di, −dr); times w^k = (c, s).
            let (c, s) = (splitCosines[k], splitSines[k])
            let (pr, pi) = (di, -dr)
            output[2 * k] = er + pr * c - pi * s
            output[2 * k + 1] = ei + pr * s + pi * c
        }
    }
}
