import TactusCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Describes one per-frame output of an analyzer, as a Vamp plugin's output descriptor does:
/// what it is, in which unit, and how many decimals mean something. Reports and tools list
/// the outputs from these declarations rather than by hand.
public struct FeatureDescriptor: Equatable, Sendable {
    /// The output's name in `AnalysisResult.features` (`rms.db`).
    public let id: String
    /// Unit of the values ("dBFS", "Hz", or the method's novelty scale).
    public let unit: String
    /// What the values mean, in a sentence for reports.
    public let description: String
    /// Decimals worth printing.
    public let decimals: Int

    /// - Parameters:
    ///   - id: the output's name, `<analyzer>.<output>`.
    ///   - unit: the values' unit.
    ///   - description: what the values mean.
    ///   - decimals: decimals worth printing, at least 0.
    public init(id: String, unit: String, description: String, decimals: Int) {
        self.id = id
        self.unit = unit
        self.description = description
        self.decimals = decimals
    }
}

/// A streaming analyzer: sees each frame once, keeps only what it needs, and publishes the
/// per-frame outputs it declares, addressed by name, never by index.
public protocol FrameAnalyzer: AnyObject {
    /// The outputs `outputs` holds, in the order reports list them.
    static var outputDescriptors: [FeatureDescriptor] { get }
    /// Reads one frame (valid only during the call) and appends one value to each output.
    /// - Parameter frame: the next frame, in order.
    func process(_ frame: SpectralFrame)
    /// Makes room for `frames` values per output up front, so a long file's outputs are not
    /// regrown (and over-allocated) as they fill. A hint: the outputs do not depend on it.
    /// - Parameter frames: the expected number of frames.
    func reserveCapacity(frames: Int)
    /// Per-frame outputs by descriptor id, one value per processed frame.
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
/// its mantissa, for the filterbank's hundred logarithms per frame. Pure arithmetic, so
/// identical on every platform, and without branches, so a loop over many values vectorises.
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
