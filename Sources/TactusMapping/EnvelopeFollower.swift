import Foundation

/// One-pole attack/release smoothing, as in a compressor's level detector: rises within
/// `attackMs`, falls within `releaseMs`, so the haptic body follows the sound without
/// buzzing on every ripple.
public struct EnvelopeFollower {
    private let rise: Double
    private let fall: Double

    public init(attackMs: Double, releaseMs: Double, stepSeconds: Double) {
        rise = Self.coefficient(ms: attackMs, step: stepSeconds)
        fall = Self.coefficient(ms: releaseMs, step: stepSeconds)
    }

    public func smooth(_ values: [Double]) -> [Double] {
        var out = values
        var state = values.first ?? 0
        for i in values.indices {
            let x = values[i]
            let k = x > state ? rise : fall
            state += k * (x - state)
            out[i] = state
        }
        return out
    }

    /// Smooths forwards then backwards: no lag, for curves (like brightness) that should
    /// move exactly when the sound does rather than trail it.
    public func smoothWithoutLag(_ values: [Double]) -> [Double] {
        Array(smooth(Array(smooth(values).reversed())).reversed())
    }

    /// Fraction of the remaining distance covered per step (1 = no smoothing).
    static func coefficient(ms: Double, step: Double) -> Double {
        ms <= 0 ? 1 : 1 - exp(-step / (ms / 1000))
    }
}
