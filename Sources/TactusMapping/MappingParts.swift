import TactusCore

/// How levels are referenced before mapping to intensity.
public enum LoudnessSettings: TunablePart {
    public static let id = "mapping.loudness"
    public static let summary = "Level reference: per file (its loudest frame) or absolute (dBFS)."
    public static let parameters: [ParameterDescriptor] = [
        .choice("normalization", ["perFile", "absolute"], default: "perFile",
                help: "perFile: each sound's loudest frame is 0 dB, so every file uses the full haptic range (one-off sounds). absolute: levels are dBFS, so a quiet click stays lighter than a loud explosion across a library."),
        .number("silenceDb", -140 ... -20, default: -80, unit: "dB",
                help: "A file whose loudest frame is below this (dBFS) is treated as silent: audio only, no haptics."),
    ]
}

/// Transient intensity and sharpness from each onset's attack.
public enum TransientSettings: TunablePart {
    public static let id = "mapping.transients"
    public static let summary = "Intensity from the attack's level, sharpness from the attack's brightness."
    public static let parameters: [ParameterDescriptor] = [
        .flag("enabled", default: true, help: "Write HapticTransient events at onsets."),
        .number("floorDb", -120 ... -3, default: -40, unit: "dB",
                help: "Attack level (relative to the reference) that maps to minIntensity."),
        .number("ceilingDb", -60...20, default: 0, unit: "dB", help: "Attack level that maps to maxIntensity."),
        .number("gamma", 0.2...4, default: 1, help: "Curve of the level → intensity map (below 1 lifts soft hits)."),
        .number("minIntensity", 0...1, default: 0.3, help: "Intensity of the softest transient that passes the gates."),
        .number("maxIntensity", 0...1, default: 1, help: "Intensity of an attack at ceilingDb."),
        .number("attackWindowMs", 2...200, default: 25, unit: "ms",
                help: "Span after the onset whose level and brightness describe the attack."),
    ]
}

/// The continuous intensity curve from the loudness envelope.
public enum IntensitySettings: TunablePart {
    public static let id = "mapping.intensity"
    public static let summary = "Continuous intensity following the loudness envelope, gated under silence."
    public static let parameters: [ParameterDescriptor] = [
        .flag("enabled", default: true, help: "Write HapticContinuous events for the sound's body."),
        .number("floorDb", -120 ... -3, default: -50, unit: "dB",
                help: "Level (relative to the reference) that maps to intensity 0."),
        .number("ceilingDb", -60...20, default: 0, unit: "dB", help: "Level that maps to maxIntensity."),
        .number("gamma", 0.2...4, default: 1, help: "Curve of the level → intensity map."),
        .number("maxIntensity", 0...1, default: 0.8, help: "Intensity at ceilingDb; leaves room for transients to stand out."),
        .number("attackMs", 0...500, default: 5, unit: "ms", help: "How fast the intensity may rise."),
        .number("releaseMs", 0...2000, default: 20, unit: "ms", help: "How fast the intensity may fall."),
        .number("gate", 0...0.5, default: 0.06, help: "Intensity below which the continuous haptic is off."),
        .number("minRegionMs", 0...2000, default: 60, unit: "ms", help: "Shorter bursts get no continuous event (transients carry them)."),
        .number("mergeGapMs", 0...2000, default: 80, unit: "ms", help: "Regions closer than this are joined."),
        .number("tolerance", 0.001...0.3, default: 0.03, help: "Largest error of the simplified curve, in intensity units."),
    ]
}

/// The sharpness curve from the spectral centroid.
public enum SharpnessSettings: TunablePart {
    public static let id = "mapping.sharpness"
    public static let summary = "Sharpness from brightness (spectral centroid) on a log-frequency scale."
    public static let parameters: [ParameterDescriptor] = [
        .number("lowHz", 20...5000, default: 150, unit: "Hz", help: "Centroid that maps to sharpness 0."),
        .number("highHz", 200...20000, default: 6000, unit: "Hz", help: "Centroid that maps to sharpness 1."),
        .number("smoothingMs", 0...1000, default: 5, unit: "ms", help: "Smoothing of the sharpness curve (applied forwards and backwards, so it adds no lag)."),
        .number("tolerance", 0.001...0.5, default: 0.03, help: "Largest error of the simplified curve, in sharpness units."),
    ]
}
