/// One way of turning frames into an onset novelty curve (aubio's `specdesc`): high where a
/// new sound starts. A method is one small type; adding one means writing a type and
/// listing it in `OnsetMethods.all`.
///
/// Novelty values are level-independent (decibel rises or ratios), so one threshold serves
/// loud and quiet files alike.
public protocol OnsetMethod: TunablePart {
    init(parameters: ParameterSet, geometry: FrameGeometry)
    /// Novelty of this frame; called once per frame, in order.
    mutating func novelty(of frame: SpectralFrame) -> Float
    /// Peak-picking defaults tuned for this method's novelty scale (the "method default"
    /// layer between parameter defaults and presets).
    static var peakPickingDefaults: [String: ParameterValue] { get }
}

public enum OnsetMethods {
    /// Every built-in method, by id.
    public static let all: [any OnsetMethod.Type] = [
        SuperFlux.self, SpectralFlux.self, HighFrequencyContent.self, ComplexDomain.self, EnergyRise.self,
    ]

    public static func named(_ id: String) -> (any OnsetMethod.Type)? {
        all.first { $0.id == id }
    }
}

/// Parameters shared by methods that compare log magnitudes between frames.
enum LogSpectrum {
    static let parameters: [ParameterDescriptor] = [
        .number("floorDb", -140 ... -30, default: -90, unit: "dB",
                help: "Magnitudes below this level (dBFS) count as silence, so hiss and dither cannot make onsets."),
        .number("minHz", 0...2000, default: 30, unit: "Hz", help: "Lowest frequency that contributes."),
        .number("maxHz", 1000...48000, default: 16000, unit: "Hz",
                help: "Highest frequency that contributes (capped at Nyquist), so the same sound at 22.05 and 96 kHz scores alike."),
    ]

    /// Log magnitudes in dB with a floor, for the bins of `range`.
    static func fill(_ out: inout [Float], from frame: SpectralFrame, range: (Int, Int), floorDb: Float) {
        let (lo, hi) = range
        if out.count != hi - lo { out = Array(repeating: floorDb, count: max(0, hi - lo)) }
        frame.magnitude.withUnsafeBufferPointer { m in
            for k in lo..<hi { out[k - lo] = decibels(amplitude: m[k], floorDb: floorDb) }
        }
    }
}
