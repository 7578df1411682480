import TactusCore
/// Spectral flux on log-compressed band levels: the mean rise in dB per log-frequency band
/// since the previous frame. Robust for most hits; fooled somewhat by vibrato and noise beds.
public struct SpectralFlux: OnsetMethod {
    public static let id = "spectralFlux"
    public static let summary = "Mean positive dB change per log-frequency band between consecutive frames."
    public static let parameters = LogSpectrum.parameters
    public static let orderedPairs = SpectrumLimits.orderedPairs
    public static let peakPickingDefaults = [PeakPicker.delta.setting(.number(4))]

    private let floorDb: Float
    private let bands: LogFilterbank
    private var previous: [Float] = []
    private var current: [Float] = []

    public init(parameters: ParameterSet, geometry: FrameGeometry) {
        floorDb = Float(parameters.number(SpectrumLimits.floorDb))
        bands = LogSpectrum.filterbank(parameters, geometry)
    }

    public mutating func novelty(of frame: SpectralFrame) -> Float {
        bands.levels(of: frame, floorDb: floorDb, into: &current)
        defer { swap(&previous, &current) }
        guard previous.count == current.count, !current.isEmpty else { return 0 }
        let rise = current.withUnsafeBufferPointer { now in
            previous.withUnsafeBufferPointer { risingSum(now.baseAddress!, over: $0.baseAddress!, count: now.count) }
        }
        return rise / Float(current.count)
    }
}

/// SuperFlux (Böck & Widmer 2013): like spectral flux, but each band is compared with the
/// maximum of its neighbours a few frames back, so vibrato, tremolo and the random
/// fluctuation of noise beds do not read as new sounds. The default method.
public struct SuperFlux: OnsetMethod {
    public static let id = "superflux"
    public static let summary = "Spectral flux against a frequency max-filtered, lagged reference (robust to vibrato and noise)."
    public static let maxFilterBands = ParameterDescriptor.integer("maxFilterBands", 0...8, default: 1, unit: "bands",
                 help: "Half-width of the frequency maximum filter applied to the reference frame.")
    public static let lagMs = ParameterDescriptor.number("lagMs", 1...50, default: 20, unit: "ms",
                help: "How far back the reference frame lies (rounded to whole hops; with the default 20 ms window, 20 ms compares windows that do not overlap).")
    public static let parameters = LogSpectrum.parameters + [maxFilterBands, lagMs]
    public static let orderedPairs = SpectrumLimits.orderedPairs
    public static let peakPickingDefaults = [PeakPicker.delta.setting(.number(4))]

    private let floorDb: Float
    private let bands: LogFilterbank
    private let width: Int
    private let lag: Int
    /// The last `lag` frames' band levels, already maximum-filtered across bands, in one
    /// flat ring of `lag` rows: row `next` is the oldest, the reference for this frame.
    private var references: [Float] = []
    private var stored = 0
    private var next = 0
    private var current: [Float] = []

    public init(parameters: ParameterSet, geometry: FrameGeometry) {
        floorDb = Float(parameters.number(SpectrumLimits.floorDb))
        bands = LogSpectrum.filterbank(parameters, geometry)
        width = Int(parameters.number(Self.maxFilterBands))
        lag = max(1, Int((parameters.number(Self.lagMs) / 1000 / geometry.hopSeconds).rounded()))
    }

    public mutating func novelty(of frame: SpectralFrame) -> Float {
        bands.levels(of: frame, floorDb: floorDb, into: &current)
        let n = current.count
        guard n > 0 else { return 0 }
        if references.isEmpty { references = Array(repeating: 0, count: lag * n) }
        var rise: Float = 0
        let (width, row) = (width, next * n)
        current.withUnsafeBufferPointer { now in
            references.withUnsafeMutableBufferPointer { ring in
                let reference = ring.baseAddress! + row
                if stored == lag { rise = risingSum(now.baseAddress!, over: reference, count: n) }
                // The current frame, max-filtered, replaces the oldest, which is no longer needed.
                maxFilter(now.baseAddress!, halfWidth: width, into: reference, count: n)
            }
        }
        stored = min(stored + 1, lag)
        next = (next + 1) % lag
        return rise / Float(n)
    }
}

/// Σ max(0, a[k] − b[k]) in eight fixed lanes (vectorised, and the same sum on every run).
@inline(__always) func risingSum(_ a: UnsafePointer<Float>, over b: UnsafePointer<Float>, count: Int) -> Float {
    var lanes = SIMD8<Float>(repeating: 0)
    var k = 0
    while k &+ 8 <= count {
        let d = UnsafeRawPointer(a + k).loadUnaligned(as: SIMD8<Float>.self)
            - UnsafeRawPointer(b + k).loadUnaligned(as: SIMD8<Float>.self)
        lanes += d.replacing(with: 0, where: d .< 0)
        k &+= 8
    }
    var total = lanes.sum()
    while k < count {
        total += max(0, a[k] - b[k])
        k += 1
    }
    return total
}

/// `out[k]` = the largest of `x[k − halfWidth ... k + halfWidth]` (clipped to the array), in
/// one pass per neighbour distance, four bands per step. Each step keeps `Swift.max`'s rule
/// (the second value when it is not below the first), so the result is the scalar one.
@inline(__always) func maxFilter(_ x: UnsafePointer<Float>, halfWidth: Int, into out: UnsafeMutablePointer<Float>,
                                 count: Int) {
    out.update(from: x, count: count)
    guard halfWidth > 0 else { return }
    for distance in 1...halfWidth where distance < count {
        raiseToMax(out + distance, x, count: count - distance)
        raiseToMax(out, x + distance, count: count - distance)
    }
}

/// `out[k] = max(out[k], x[k])` for `k < count`, four at a time; `out` and `x` must not overlap.
@inline(__always) private func raiseToMax(_ out: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, count: Int) {
    var k = 0
    while k &+ 4 <= count {
        let current = UnsafeRawPointer(out + k).loadUnaligned(as: SIMD4<Float>.self)
        let other = UnsafeRawPointer(x + k).loadUnaligned(as: SIMD4<Float>.self)
        UnsafeMutableRawPointer(out + k).storeBytes(of: current.replacing(with: other, where: other .>= current),
                                                    as: SIMD4<Float>.self)
        k &+= 4
    }
    while k < count {
        out[k] = max(out[k], x[k])
        k += 1
    }
}
