import TactusCore

/// The mapping parts' parameters, read once from their `ParameterSet`s into typed values
/// (`HapticMapper` never looks a parameter up while it maps).
struct MappingSettings {
    /// `mapping.loudness`: how levels are referenced and how loud a file plays.
    struct Loudness {
        /// Levels relative to the file's loudest frame (otherwise dBFS).
        let perFile: Bool
        /// A file whose loudest frame is below this (dBFS) is silent.
        let silenceDb: Double
        /// nil unless `normalization` is `loudness`: the sound's strength from its loudness.
        let strength: LoudnessStrength?

        init(_ parameters: ParameterSet) {
            let normalization = parameters.choice(LoudnessSettings.normalization, as: LoudnessNormalization.self)
            perFile = normalization != .absolute
            strength = normalization == .loudness ? LoudnessStrength(parameters) : nil
            silenceDb = parameters.number(LoudnessSettings.silenceDb)
        }
    }

    /// `mapping.transients`: each onset's intensity and sharpness from its attack.
    struct Transients {
        let enabled: Bool
        /// Attack level (dB relative to the reference) → 0…1.
        let level: DecibelScale
        let minIntensity: Double, maxIntensity: Double
        /// Span after the onset that describes the attack, seconds.
        let attackWindow: Double
        let sharpnessFrom: BrightnessMeasure
        /// `weightedCentroid`: octaves → sharpness, with soft ends.
        let octaves: OctaveScale

        init(_ parameters: ParameterSet) {
            enabled = parameters.flag(TransientSettings.enabled)
            level = DecibelScale(floorDb: parameters.number(TransientSettings.floorDb), ceilingDb: parameters.number(TransientSettings.ceilingDb),
                                 gamma: parameters.number(TransientSettings.gamma))
            minIntensity = parameters.number(TransientSettings.minIntensity)
            maxIntensity = parameters.number(TransientSettings.maxIntensity)
            attackWindow = parameters.number(TransientSettings.attackWindowMs) / 1000
            sharpnessFrom = parameters.choice(TransientSettings.sharpnessFrom, as: BrightnessMeasure.self)
            octaves = OctaveScale(lowOctaves: parameters.number(TransientSettings.lowOctaves),
                                  highOctaves: parameters.number(TransientSettings.highOctaves),
                                  knee: parameters.number(TransientSettings.knee))
        }
    }

    /// `mapping.intensity`: the continuous intensity and where regions are.
    struct Intensity {
        let enabled: Bool
        /// Level (dB relative to the reference) counted audible, also for sharpness.
        let floorDb: Double
        /// Level → 0…1.
        let level: DecibelScale
        let maxIntensity: Double
        let attackMs: Double, releaseMs: Double
        let gate: Double
        let minRegionMs: Double, mergeGapMs: Double
        /// Largest error of the simplified curve, intensity units.
        let tolerance: Double

        init(_ parameters: ParameterSet) {
            enabled = parameters.flag(IntensitySettings.enabled)
            floorDb = parameters.number(IntensitySettings.floorDb)
            level = DecibelScale(floorDb: floorDb, ceilingDb: parameters.number(IntensitySettings.ceilingDb),
                                 gamma: parameters.number(IntensitySettings.gamma))
            maxIntensity = parameters.number(IntensitySettings.maxIntensity)
            attackMs = parameters.number(IntensitySettings.attackMs)
            releaseMs = parameters.number(IntensitySettings.releaseMs)
            gate = parameters.number(IntensitySettings.gate)
            minRegionMs = parameters.number(IntensitySettings.minRegionMs)
            mergeGapMs = parameters.number(IntensitySettings.mergeGapMs)
            tolerance = parameters.number(IntensitySettings.tolerance)
        }
    }

    /// `mapping.sharpness`: the body's sharpness from brightness.
    struct Sharpness {
        let from: BrightnessMeasure
        /// `weightedCentroid`: the sound's place and each frame's move → sharpness.
        let placed: PlacedScale
        /// `weightedCentroid`: sharpness per octave at the middle of the curve (the tolerance's unit).
        let movePerOctave: Double
        /// `centroid`: Hz → sharpness.
        let hz: LogFrequencyScale
        let smoothingMs: Double
        /// Largest error of the simplified curve, sharpness units.
        let tolerance: Double
        /// `weightedCentroid`: factor on the sound's weight in the lows its reference brightness loses.
        let lowWeightScale: Double

        init(_ parameters: ParameterSet) {
            from = parameters.choice(SharpnessSettings.from, as: BrightnessMeasure.self)
            movePerOctave = parameters.number(SharpnessSettings.movePerOctave)
            placed = PlacedScale(lowOctaves: parameters.number(SharpnessSettings.lowOctaves),
                                 highOctaves: parameters.number(SharpnessSettings.highOctaves),
                                 edge: parameters.number(SharpnessSettings.edge), movePerOctave: movePerOctave,
                                 brightenOctaves: parameters.number(SharpnessSettings.brightenOctaves))
            hz = LogFrequencyScale(lowHz: parameters.number(SharpnessSettings.lowHz), highHz: parameters.number(SharpnessSettings.highHz))
            smoothingMs = parameters.number(SharpnessSettings.smoothingMs)
            tolerance = parameters.number(SharpnessSettings.tolerance)
            lowWeightScale = parameters.number(SharpnessSettings.lowWeightScale)
        }
    }

    let loudness: Loudness
    let transients: Transients
    let intensity: Intensity
    let sharpness: Sharpness
}
