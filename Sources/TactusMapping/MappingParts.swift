import TactusCore

/// How levels are referenced before mapping (`mapping.loudness.normalization`).
public enum LoudnessNormalization: String, CaseIterable, Sendable {
    /// As `perFile`, then every intensity scaled by the sound's strength from its loudness.
    case loudness
    /// Each sound's loudest frame is 0 dB.
    case perFile
    /// Frame levels in dBFS.
    case absolute
}

/// What a sharpness measures (`mapping.transients.sharpnessFrom`, `mapping.sharpness.from`).
public enum BrightnessMeasure: String, CaseIterable, Sendable {
    /// The power centroid in octaves less the sound's weight in the lows.
    case weightedCentroid
    /// The magnitude centroid in Hz, on a log-frequency scale.
    case centroid
}

/// How levels are referenced before mapping to intensity, and how loud a file plays.
public enum LoudnessSettings: TunablePart {
    public static let id = "mapping.loudness"
    public static let summary = "Level reference: per file (its loudest frame), absolute (dBFS), or per file scaled by the sound's BS.1770 loudness."
    public static let normalization = ParameterDescriptor.choice("normalization", LoudnessNormalization.self, default: .loudness,
                help: "loudness: each sound's shape as perFile, its strength from its loudest momentary loudness (BS.1770, LUFS) between floorLufs and ceilingLufs, so a sound 12 dB quieter plays weaker in convert and in any batch alike. perFile: each sound's loudest frame is 0 dB, so every file uses the full haptic range. absolute: frame levels in dBFS.")
    public static let silenceDb = ParameterDescriptor.number("silenceDb", -140 ... -20, default: -80, unit: "dB",
                help: "A file whose loudest frame is below this (dBFS) is treated as silent: audio only, no haptics.")
    public static let floorLufs = ParameterDescriptor.number("floorLufs", -90 ... -10, default: -35, unit: "LUFS",
                help: "loudness: a sound whose loudest momentary loudness is this or quieter plays at floorGain.")
    public static let ceilingLufs = ParameterDescriptor.number("ceilingLufs", -60...10, default: -8, unit: "LUFS",
                help: "loudness: a sound this loud or louder plays at full strength; between the two, strength falls linearly in dB.")
    public static let floorGain = ParameterDescriptor.number("floorGain", 0...1, default: 0.3,
                help: "loudness: the strength (a factor on every intensity) of the quietest sounds, so they stay perceptible.")
    public static let parameters: [ParameterDescriptor] = [normalization, silenceDb, floorLufs, ceilingLufs, floorGain]
}

/// Transient intensity and sharpness from each onset's attack.
public enum TransientSettings: TunablePart {
    public static let id = "mapping.transients"
    public static let summary = "Intensity from the attack's level, sharpness from the attack's brightness."
    public static let enabled = ParameterDescriptor.flag("enabled", default: true, help: "Write HapticTransient events at onsets.")
    public static let floorDb = ParameterDescriptor.number("floorDb", -120 ... -3, default: -40, unit: "dB",
                help: "Attack level (relative to the reference) that maps to minIntensity.")
    public static let ceilingDb = ParameterDescriptor.number("ceilingDb", -60...20, default: 0, unit: "dB", help: "Attack level that maps to maxIntensity.")
    public static let gamma = ParameterDescriptor.number("gamma", 0.2...4, default: 1, help: "Curve of the level → intensity map (below 1 lifts soft hits).")
    public static let minIntensity = ParameterDescriptor.number("minIntensity", 0...1, default: 0.3, help: "Intensity of the softest transient that passes the gates.")
    public static let maxIntensity = ParameterDescriptor.number("maxIntensity", 0...1, default: 1, help: "Intensity of an attack at ceilingDb.")
    public static let attackWindowMs = ParameterDescriptor.number("attackWindowMs", 2...200, default: 25, unit: "ms",
                help: "Span after the onset whose level and brightness describe the attack.")
    public static let sharpnessFrom = ParameterDescriptor.choice("sharpnessFrom", BrightnessMeasure.self, default: .weightedCentroid,
                help: "What a transient's sharpness measures. weightedCentroid: the attack's power centroid less its weight in the lows (a boom feels round, a coin or a click crisp); centroid: the continuous sharpness's own measure (mapping.sharpness).")
    public static let lowOctaves = ParameterDescriptor.number("lowOctaves", 0...15, default: 5.5, unit: "octaves",
                help: "weightedCentroid value (log2 Hz less the low-weight penalty) that maps to sharpness 0.")
    public static let highOctaves = ParameterDescriptor.number("highOctaves", 1...16, default: 11, unit: "octaves",
                help: "weightedCentroid value that maps to sharpness 1.")
    public static let parameters: [ParameterDescriptor] = [enabled, floorDb, ceilingDb, gamma, minIntensity, maxIntensity,
                                                           attackWindowMs, sharpnessFrom, lowOctaves, highOctaves]
    public static let orderedPairs = [OrderedPair(floorDb, below: ceilingDb), OrderedPair(minIntensity, below: maxIntensity, allowsEqual: true),
                                      OrderedPair(lowOctaves, below: highOctaves)]
}

/// The continuous intensity curve from the loudness envelope.
public enum IntensitySettings: TunablePart {
    public static let id = "mapping.intensity"
    public static let summary = "Continuous intensity following the loudness envelope, gated under silence."
    public static let enabled = ParameterDescriptor.flag("enabled", default: true, help: "Write HapticContinuous events for the sound's body.")
    public static let floorDb = ParameterDescriptor.number("floorDb", -120 ... -3, default: -50, unit: "dB",
                help: "Level (relative to the reference) that maps to intensity 0.")
    public static let ceilingDb = ParameterDescriptor.number("ceilingDb", -60...20, default: 0, unit: "dB", help: "Level that maps to maxIntensity.")
    public static let gamma = ParameterDescriptor.number("gamma", 0.2...4, default: 1, help: "Curve of the level → intensity map.")
    public static let maxIntensity = ParameterDescriptor.number("maxIntensity", 0...1, default: 0.8, help: "Intensity at ceilingDb; leaves room for transients to stand out.")
    public static let attackMs = ParameterDescriptor.number("attackMs", 0...500, default: 0, unit: "ms", help: "How fast the intensity may rise (0: with the level's own frames).")
    public static let releaseMs = ParameterDescriptor.number("releaseMs", 0...2000, default: 20, unit: "ms", help: "How fast the intensity may fall.")
    public static let gate = ParameterDescriptor.number("gate", 0...0.5, default: 0.06, help: "Intensity below which the continuous haptic is off.")
    public static let minRegionMs = ParameterDescriptor.number("minRegionMs", 0...2000, default: 60, unit: "ms", help: "Shorter bursts get no continuous event (transients carry them).")
    public static let mergeGapMs = ParameterDescriptor.number("mergeGapMs", 0...2000, default: 80, unit: "ms", help: "Regions closer than this are joined.")
    public static let tolerance = ParameterDescriptor.number("tolerance", 0.001...0.3, default: 0.06, help: "Largest error of the simplified curve, in intensity units (0.06 of the default 0…0.8 over −50…0 dB is 3.75 dB).")
    public static let parameters: [ParameterDescriptor] = [enabled, floorDb, ceilingDb, gamma, maxIntensity, attackMs, releaseMs, gate, minRegionMs, mergeGapMs, tolerance]
    public static let orderedPairs = [OrderedPair(floorDb, below: ceilingDb)]
}

/// The sharpness curve from the sound's brightness.
public enum SharpnessSettings: TunablePart {
    public static let id = "mapping.sharpness"
    public static let summary = "Sharpness of the continuous body from brightness: the weighted centroid in octaves (as transients), or the spectral centroid on a log-frequency scale."
    public static let from = ParameterDescriptor.choice("from", BrightnessMeasure.self, default: .weightedCentroid,
                help: "What the body's sharpness measures. weightedCentroid: each frame's log2 centroid less the sound's weight in the lows (the power-weighted mean, over its audible frames, of what the transients' weighted centroid takes off), mapped lowOctaves…highOctaves: a rumble feels round, a hiss crisp, and within the sound the curve moves as the centroid does; centroid: the magnitude centroid mapped lowHz…highHz.")
    public static let lowOctaves = ParameterDescriptor.number("lowOctaves", 0...15, default: 5.8, unit: "octaves",
                help: "weightedCentroid: the value (log2 Hz less the weight in the lows) that maps to sharpness 0.")
    public static let highOctaves = ParameterDescriptor.number("highOctaves", 1...16, default: 8.6, unit: "octaves",
                help: "weightedCentroid value that maps to sharpness 1.")
    public static let knee = ParameterDescriptor.number("knee", 0...0.5, default: 0.3,
                help: "weightedCentroid: width of each soft end of the octave scale, in sharpness: linear from knee to 1 − knee, bending towards 0 (as 1/x: knee²/(2·knee − x)) and towards 1 (as 1/x: 1 − knee²/(2·knee − (1 − x))) beyond, so a body darker than lowOctaves (or brighter than highOctaves) still moves as its brightness does; 0 clips at lowOctaves and highOctaves.")
    public static let gamma = ParameterDescriptor.number("gamma", 0.5...3, default: 1.15,
                help: "weightedCentroid: exponent on the scaled value (above 1 keeps dark bodies rounder while bright ones stay crisp).")
    public static let lowHz = ParameterDescriptor.number("lowHz", 20...5000, default: 150, unit: "Hz", help: "centroid: the centroid that maps to sharpness 0.")
    public static let highHz = ParameterDescriptor.number("highHz", 200...20000, default: 6000, unit: "Hz", help: "centroid: the centroid that maps to sharpness 1.")
    public static let smoothingMs = ParameterDescriptor.number("smoothingMs", 0...1000, default: 6, unit: "ms", help: "Smoothing of the sharpness curve (applied forwards and backwards, so it adds no lag).")
    public static let tolerance = ParameterDescriptor.number("tolerance", 0.001...0.5, default: 0.04, help: "Largest error of the simplified curve. weightedCentroid: in the octave scale's linear units, (highOctaves − lowOctaves) octaves each, the same everywhere on the scale, its soft ends and gamma included (0.04 of the default 2.8 octaves is 0.112 octave); centroid: in sharpness units.")
    public static let lowWeightScale = ParameterDescriptor.number("lowWeightScale", 0...4, default: 3.5,
                help: "weightedCentroid: times the sound's weight in the lows (what the transients' measure takes off, averaged over the sound) the body's brightness loses: above 1 a body with heavy lows (an impact's thud) reads rounder against a light one (a click) than the transients do.")
    public static let parameters: [ParameterDescriptor] = [from, lowOctaves, highOctaves, knee, gamma, lowHz, highHz, smoothingMs, tolerance, lowWeightScale]
    public static let orderedPairs = [OrderedPair(lowOctaves, below: highOctaves), OrderedPair(lowHz, below: highHz)]
}
