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
    public static let knee = ParameterDescriptor.number("knee", 0...0.5, default: 0.15,
                help: "weightedCentroid: width of each soft end of the octave scale, in sharpness: linear from knee to 1 − knee, bending towards 0 (as 1/x: knee²/(2·knee − x)) and towards 1 (as 1/x: 1 − knee²/(2·knee − (1 − x))) beyond, so attacks darker than lowOctaves or brighter than highOctaves keep their order instead of tying at 0 or 1; 0 clips.")
    public static let parameters: [ParameterDescriptor] = [enabled, floorDb, ceilingDb, gamma, minIntensity, maxIntensity,
                                                           attackWindowMs, sharpnessFrom, lowOctaves, highOctaves, knee]
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
    public static let summary = "Sharpness of the continuous body from brightness: the sound's place from its reference brightness (the weighted centroid in octaves, as transients) and each moment's move from it, or the spectral centroid on a log-frequency scale."
    public static let from = ParameterDescriptor.choice("from", BrightnessMeasure.self, default: .weightedCentroid,
                help: "What the body's sharpness measures. weightedCentroid: each sound gets a place on the scale from its reference brightness (its power-weighted mean log2 centroid over its audible frames, less lowWeightScale × its weight in the lows), placed on lowOctaves…highOctaves and kept edge away from 0 and 1 (softly, nearing the bound only as 1/u², so sounds far past the ends keep their order), so a rumble sits low and a click high; within the sound the body moves from that place by movePerOctave per octave its centroid moves from the sound's own mean, so every sound's body moves as its brightness does. centroid: the magnitude centroid mapped lowHz…highHz.")
    public static let lowOctaves = ParameterDescriptor.number("lowOctaves", 0...15, default: 2.4, unit: "octaves",
                help: "weightedCentroid: a sound's reference brightness (log2 Hz less the weight in the lows) placed near the low end: its place rises as a logistic curve centred between lowOctaves and highOctaves, as steep there as a straight line from 0 at lowOctaves to 1 at highOctaves.")
    public static let highOctaves = ParameterDescriptor.number("highOctaves", 1...16, default: 8.1, unit: "octaves",
                help: "weightedCentroid: the reference brightness placed near the high end (see lowOctaves).")
    public static let edge = ParameterDescriptor.number("edge", 0...0.45, default: 0.07,
                help: "weightedCentroid: how near 0 or 1 a sound's place may come, in sharpness: the darkest sound is placed just above edge and the brightest just under 1 − edge (softly, keeping their order), so even they have room to move: the place is Z·u/√(1 + u²), Z = logit(1 − edge), u its unbounded logit over Z, so sounds octaves past the ends still keep their order; 0 leaves the place unbounded.")
    public static let movePerOctave = ParameterDescriptor.number("movePerOctave", 0...2, default: 0.375, unit: "per octave",
                help: "weightedCentroid: how far the body moves from its sound's place per octave its centroid moves from the sound's mean, in sharpness at the middle of the scale; nearer 0 and 1 the move bends softly (a logistic curve), so it never reaches them. 0 plays each sound at its place.")
    public static let brightenOctaves = ParameterDescriptor.number("brightenOctaves", -8...8, default: 0, unit: "octaves",
                help: "weightedCentroid: plays every body as if its centroid were this many octaves higher (negative: lower), on the movePerOctave curve: dark and bright bodies move too. feel.crispness sets it.")
    public static let lowHz = ParameterDescriptor.number("lowHz", 20...5000, default: 150, unit: "Hz", help: "centroid: the centroid that maps to sharpness 0.")
    public static let highHz = ParameterDescriptor.number("highHz", 200...20000, default: 6000, unit: "Hz", help: "centroid: the centroid that maps to sharpness 1.")
    public static let smoothingMs = ParameterDescriptor.number("smoothingMs", 0...1000, default: 6, unit: "ms", help: "Smoothing of the sharpness curve (applied forwards and backwards, so it adds no lag).")
    public static let tolerance = ParameterDescriptor.number("tolerance", 0.001...0.5, default: 0.047, help: "Largest error of the simplified curve, in sharpness units. weightedCentroid: at the middle of the scale, the curve kept within tolerance / movePerOctave octaves of the centroid everywhere (0.047 at 0.375 per octave is 0.125 octave), so a body near 0 or 1 keeps its moves as one in the middle; centroid: everywhere.")
    public static let lowWeightScale = ParameterDescriptor.number("lowWeightScale", 0...4, default: 4,
                help: "weightedCentroid: times the sound's weight in the lows (what the transients' measure takes off, averaged over the sound) its reference brightness loses: above 1 a body with heavy lows (an impact's thud) is placed rounder against a light one (a click) than the transients are.")
    public static let parameters: [ParameterDescriptor] = [from, lowOctaves, highOctaves, edge, movePerOctave, brightenOctaves,
                                                           lowHz, highHz, smoothingMs, tolerance, lowWeightScale]
    public static let orderedPairs = [OrderedPair(lowOctaves, below: highOctaves), OrderedPair(lowHz, below: highHz)]
}
