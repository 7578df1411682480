import TactusCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Moves an onset from its STFT frame to the sample where the sound rises out of what
/// precedes it, so a transient lands on the audible attack rather than on a frame centre.
///
/// It looks at the raw waveform around the frame: finds the attack's peak, estimates the
/// level before it (silence, a noise bed or the previous sound's tail), and walks back from
/// the peak to the first sample of the run that stays above a threshold set both above that
/// floor (at most halfway from it to the peak) and relative to the peak, tolerating the short
/// dips of zero crossings.
public struct AttackLocator: TunablePart {
    public static let id = "attack"
    public static let summary = "Sample-accurate attack placement by back-tracking on the waveform."
    public static let searchBackMs = ParameterDescriptor.number("searchBackMs", 5...200, default: 40, unit: "ms",
                help: "How far before the detecting frame's window the attack may start.")
    public static let floorMarginDb = ParameterDescriptor.number("floorMarginDb", 0...40, default: 8, unit: "dB",
                help: "The attack starts where the waveform rises this far above the level before it, or halfway from that level to the attack's peak where that is lower (an attack that stands little above a sound still playing).")
    public static let peakRelativeDb = ParameterDescriptor.number("peakRelativeDb", -80 ... -6, default: -40, unit: "dB",
                help: "…and above the attack's peak by this (negative) amount, whichever is higher.")
    public static let maxGapMs = ParameterDescriptor.number("maxGapMs", 0...20, default: 8, unit: "ms",
                help: "Dips below the threshold shorter than this (zero crossings) do not end the attack.")
    public static let latencyMs = ParameterDescriptor.number("latencyMs", -20...20, default: 0, unit: "ms",
                help: "Constant shift added to every refined onset (positive = later), to correct a measured bias.")
    public static let parameters: [ParameterDescriptor] = [searchBackMs, floorMarginDb, peakRelativeDb, maxGapMs, latencyMs]

    let searchBack: Int
    let floorMargin: Float
    let peakRelative: Float
    let maxGap: Int
    let latency: Double
    let geometry: FrameGeometry

    /// - Parameters:
    ///   - parameters: values of `AttackLocator.parameters`.
    ///   - geometry: the frames the onsets were detected on.
    public init(parameters: ParameterSet, geometry: FrameGeometry) {
        let sr = geometry.sampleRate
        self.geometry = geometry
        searchBack = Int(parameters.number(Self.searchBackMs) / 1000 * sr)
        floorMargin = powf(10, Float(parameters.number(Self.floorMarginDb)) / 20)
        peakRelative = powf(10, Float(parameters.number(Self.peakRelativeDb)) / 20)
        maxGap = max(1, Int(parameters.number(Self.maxGapMs) / 1000 * sr))
        latency = parameters.number(Self.latencyMs) / 1000
    }

    /// How far from the level before an attack towards its peak (0…1, amplitude) the
    /// threshold may sit at most: the cap takes over where the peak stands less than about
    /// 12 dB above that level (`floorMarginDb` 8).
    static let towardsPeak: Float = 0.5

    /// Samples of history this locator needs behind a frame centre.
    var reach: Int { searchBack + geometry.windowLength + geometry.hop }

    struct Attack {
        /// Absolute sample index of the first sample of the attack.
        var sample: Int
        /// Peak absolute amplitude of the attack.
        var peak: Float
    }

    /// Locates the attack detected by the frame centred on `centre`, never before `notBefore`,
    /// reading the waveform through `scratch` (at least `reach` samples; nothing is allocated)
    /// up to the hop after the frame's span, or up to `end` (a sample index) where that is
    /// earlier: a live stream deciding on its newest frame has heard no further.
    func locate(centre: Int, notBefore: Int, end: Int = .max, in history: SampleHistory,
                scratch: UnsafeMutableBufferPointer<Float>) -> Attack {
        let half = geometry.windowLength / 2
        let from = max(notBefore, centre - half - searchBack)
        let (start, count) = history.window(from: from, to: min(end, centre + half + geometry.hop), into: scratch)
        let x = UnsafeBufferPointer(rebasing: scratch[0..<count])
        guard !x.isEmpty else { return Attack(sample: max(centre, notBefore), peak: 0) }

        // The attack's peak: the loudest sample in the span the frame saw.
        let peakFrom = max(0, centre - half - start)
        var peakIndex = min(peakFrom, x.count - 1)
        for i in peakIndex..<x.count where abs(x[i]) > abs(x[peakIndex]) { peakIndex = i }
        let peak = abs(x[peakIndex])

        // The level the attack rises out of: the quietest 5 ms stretch (by its peak) before
        // the attack's peak. Before a soft attack over a decaying tail that is the tail just
        // before the attack, not its louder past; 5 ms spans half a period of 100 Hz, so a
        // low tone's zero crossings do not pass for silence.
        let block = max(1, Int(geometry.sampleRate / 200))
        var floor = Float.infinity
        var i = 0
        while i + block <= peakIndex {
            var m: Float = 0
            for k in i..<(i + block) { m = max(m, abs(x[k])) }
            floor = min(floor, m)
            i += block
        }
        if floor == .infinity { floor = 0 }
        // An attack over a sound still playing (a note over the one ringing before it) may
        // never stand `floorMarginDb` above it; the threshold is then capped part of the way
        // to the peak, or the walk back would start and end at the peak itself.
        let aboveFloor = min(floor * floorMargin, floor + (peak - floor) * Self.towardsPeak)
        let threshold = max(aboveFloor, peak * peakRelative, Float.leastNormalMagnitude)

        // Walk back from the peak while the waveform stays above the threshold.
        var onset = peakIndex
        var gap = 0
        var j = peakIndex
        while j > 0 && gap < maxGap {
            j -= 1
            if abs(x[j]) >= threshold {
                onset = j
                gap = 0
            } else {
                gap += 1
            }
        }
        let shifted = start + onset + Int((latency * geometry.sampleRate).rounded())
        return Attack(sample: max(notBefore, shifted), peak: peak)
    }
}
