/// Spectral flux on log-compressed band levels: the mean rise in dB per log-frequency band
/// since the previous frame. Robust for most hits; fooled somewhat by vibrato and noise beds.
public struct SpectralFlux: OnsetMethod {
    public static let id = "spectralFlux"
    public static let summary = "Mean positive dB change per log-frequency band between consecutive frames."
    public static let parameters = LogSpectrum.parameters
    public static let peakPickingDefaults: [String: ParameterValue] = ["delta": .number(4)]

    private let floorDb: Float
    private let bands: LogFilterbank
    private var previous: [Float] = []
    private var current: [Float] = []

    public init(parameters: ParameterSet, geometry: FrameGeometry) {
        floorDb = Float(parameters.number("floorDb"))
        bands = LogSpectrum.filterbank(parameters, geometry)
    }

    public mutating func novelty(of frame: SpectralFrame) -> Float {
        bands.levels(of: frame, floorDb: floorDb, into: &current)
        defer { swap(&previous, &current) }
        guard previous.count == current.count, !current.isEmpty else { return 0 }
        var rise: Float = 0
        for k in 0..<current.count { rise += max(0, current[k] - previous[k]) }
        return rise / Float(current.count)
    }
}

/// SuperFlux (Böck & Widmer 2013): like spectral flux, but each band is compared with the
/// maximum of its neighbours a few frames back, so vibrato, tremolo and the random
/// fluctuation of noise beds do not read as new sounds. The default method.
public struct SuperFlux: OnsetMethod {
    public static let id = "superflux"
    public static let summary = "Spectral flux against a frequency max-filtered, lagged reference (robust to vibrato and noise)."
    public static let parameters = LogSpectrum.parameters + [
        .integer("maxFilterBands", 0...8, default: 1, unit: "bands",
                 help: "Half-width of the frequency maximum filter applied to the reference frame."),
        .number("lagMs", 1...50, default: 10, unit: "ms", help: "How far back the reference frame lies."),
    ]
    public static let peakPickingDefaults: [String: ParameterValue] = ["delta": .number(3)]

    private let floorDb: Float
    private let bands: LogFilterbank
    private let width: Int
    private let lag: Int
    /// The last `lag` frames' band levels, a ring: `history[next]` is the oldest.
    private var history: [[Float]] = []
    private var next = 0
    private var current: [Float] = []

    public init(parameters: ParameterSet, geometry: FrameGeometry) {
        floorDb = Float(parameters.number("floorDb"))
        bands = LogSpectrum.filterbank(parameters, geometry)
        width = Int(parameters.number("maxFilterBands"))
        lag = max(1, Int((parameters.number("lagMs") / 1000 / geometry.hopSeconds).rounded()))
    }

    public mutating func novelty(of frame: SpectralFrame) -> Float {
        bands.levels(of: frame, floorDb: floorDb, into: &current)
        let n = current.count
        guard n > 0 else { return 0 }
        if history.count < lag {
            history.append(current)
            return 0
        }
        var rise: Float = 0
        current.withUnsafeBufferPointer { now in
            history[next].withUnsafeBufferPointer { reference in
                for k in 0..<n {
                    var m = reference[k]
                    for j in max(0, k - width)...min(n - 1, k + width) { m = max(m, reference[j]) }
                    rise += max(0, now[k] - m)
                }
            }
        }
        // The current frame replaces the oldest, which is no longer needed.
        swap(&history[next], &current)
        next = (next + 1) % lag
        return rise / Float(n)
    }
}
