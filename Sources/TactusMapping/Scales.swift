import TactusCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Maps a level in dB onto 0…1: `floorDb` → 0, `ceilingDb` → 1, shaped by `gamma`
/// (below 1 lifts quiet passages, above 1 keeps them lighter).
public struct DecibelScale: Equatable, Sendable {
    /// The level that maps to 0, in dB.
    public var floorDb: Double
    /// The level that maps to 1, in dB (at least 0.1 dB above `floorDb`).
    public var ceilingDb: Double
    /// The exponent applied to the linear position, above 0.
    public var gamma: Double

    /// - Parameters:
    ///   - floorDb: the level that maps to 0, in dB.
    ///   - ceilingDb: the level that maps to 1, in dB; raised to `floorDb` + 0.1 when lower.
    ///   - gamma: the shaping exponent, above 0.
    public init(floorDb: Double, ceilingDb: Double, gamma: Double) {
        self.floorDb = floorDb
        self.ceilingDb = max(ceilingDb, floorDb + 0.1)
        self.gamma = gamma
    }

    /// - Parameter db: a level in dB.
    /// - Returns: its position between floor and ceiling, clamped to 0…1, raised to `gamma`.
    public func callAsFunction(_ db: Double) -> Double {
        let x = (db - floorDb) / (ceilingDb - floorDb)
        return pow(min(1, max(0, x)), gamma)
    }
}

/// Maps a frequency onto sharpness 0…1 on a logarithmic axis: `lowHz` → 0, `highHz` → 1,
/// because pitch and brightness are perceived on log-frequency.
public struct LogFrequencyScale: Equatable, Sendable {
    /// The frequency that maps to 0, in Hz (at least 1).
    public var lowHz: Double
    /// The frequency that maps to 1, in Hz (above `lowHz`).
    public var highHz: Double

    /// - Parameters:
    ///   - lowHz: the frequency that maps to 0, in Hz; raised to 1 when lower.
    ///   - highHz: the frequency that maps to 1, in Hz; raised to 1.01 × `lowHz` when lower.
    public init(lowHz: Double, highHz: Double) {
        self.lowHz = max(1, lowHz)
        self.highHz = max(highHz, self.lowHz * 1.01)
    }

    /// - Parameter hz: a frequency in Hz.
    /// - Returns: its position on the log axis, clamped to 0…1 (0 for 0 Hz or below).
    public func callAsFunction(_ hz: Double) -> Double {
        guard hz > 0 else { return 0 }
        let x = log(hz / lowHz) / log(highHz / lowHz)
        return min(1, max(0, x))
    }
}

/// Maps a brightness in octaves (log2 Hz, less any weight in the lows) onto sharpness 0…1:
/// `lowOctaves` → 0, `highOctaves` → 1, linear between, clipped at both ends; or, with a
/// `knee` above 0, linear from `knee` to 1 − `knee` and bending beyond (value and slope
/// continuous), so brightnesses past the ends keep their order instead of tying at 0 or 1:
/// towards 0 as knee² / (2·knee − x) of the linear position x and towards 1 as
/// 1 − knee² / (2·knee − (1 − x)), each approaching its end only as 1/x, so a body octaves
/// darker than `lowOctaves` or brighter than `highOctaves` still moves by more than the 4
/// decimals a format writes.
struct OctaveScale {
    let lowOctaves: Double
    let span: Double
    /// Width (0…0.5, in sharpness) of each soft end; 0 clips.
    let knee: Double

    init(lowOctaves: Double, highOctaves: Double, knee: Double = 0) {
        self.lowOctaves = lowOctaves
        span = max(0.1, highOctaves - lowOctaves)
        self.knee = min(0.5, max(0, knee))
    }

    func callAsFunction(_ octaves: Double) -> Double {
        let x = (octaves - lowOctaves) / span
        guard knee > 0 else { return min(1, max(0, x)) }
        if x < knee { return knee * knee / (2 * knee - x) }
        if x > 1 - knee { return 1 - knee * knee / (2 * knee - (1 - x)) }
        return x
    }
}

/// A body's sharpness from its sound's place and each moment's move from it
/// (`mapping.sharpness`, `weightedCentroid`), on the logistic curve σ(z) = 1 / (1 + e^−z), so it
/// never reaches 0 or 1:
///
/// - the place, from the sound's reference brightness x (octaves: its mean log2 centroid less
///   its weight in the lows): the place z, with centre halfway between
///   `lowOctaves` and `highOctaves` and a = 4/(highOctaves − lowOctaves) (the slope of the
///   straight line from 0 to 1 over the range, at the middle), bounded softly by Z = logit(1 − edge)
///   so every sound lies between `edge` and 1 − `edge`, in order: z = Z·u/√(1 + u²),
///   u = a·(x − centre)/Z, which nears its bound only as 1/u² (tanh as e^−2u), so rumbles
///   octaves below the range (a 60 Hz and a 120 Hz sine, about −10.8 and −9.2 octaves) keep
///   their order;
/// - the move: k·(b − mean + shift) added to z, b the frame's log2 centroid, mean the sound's
///   power-weighted mean of it, k = 4·`movePerOctave` (`movePerOctave` of sharpness per octave
///   at the middle of the curve) and `shift` = `brightenOctaves`.
///
/// Across sounds the place keeps the order of kinds (a rumble low, a click high) within bounds;
/// within a sound the body moves by as much for a dark sound as for a bright one, where a
/// single scale pressed the dark ones against 0.
struct PlacedScale {
    /// Centre of the place's range, octaves.
    let centre: Double
    /// The place's slope at the centre, logit units per octave.
    let slope: Double
    /// The place's bound, logit units (infinite for `edge` 0).
    let bound: Double
    /// The move's slope, logit units per octave.
    let gain: Double
    /// Octaves added to every frame's move.
    let shift: Double

    init(lowOctaves: Double, highOctaves: Double, edge: Double, movePerOctave: Double, brightenOctaves: Double) {
        centre = (lowOctaves + highOctaves) / 2
        slope = 4 / max(0.1, highOctaves - lowOctaves)
        bound = edge > 0 ? log((1 - edge) / edge) : .infinity
        gain = 4 * movePerOctave
        shift = brightenOctaves
    }

    /// The place of a sound whose reference brightness is `octaves`, in logit units.
    func place(_ octaves: Double) -> Double {
        let z = slope * (octaves - centre)
        guard bound.isFinite else { return z }
        let u = z / bound
        return bound * u / (1 + u * u).squareRoot()
    }

    /// The sharpness 0…1 (exclusive) of a frame `octaves` from its sound's mean, at `place`.
    func sharpness(place: Double, octaves: Double) -> Double {
        1 / (1 + exp(-(place + gain * (octaves + shift))))
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
