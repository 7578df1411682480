import Foundation

/// A streaming analyzer: sees each frame once, keeps only what it needs, and publishes
/// named per-frame outputs (`rms.db`, `centroid.hz`, …) addressed by name, never by index.
public protocol FrameAnalyzer: AnyObject {
    func process(_ frame: SpectralFrame)
    /// Per-frame outputs by name, one value per processed frame.
    var outputs: [String: [Float]] { get }
}

/// Decibels of a power or amplitude ratio with a floor, so silence maps to a finite value.
@inline(__always) func decibels(amplitude: Float, floorDb: Float = -120) -> Float {
    amplitude > 0 ? max(20 * log10f(amplitude), floorDb) : floorDb
}

@inline(__always) func decibels(power: Float, floorDb: Float = -120) -> Float {
    power > 0 ? max(10 * log10f(power), floorDb) : floorDb
}

/// `decibels(power:)` to within 0.001 dB, from the float's exponent and a polynomial for
/// its mantissa: the filterbank takes a hundred logarithms per frame, and libm's `log10f`
/// was a tenth of the analysis time. Pure arithmetic, so identical on every platform, and
/// without branches, so a loop over many values vectorises.
@inline(__always) func fastDecibels(power: Float, floorDb: Float) -> Float {
    let bits = power.bitPattern
    let exponent = Float(Int32(bitPattern: (bits >> 23) & 0xFF) - 127)
    let m = Float(bitPattern: (bits & 0x007F_FFFF) | 0x3F80_0000)  // mantissa in [1, 2)
    // log2(m) on [1, 2): least-squares quartic in t = m − 1, error < 0.0002 (≈ 0.0006 dB).
    let t = m - 1
    let log2m = t * (1.43854793 + t * (-0.67808946 + t * (0.32364631 + t * -0.08429466)))
    let db = max(3.0103 * (exponent + log2m), floorDb)
    return power > 1e-30 ? db : floorDb  // also silence, denormals and NaN
}
