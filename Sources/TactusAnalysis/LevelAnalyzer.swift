import Foundation
import TactusCore

/// Loudness envelope: RMS of each frame's raw samples, in dBFS (a full-scale sine is −3 dB).
public final class LevelAnalyzer: FrameAnalyzer, TunablePart {
    public static let id = "rms"
    public static let summary = "RMS level of each frame in dBFS (the loudness envelope)."
    public static let parameters: [ParameterDescriptor] = []
    public static let output = "rms.db"
    public static let outputDescriptors = [
        FeatureDescriptor(id: output, unit: "dBFS", description: "RMS level of the frame's samples (a full-scale sine is −3 dB).",
                          decimals: 2),
    ]

    private var levels: [Float] = []

    public init() {}

    public func process(_ frame: SpectralFrame) {
        levels.append(frame.levelDb)
    }

    public var outputs: [String: [Float]] { [Self.output: levels] }
}

/// Brightness: magnitude-weighted mean frequency of each frame within a band, in Hz.
///
/// Frames with no energy in the band report 0; the mapper holds the previous sharpness
/// there instead of jumping.
public final class CentroidAnalyzer: FrameAnalyzer, TunablePart {
    public static let id = "centroid"
    public static let summary = "Spectral centroid of each frame in Hz (brightness)."
    public static let minHz = ParameterDescriptor.number("minHz", 0...2000, default: 20, unit: "Hz", help: "Lowest frequency counted.")
    public static let maxHz = ParameterDescriptor.number("maxHz", 1000...48000, default: 20000, unit: "Hz",
                help: "Highest frequency counted (capped at Nyquist): the audible band, so a 96 kHz file's ultrasound does not brighten it.")
    public static let parameters: [ParameterDescriptor] = [minHz, maxHz]
    public static let output = "centroid.hz"
    public static let weightedOutput = "centroid.weightedOctaves"
    /// Below this frequency, power counts as weight (the lows of a boom), in Hz.
    public static let weightBelowHz = 200.0
    /// Octaves the brightness loses per unit of power share below `weightBelowHz`.
    public static let weightPenaltyOctaves: Float = 4
    public static let outputDescriptors = [
        FeatureDescriptor(id: output, unit: "Hz",
                          description: "Magnitude-weighted mean frequency within minHz…maxHz; 0 when the band is silent.",
                          decimals: 1),
        FeatureDescriptor(id: weightedOutput, unit: "octaves",
                          description: "log2 of the power-weighted mean frequency (Hz) within minHz…maxHz, less 4 octaves per unit of the power share below 200 Hz: bright and light is high, broadband with heavy lows is low; 0 when the band is silent.",
                          decimals: 3),
    ]

    private let minHz: Double
    private let maxHz: Double
    private var centroids: [Float] = []
    private var weighted: [Float] = []

    public init(parameters: ParameterSet) {
        minHz = parameters.number(Self.minHz)
        maxHz = parameters.number(Self.maxHz)
    }

    public func process(_ frame: SpectralFrame) {
        centroids.append(Self.centroid(of: frame, minHz: minHz, maxHz: maxHz))
        weighted.append(Self.weightedOctaves(of: frame, minHz: minHz, maxHz: maxHz))
    }

    /// `log2` of the frame's power centroid in `minHz…maxHz`, less `weightPenaltyOctaves`
    /// times the share of that power below `weightBelowHz`; 0 when the band is empty.
    public static func weightedOctaves(of frame: SpectralFrame, minHz: Double, maxHz: Double) -> Float {
        let (lo, hi) = frame.binRange(minHz: minHz, maxHz: maxHz)
        let lowEnd = min(hi, max(lo, Int((weightBelowHz / frame.binHz).rounded(.down)) + 1))
        let p = frame.power
        let (weightedSum, total) = indexWeightedSums(p, from: lo, to: hi)
        var low: Float = 0
        for k in lo..<lowEnd { low += p[k] }
        guard total > 1e-12, weightedSum > 0 else { return 0 }
        return log2(weightedSum / total * Float(frame.binHz)) - weightPenaltyOctaves * low / total
    }

    /// Centroid of one frame's magnitudes between `minHz` and `maxHz`; 0 when the band is empty.
    public static func centroid(of frame: SpectralFrame, minHz: Double, maxHz: Double) -> Float {
        let (lo, hi) = frame.binRange(minHz: minHz, maxHz: maxHz)
        let (weighted, total) = indexWeightedSums(frame.magnitude, from: lo, to: hi)
        return total > 1e-9 ? weighted / total * Float(frame.binHz) : 0
    }

    public var outputs: [String: [Float]] { [Self.output: centroids, Self.weightedOutput: weighted] }
}

/// Σ k·x[k] and Σ x[k] over `from..<to`, in eight fixed lanes (vectorised, and the same sums
/// on every run): the moments a centroid is made of, with `k` the bin index.
@inline(__always) func indexWeightedSums(_ x: UnsafeBufferPointer<Float>, from lo: Int, to hi: Int) -> (Float, Float) {
    var weightedLanes = SIMD8<Float>(repeating: 0), totalLanes = SIMD8<Float>(repeating: 0)
    var index = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7) + Float(lo)
    var k = lo
    while k + 8 <= hi {
        let v = UnsafeRawPointer(x.baseAddress! + k).loadUnaligned(as: SIMD8<Float>.self)
        weightedLanes += index * v
        totalLanes += v
        index += 8
        k += 8
    }
    var weighted = weightedLanes.sum(), total = totalLanes.sum()
    while k < hi {
        weighted += Float(k) * x[k]
        total += x[k]
        k += 1
    }
    return (weighted, total)
}

extension SpectralFrame {
    /// Bins whose centre lies in `minHz…maxHz` (clipped to Nyquist), as a half-open range.
    public func binRange(minHz: Double, maxHz: Double) -> (Int, Int) {
        let lo = max(0, Int((minHz / binHz).rounded(.up)))
        let hi = min(magnitude.count, Int((maxHz / binHz).rounded(.down)) + 1)
        return (min(lo, hi), hi)
    }
}
