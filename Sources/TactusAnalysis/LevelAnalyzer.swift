import TactusCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Loudness envelope: RMS of each frame's raw samples, in dBFS (a full-scale sine is −3 dB).
public final class LevelAnalyzer: FrameAnalyzer, TunablePart {
    public static let id = "rms"
    public static let summary = "RMS level of each frame in dBFS (the loudness envelope)."
    public static let parameters: [ParameterDescriptor] = []
    /// The output's id in `AnalysisResult.features`.
    public static let output = "rms.db"
    public static let outputDescriptors = [
        FeatureDescriptor(id: output, unit: "dBFS", description: "RMS level of the frame's samples (a full-scale sine is −3 dB).",
                          decimals: 2),
    ]

    /// Unchecked as `SpectralFrame`'s per-frame state is (see there): one append per frame.
    @exclusivity(unchecked) private var levels: [Float] = []

    /// An analyzer with no outputs yet.
    public init() {}

    public func process(_ frame: SpectralFrame) {
        levels.append(frame.levelDb)
    }

    public func reserveCapacity(frames: Int) {
        levels.reserveCapacity(frames)
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
    public static let orderedPairs = [OrderedPair(minHz, below: maxHz)]
    /// The id of the centroid in Hz in `AnalysisResult.features`.
    public static let output = "centroid.hz"
    /// The id of the weighted brightness in octaves in `AnalysisResult.features`.
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
    /// Unchecked as `SpectralFrame`'s per-frame state is (see there): one append per frame.
    @exclusivity(unchecked) private var centroids: [Float] = []
    @exclusivity(unchecked) private var weighted: [Float] = []

    /// - Parameter parameters: values of `CentroidAnalyzer.parameters` (the band in Hz).
    public init(parameters: ParameterSet) {
        minHz = parameters.number(Self.minHz)
        maxHz = parameters.number(Self.maxHz)
    }

    public func process(_ frame: SpectralFrame) {
        let moments = BandMoments(of: frame, minHz: minHz, maxHz: maxHz)
        centroids.append(moments.centroid)
        weighted.append(moments.weightedOctaves(of: frame))
    }

    public func reserveCapacity(frames: Int) {
        centroids.reserveCapacity(frames)
        weighted.reserveCapacity(frames)
    }

    /// `log2` of the frame's power centroid in `minHz…maxHz`, less `weightPenaltyOctaves`
    /// times the share of that power below `weightBelowHz`; 0 when the band is empty.
    /// - Parameters:
    ///   - frame: the frame, during an analyzer's `process`.
    ///   - minHz: the band's low edge, in Hz.
    ///   - maxHz: the band's high edge, in Hz (capped at Nyquist).
    /// - Returns: the weighted brightness in octaves (log2 of Hz, less the penalty).
    public static func weightedOctaves(of frame: SpectralFrame, minHz: Double, maxHz: Double) -> Float {
        BandMoments(of: frame, minHz: minHz, maxHz: maxHz).weightedOctaves(of: frame)
    }

    /// Centroid of one frame's magnitudes between `minHz` and `maxHz`; 0 when the band is empty.
    /// - Parameters:
    ///   - frame: the frame, during an analyzer's `process`.
    ///   - minHz: the band's low edge, in Hz.
    ///   - maxHz: the band's high edge, in Hz (capped at Nyquist).
    /// - Returns: the centroid in Hz.
    public static func centroid(of frame: SpectralFrame, minHz: Double, maxHz: Double) -> Float {
        BandMoments(of: frame, minHz: minHz, maxHz: maxHz).centroid
    }

    public var outputs: [String: [Float]] { [Self.output: centroids, Self.weightedOutput: weighted] }
}

/// The sums both brightness measures are made of, over one frame's bins in a band, from one
/// pass over the spectrum: Σ k·m[k] and Σ m[k] of the magnitudes, the same of the powers
/// (`k` the bin index), each in eight fixed lanes (vectorised, and the same sums on every run).
/// The magnitudes are taken from the powers as the pass goes (`magnitude(ofPower:)`, the
/// same values `SpectralFrame.magnitude` holds), so the frame's magnitudes are never stored.
struct BandMoments {
    /// First bin and one past the last bin of the band.
    let lo: Int, hi: Int
    let binHz: Float
    var magnitudeWeighted: Float = 0, magnitudeTotal: Float = 0
    var powerWeighted: Float = 0, powerTotal: Float = 0

    init(of frame: SpectralFrame, minHz: Double, maxHz: Double) {
        (lo, hi) = frame.binRange(minHz: minHz, maxHz: maxHz)
        binHz = Float(frame.binHz)
        let p = frame.power.baseAddress!
        var mWeighted = SIMD8<Float>(repeating: 0), mTotal = SIMD8<Float>(repeating: 0)
        var pWeighted = SIMD8<Float>(repeating: 0), pTotal = SIMD8<Float>(repeating: 0)
        var index = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7) + Float(lo)
        var k = lo
        while k + 8 <= hi {
            let p0 = UnsafeRawPointer(p + k).loadUnaligned(as: SIMD4<Float>.self)
            let p1 = UnsafeRawPointer(p + k + 4).loadUnaligned(as: SIMD4<Float>.self)
            let pv = SIMD8(lowHalf: p0, highHalf: p1)
            let mv = SIMD8(lowHalf: magnitude(ofPower: p0), highHalf: magnitude(ofPower: p1))
            mWeighted += index * mv
            mTotal += mv
            pWeighted += index * pv
            pTotal += pv
            index += 8
            k += 8
        }
        (magnitudeWeighted, magnitudeTotal) = (mWeighted.sum(), mTotal.sum())
        (powerWeighted, powerTotal) = (pWeighted.sum(), pTotal.sum())
        while k < hi {
            let m = magnitude(ofPower: p[k])
            magnitudeWeighted += Float(k) * m
            magnitudeTotal += m
            powerWeighted += Float(k) * p[k]
            powerTotal += p[k]
            k += 1
        }
    }

    /// Magnitude-weighted mean frequency in Hz; 0 when the band is empty.
    var centroid: Float {
        magnitudeTotal > 1e-9 ? magnitudeWeighted / magnitudeTotal * binHz : 0
    }

    /// See `CentroidAnalyzer.weightedOctaves(of:minHz:maxHz:)`.
    func weightedOctaves(of frame: SpectralFrame) -> Float {
        let lowEnd = min(hi, max(lo, Int((CentroidAnalyzer.weightBelowHz / frame.binHz).rounded(.down)) + 1))
        let p = frame.power
        var low: Float = 0
        for k in lo..<lowEnd { low += p[k] }
        guard powerTotal > 1e-12, powerWeighted > 0 else { return 0 }
        return log2(powerWeighted / powerTotal * Float(frame.binHz)) - CentroidAnalyzer.weightPenaltyOctaves * low / powerTotal
    }
}

extension SpectralFrame {
    /// Bins whose centre lies in `minHz…maxHz` (clipped to Nyquist), as a half-open range.
    /// - Parameters:
    ///   - minHz: the low edge, in Hz.
    ///   - maxHz: the high edge, in Hz.
    /// - Returns: the first bin and the bin after the last; equal when no bin lies in the band.
    public func binRange(minHz: Double, maxHz: Double) -> (Int, Int) {
        let lo = max(0, Int((minHz / binHz).rounded(.up)))
        let hi = min(binCount, Int((maxHz / binHz).rounded(.down)) + 1)
        return (min(lo, hi), hi)
    }
}
