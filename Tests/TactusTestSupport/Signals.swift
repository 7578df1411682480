import Foundation

/// Synthetic test signals with known onsets and envelopes. Deterministic: noise comes from
/// a seeded generator, so a failing test fails the same way every run.
public enum Signals {
    /// A sine of `hz` at `amplitude` for `seconds`.
    public static func sine(hz: Double, seconds: Double, sampleRate: Double, amplitude: Double = 0.5) -> [Float] {
        let n = Int(seconds * sampleRate)
        return (0..<n).map { Float(amplitude * sin(2 * .pi * hz * Double($0) / sampleRate)) }
    }

    /// Silence with a short decaying noise click starting exactly at each of `onsets` (seconds).
    public static func clicks(at onsets: [Double], seconds: Double, sampleRate: Double,
                              amplitude: Double = 0.8, decayMs: Double = 8, seed: UInt64 = 1) -> [Float] {
        var out = [Float](repeating: 0, count: Int(seconds * sampleRate))
        var rng = SeededGenerator(seed: seed)
        for onset in onsets {
            let start = Int((onset * sampleRate).rounded())
            let length = Int(decayMs / 1000 * sampleRate * 6)
            for i in 0..<length where start + i < out.count {
                let envelope = exp(-Double(i) / (decayMs / 1000 * sampleRate))
                out[start + i] += Float(amplitude * envelope * rng.nextSigned())
            }
        }
        return out
    }

    /// White noise, uniformly distributed in ±amplitude.
    public static func noise(seconds: Double, sampleRate: Double, amplitude: Double, seed: UInt64 = 7) -> [Float] {
        var rng = SeededGenerator(seed: seed)
        return (0..<Int(seconds * sampleRate)).map { _ in Float(amplitude * rng.nextSigned()) }
    }

    /// Sums signals of possibly different lengths.
    public static func mix(_ signals: [Float]...) -> [Float] {
        var out = [Float](repeating: 0, count: signals.map(\.count).max() ?? 0)
        for s in signals { for i in s.indices { out[i] += s[i] } }
        return out
    }
}

/// SplitMix64: a tiny, fast, seedable generator so tests are reproducible everywhere.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in -1…1.
    public mutating func nextSigned() -> Double {
        unit() * 2 - 1
    }

    /// Uniform in 0..<1.
    public mutating func unit() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }
}
