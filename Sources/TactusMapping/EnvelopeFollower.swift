import TactusCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One-pole attack/release smoothing, as in a compressor's level detector: rises within
/// `attackMs`, falls within `releaseMs`, so the haptic body follows the sound without
/// buzzing on every ripple.
public struct EnvelopeFollower {
    private let rise: Double
    private let fall: Double

    /// - Parameters:
    ///   - attackMs: the rise time constant, in ms (0 follows rises at once).
    ///   - releaseMs: the fall time constant, in ms (0 follows falls at once).
    ///   - stepSeconds: the time between values, in seconds.
    public init(attackMs: Double, releaseMs: Double, stepSeconds: Double) {
        rise = Self.coefficient(ms: attackMs, step: stepSeconds)
        fall = Self.coefficient(ms: releaseMs, step: stepSeconds)
    }

    /// Smooths in place, forwards in time.
    /// - Parameter values: one value per step, replaced by the smoothed ones.
    public func smooth(_ values: inout [Float]) {
        smooth(&values, indices: values.indices)
    }

    /// Smooths forwards then backwards: no lag, for curves (like brightness) that should
    /// move exactly when the sound does rather than trail it.
    /// - Parameter values: one value per step, replaced by the smoothed ones.
    public func smoothWithoutLag(_ values: inout [Float]) {
        smooth(&values, indices: values.indices)
        smooth(&values, indices: values.indices.reversed())
    }

    private func smooth<Order: Sequence<Int>>(_ values: inout [Float], indices: Order) {
        let rise = Float(rise), fall = Float(fall)
        var state: Float?
        for i in indices {
            let x = values[i]
            var s = state ?? x
            s += (x > s ? rise : fall) * (x - s)
            values[i] = s
            state = s
        }
    }

    /// Fraction of the remaining distance covered per step (1 = no smoothing).
    static func coefficient(ms: Double, step: Double) -> Double {
        ms <= 0 ? 1 : 1 - exp(-step / (ms / 1000))
    }
}
