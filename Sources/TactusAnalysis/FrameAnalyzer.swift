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
