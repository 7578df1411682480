import TactusCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// High-frequency content (Masri): energy weighted by frequency, so bright attacks such as
/// clicks and cymbals stand out. Scored as the dB rise of the weighted energy.
public struct HighFrequencyContent: OnsetMethod {
    public static let id = "hfc"
    public static let summary = "Rise in dB of frequency-weighted energy (bright, percussive attacks)."
    public static let parameters = SpectrumLimits.parameters
    public static let orderedPairs = SpectrumLimits.orderedPairs
    public static let peakPickingDefaults = [PeakPicker.delta.setting(.number(6))]

    private let floorDb: Float
    private let minHz: Double, maxHz: Double
    private var previousDb: Float?

    public init(parameters: ParameterSet, geometry: FrameGeometry) {
        floorDb = Float(parameters.number(SpectrumLimits.floorDb))
        minHz = parameters.number(SpectrumLimits.minHz)
        maxHz = parameters.number(SpectrumLimits.maxHz)
    }

    public mutating func novelty(of frame: SpectralFrame) -> Float {
        let (lo, hi) = frame.binRange(minHz: minHz, maxHz: maxHz)
        var hfc: Float = 0, weights: Float = 0
        let power = frame.power
        for k in lo..<hi {
            hfc += Float(k) * power[k]
            weights += Float(k)
        }
        let db = decibels(power: weights > 0 ? hfc / weights : 0, floorDb: floorDb)
        defer { previousDb = db }
        return previousDb.map { max(0, db - $0) } ?? 0
    }
}

/// Rectified complex-domain detection (Duxbury/Bello): distance between each bin and its
/// prediction from the two previous frames (steady magnitude, steady phase advance),
/// counted only where the magnitude grows, relative to the total magnitude. Catches soft,
/// pitched onsets that change phase more than level.
public struct ComplexDomain: OnsetMethod {
    public static let id = "complexDomain"
    public static let summary = "Phase-and-magnitude prediction error where energy grows (soft, tonal onsets)."
    public static let parameters = SpectrumLimits.parameters
    public static let orderedPairs = SpectrumLimits.orderedPairs
    public static let peakPickingDefaults = [PeakPicker.delta.setting(.number(0.15))]

    private let floor: Float
    private let minHz: Double, maxHz: Double
    private var magnitude1: [Float] = [], phase1: [Float] = [], phase2: [Float] = []

    public init(parameters: ParameterSet, geometry: FrameGeometry) {
        floor = powf(10, Float(parameters.number(SpectrumLimits.floorDb)) / 20)
        minHz = parameters.number(SpectrumLimits.minHz)
        maxHz = parameters.number(SpectrumLimits.maxHz)
    }

    public mutating func novelty(of frame: SpectralFrame) -> Float {
        let (lo, hi) = frame.binRange(minHz: minHz, maxHz: maxHz)
        let n = hi - lo
        var phase = [Float](repeating: 0, count: n)
        for k in 0..<n { phase[k] = atan2f(frame.imag[lo + k], frame.real[lo + k]) }
        defer {
            phase2 = phase1
            phase1 = phase
            magnitude1 = Array(frame.magnitude[lo..<hi])
        }
        guard phase2.count == n, n > 0 else { return 0 }
        var distance: Float = 0, total: Float = 0
        for k in 0..<n {
            let m = frame.magnitude[lo + k]
            total += m + magnitude1[k]
            guard m > magnitude1[k], m > floor else { continue }
            let predicted = 2 * phase1[k] - phase2[k]
            let dr = frame.real[lo + k] - magnitude1[k] * cosf(predicted)
            let di = frame.imag[lo + k] - magnitude1[k] * sinf(predicted)
            distance += (dr * dr + di * di).squareRoot()
        }
        return distance / (total + floor * Float(n))
    }
}

/// Energy rise: the dB increase of the frame's RMS over the previous frame. Cheap and
/// sharp for very short clicks in silence; blind to onsets hidden under louder sound.
public struct EnergyRise: OnsetMethod {
    public static let id = "energy"
    public static let summary = "Rise in dB of frame energy (very short clicks in quiet surroundings)."
    public static let parameters: [ParameterDescriptor] = [
        .number("floorDb", -140 ... -30, default: -90, unit: "dB", help: "Levels below this (dBFS) count as silence."),
    ]
    public static let peakPickingDefaults = [PeakPicker.delta.setting(.number(6))]

    private let floorDb: Float
    private var previousDb: Float?

    public init(parameters: ParameterSet, geometry: FrameGeometry) {
        floorDb = Float(parameters.number(SpectrumLimits.floorDb))
    }

    public mutating func novelty(of frame: SpectralFrame) -> Float {
        let db = max(frame.levelDb, floorDb)
        defer { previousDb = db }
        return previousDb.map { max(0, db - $0) } ?? 0
    }
}
