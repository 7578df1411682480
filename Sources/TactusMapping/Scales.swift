import TactusCore

/// Maps a level in dB onto 0…1: `floorDb` → 0, `ceilingDb` → 1, shaped by `gamma`
/// (below 1 lifts quiet passages, above 1 keeps them lighter).
public struct DecibelScale: Equatable, Sendable {
    public var floorDb: Double
    public var ceilingDb: Double
    public var gamma: Double

    public init(floorDb: Double, ceilingDb: Double, gamma: Double) {
        self.floorDb = floorDb
        self.ceilingDb = max(ceilingDb, floorDb + 0.1)
        self.gamma = gamma
    }

    public func callAsFunction(_ db: Double) -> Double {
        let x = (db - floorDb) / (ceilingDb - floorDb)
        return pow(min(1, max(0, x)), gamma)
    }
}

/// Maps a frequency onto sharpness 0…1 on a logarithmic axis: `lowHz` → 0, `highHz` → 1,
/// because pitch and brightness are perceived on log-frequency.
public struct LogFrequencyScale: Equatable, Sendable {
    public var lowHz: Double
    public var highHz: Double

    public init(lowHz: Double, highHz: Double) {
        self.lowHz = max(1, lowHz)
        self.highHz = max(highHz, self.lowHz * 1.01)
    }

    public func callAsFunction(_ hz: Double) -> Double {
        guard hz > 0 else { return 0 }
        let x = log(hz / lowHz) / log(highHz / lowHz)
        return min(1, max(0, x))
    }
}

/// Maps a brightness in octaves (log2 Hz, less any weight in the lows) onto sharpness 0…1:
/// `lowOctaves` → 0, `highOctaves` → 1, linear between.
struct OctaveScale {
    let lowOctaves: Double
    let span: Double

    init(lowOctaves: Double, highOctaves: Double) {
        self.lowOctaves = lowOctaves
        span = max(0.1, highOctaves - lowOctaves)
    }

    func callAsFunction(_ octaves: Double) -> Double {
        min(1, max(0, (octaves - lowOctaves) / span))
    }
}

/// A sound's strength from its loudness (`mapping.loudness`, normalization `loudness`): a
/// factor on every intensity, `floorGain` at `floorLufs` and below, 1 at `ceilingLufs` and
/// above, linear in dB between. It depends on the file alone, so a sound plays the same in
/// `convert` and in any batch.
struct LoudnessStrength {
    let scale: DecibelScale
    let floorGain: Double

    init(_ parameters: ParameterSet) {
        scale = DecibelScale(floorDb: parameters.number(LoudnessSettings.floorLufs),
                             ceilingDb: parameters.number(LoudnessSettings.ceilingLufs), gamma: 1)
        floorGain = parameters.number(LoudnessSettings.floorGain)
    }

    func callAsFunction(_ lufs: Double) -> Double {
        floorGain + (1 - floorGain) * scale(lufs)
    }
}
