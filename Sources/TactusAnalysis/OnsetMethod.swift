import TactusCore

/// One way of turning frames into an onset novelty curve (aubio's `specdesc`): high where a
/// new sound starts. A method is one small type; adding one means writing a type and
/// listing it in `OnsetMethods.all`.
///
/// Novelty values are level-independent (decibel rises or ratios), so one threshold serves
/// loud and quiet files alike.
public protocol OnsetMethod: TunablePart {
    /// - Parameters:
    ///   - parameters: values of the method's own `parameters`.
    ///   - geometry: the frames it will see.
    init(parameters: ParameterSet, geometry: FrameGeometry)
    /// Novelty of this frame; called once per frame, in order.
    /// - Parameter frame: the next frame, valid only during the call.
    /// - Returns: the novelty on the method's own scale (`OnsetDetector.noveltyOutput`).
    mutating func novelty(of frame: SpectralFrame) -> Float
    /// Peak-picking defaults tuned for this method's novelty scale (the "method default"
    /// layer between parameter defaults and presets), each keyed by its `PeakPicker`
    /// descriptor.
    static var peakPickingDefaults: [ParameterSetting] { get }
}

/// The registry of onset methods presets can select by id: a static table of the built-in
/// ones plus any a library user registers (no dynamic loading).
public enum OnsetMethods {
    private static let registry = PartRegistry<any OnsetMethod.Type>(
        builtIn: [SuperFlux.self, SpectralFlux.self, HighFrequencyContent.self, ComplexDomain.self, EnergyRise.self],
        id: { $0.id })

    /// The methods Tactus ships, SuperFlux (the default) first.
    public static var builtIn: [any OnsetMethod.Type] { registry.builtIn }

    /// Every method presets can select: built-in first, then registered ones.
    public static var all: [any OnsetMethod.Type] { registry.all }

    /// Makes a method of your own selectable by `onset.method`; replaces one with the same id.
    /// - Parameter method: the method's type; its `id` is what presets name.
    public static func register(_ method: any OnsetMethod.Type) { registry.register(method) }

    /// Removes a method registered with `register` (built-in methods stay).
    /// - Parameter id: the registered method's id.
    public static func unregister(_ id: String) { registry.unregister(id) }

    /// - Parameter id: a method id, as `onset.method` names it.
    /// - Returns: the built-in or registered method with that id, or nil.
    public static func named(_ id: String) -> (any OnsetMethod.Type)? { registry.named(id) }
}

/// Parameters shared by the spectral methods: the level counted as silence and the band
/// that contributes.
enum SpectrumLimits {
    static let floorDb = ParameterDescriptor.number("floorDb", -160 ... -30, default: -100, unit: "dB",
                help: "Levels below this (dBFS) count as silence, so hiss and dither cannot make onsets.")
    static let minHz = ParameterDescriptor.number("minHz", 0...2000, default: 30, unit: "Hz", help: "Lowest frequency that contributes.")
    static let maxHz = ParameterDescriptor.number("maxHz", 1000...48000, default: 16000, unit: "Hz",
                help: "Highest frequency that contributes (capped at Nyquist), so the same sound at 22.05 and 96 kHz scores alike.")
    static let parameters: [ParameterDescriptor] = [floorDb, minHz, maxHz]
    static let orderedPairs = [OrderedPair(minHz, below: maxHz)]
}

/// Parameters of the flux methods, which compare log band levels between frames.
enum LogSpectrum {
    static let bandsPerOctave = ParameterDescriptor.number("bandsPerOctave", 1...48, default: 12, unit: "bands",
                help: "Resolution of the log-frequency filterbank; every octave weighs the same.")
    static let parameters: [ParameterDescriptor] = SpectrumLimits.parameters + [bandsPerOctave]

    static func filterbank(_ parameters: ParameterSet, _ geometry: FrameGeometry) -> LogFilterbank {
        LogFilterbank.shared(geometry: geometry, minHz: parameters.number(SpectrumLimits.minHz), maxHz: parameters.number(SpectrumLimits.maxHz),
                             bandsPerOctave: parameters.number(LogSpectrum.bandsPerOctave))
    }
}
