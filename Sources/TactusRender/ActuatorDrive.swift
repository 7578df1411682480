import TactusCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The drive signal of a vibrotactile actuator rendered from a track: the one renderer behind
/// `pcm` (the signal alone) and `dualsense` (the signal on the controller's actuator channels).
///
/// The rule, sample by sample at `sampleRate` (see README, "Rendered drive signals"):
/// - a sine carrier whose frequency follows sharpness s within the actuator's band, through its
///   resonance on a log scale: f = resonance · (low/resonance)^(1−2s) for s < 0.5 and
///   resonance · (high/resonance)^(2s−1) from it (s = 0 → `lowHz`, 0.5 → `resonanceHz`,
///   1 → `highHz`); its phase runs on without jumps when the frequency changes;
/// - its amplitude is the continuous intensity (each region faded in and out over one period
///   of the resonance, so the step from silence does not click) plus the pulse of the transient
///   playing (`pulseMs` long from the transient's time, its intensity shaped by `pulseShape`;
///   where pulses overlap, the strongest), summed (a transient plays over the body, as Core
///   Haptics plays a transient event during a continuous one), bent into full scale by a
///   quadratic knee from 0.9 to 1.1: sum − (sum − 0.9)² / 0.4 there, 1 above (a lone pulse of 1
///   plays 0.975); the rise of a pulse is kept and no clip corner spreads energy above the band;
/// - the sharpness the carrier follows is the body's and the pulse's, weighted by their
///   amplitudes, so it glides to the transient's as its pulse swells and back as it fades: an
///   abrupt change of frequency under a playing amplitude would spread energy above the band;
/// - amplitude 1 is full scale. Intensity maps to amplitude linearly: the felt strength of a
///   voice coil or LRA grows with its drive amplitude at a given frequency.
/// What is lost: any texture finer than the curves (the track holds none), each sharpness
/// where a pulse plays over the body (the carrier plays their blend), and what the knee takes
/// from a sum above 0.9 (a 0.73 pulse over a 0.57 body plays 1, not 1.3).
public struct ActuatorDrive: Equatable, Sendable {
    /// Named actuators: a wideband voice coil (DualSense, Razer HyperSense, Meta Quest
    /// controllers, haptic shakers) and a phone's linear resonant actuator.
    public enum Profile: String, CaseIterable, Sendable {
        /// voiceCoil: 80…500 Hz, resonance 160 Hz, 12 ms pulses; lra: 150…190 Hz, resonance 170 Hz, 20 ms pulses; custom: the band and pulse from the parameters.
        case voiceCoil, lra, custom
    }

    /// Carrier frequencies in Hz at sharpness 0, 0.5 (the resonance) and 1; low ≤ resonance ≤ high.
    public var lowHz: Double, resonanceHz: Double, highHz: Double
    /// Length of a transient's pulse, seconds.
    public var pulse: Double
    var shape: TrackSampler.PulseShape

    public static let profile = ParameterDescriptor.choice("profile", Profile.self, default: .voiceCoil,
                help: "The actuator: voiceCoil (80-500 Hz band, resonance 160 Hz, 12 ms pulses), lra (a phone's linear resonant actuator: 150-190 Hz, resonance 170 Hz, 20 ms pulses), or custom (lowHz, resonanceHz, highHz and pulseMs below).")
    public static let lowHz = ParameterDescriptor.number("lowHz", 10...2000, default: 80, unit: "Hz",
                help: "Carrier frequency at sharpness 0, with profile custom.")
    public static let resonanceHz = ParameterDescriptor.number("resonanceHz", 10...2000, default: 160, unit: "Hz",
                help: "Carrier frequency at sharpness 0.5 (the actuator's resonance), with profile custom; between lowHz and highHz.")
    public static let highHz = ParameterDescriptor.number("highHz", 10...2000, default: 500, unit: "Hz",
                help: "Carrier frequency at sharpness 1, with profile custom.")
    public static let pulseMs = ParameterDescriptor.number("pulseMs", 2...100, default: 12, unit: "ms",
                help: "Length of a transient's pulse, with profile custom.")
    public static let pulseShape = ParameterDescriptor.choice("pulseShape", ["hann", "sine"], default: "hann",
                help: "Envelope of a transient's pulse: hann (sin², smooth ends, narrowest spectrum) or sine (rises faster, wider spectrum).")
    /// The parameters every rendering format declares, in its own section.
    public static let parameters = [profile, lowHz, resonanceHz, highHz, pulseMs, pulseShape]

    /// The drive of the profile a format's parameters name (`parameters`).
    /// - Throws: `FormatWriteError` when a custom band is not ordered low ≤ resonance ≤ high.
    init(_ parameters: ParameterSet) throws {
        let shape = TrackSampler.PulseShape(rawValue: parameters.choice(Self.pulseShape)) ?? .hann
        switch parameters.choice(Self.profile, as: Profile.self) {
        case .voiceCoil: self.init(lowHz: 80, resonanceHz: 160, highHz: 500, pulse: 0.012, shape: shape)
        case .lra: self.init(lowHz: 150, resonanceHz: 170, highHz: 190, pulse: 0.020, shape: shape)
        case .custom:
            self.init(lowHz: parameters.number(Self.lowHz), resonanceHz: parameters.number(Self.resonanceHz),
                      highHz: parameters.number(Self.highHz), pulse: parameters.number(Self.pulseMs) / 1000, shape: shape)
            guard lowHz <= resonanceHz, resonanceHz <= highHz else {
                throw FormatWriteError("the actuator's band must hold its resonance: lowHz \(lowHz) ≤ resonanceHz \(resonanceHz) ≤ highHz \(highHz)")
            }
        }
    }

    /// The drive a reader assumes rendered a file: the parameters' profile, or the voice coil's
    /// when a custom band is out of order (reading never fails on the reader's own settings).
    init(readingWith parameters: ParameterSet) {
        self = (try? ActuatorDrive(parameters)) ?? ActuatorDrive(lowHz: 80, resonanceHz: 160, highHz: 500, pulse: 0.012, shape: .hann)
    }

    init(lowHz: Double, resonanceHz: Double, highHz: Double, pulse: Double, shape: TrackSampler.PulseShape) {
        (self.lowHz, self.resonanceHz, self.highHz, self.pulse, self.shape) = (lowHz, resonanceHz, highHz, pulse, shape)
    }

    /// The carrier frequency for sharpness `s` (clamped to 0…1), Hz.
    /// Geometric between `lowHz`, `resonanceHz` and `highHz` on either half of 0…1.
    /// - Parameter s: the sharpness, 0…1.
    /// - Returns: the frequency in Hz.
    public func frequency(sharpness s: Double) -> Double {
        let s = clampUnit(s)
        return s < 0.5 ? resonanceHz * pow(lowHz / resonanceHz, 1 - 2 * s) : resonanceHz * pow(highHz / resonanceHz, 2 * s - 1)
    }

    /// The sharpness whose carrier plays at `frequency` Hz: `frequency(sharpness:)` inverted,
    /// clamped to 0…1 (a frequency outside the band reads as its nearer end).
    /// - Parameter frequency: a carrier frequency, Hz.
    /// - Returns: the sharpness 0…1 the renderer plays at that frequency.
    public func sharpness(frequency: Double) -> Double {
        guard frequency > 0 else { return 0 }
        let ratio = log(frequency / resonanceHz)
        let span = ratio < 0 ? log(lowHz / resonanceHz) : log(highHz / resonanceHz)
        guard span != 0 else { return 0.5 }
        let s = ratio < 0 ? (1 - ratio / span) / 2 : (1 + ratio / span) / 2
        return clampUnit(s)
    }

    /// Highest frequency a drive signal for this actuator holds, Hz: the band's upper edge plus
    /// the main lobe of a pulse's spectrum (2 / pulse).
    public var bandEdgeHz: Double { highHz + 2 / pulse }

    /// Frames a rendering of `track` at `sampleRate` holds: up to the track's end or the end of
    /// its last pulse or region, whichever is later.
    /// - Parameters:
    ///   - track: the track to render.
    ///   - sampleRate: frames per second, in Hz.
    /// - Returns: the frame count, rounded up.
    public func frames(for track: HapticTrack, sampleRate: Double) -> Int {
        let end = ([track.duration] + track.regions.map(\.end) + track.transients.map { $0.time + pulse }).max() ?? 0
        // A rounding error above a whole frame does not add one.
        return Int((end * sampleRate - 1e-6).rounded(.up))
    }

    /// The drive signal of `track` at `sampleRate`, sample by sample from time 0.
    func renderer(for track: HapticTrack, sampleRate: Double) -> Renderer {
        Renderer(drive: self, sampler: TrackSampler(track, pulse: pulse, edge: 1 / resonanceHz, shape: shape),
                 sampleRate: sampleRate)
    }

    /// Renders `frames` samples of the drive signal of `track` at `sampleRate`, handing them to
    /// `body` in blocks (valid only during the call).
    func render(_ track: HapticTrack, sampleRate: Double, frames: Int,
                blockFrames: Int = 4096, _ body: (UnsafeBufferPointer<Float>) throws -> Void) rethrows {
        var renderer = renderer(for: track, sampleRate: sampleRate)
        var block = [Float](repeating: 0, count: blockFrames)
        var start = 0
        while start < frames {
            let count = min(blockFrames, frames - start)
            for i in 0..<count { block[i] = renderer.next() }
            try block.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<count])) }
            start += count
        }
    }

    /// The drive signal's samples in order (see `ActuatorDrive`).
    struct Renderer {
        let drive: ActuatorDrive
        var sampler: TrackSampler
        let sampleRate: Double
        /// The next sample's index, and the carrier's phase there in cycles (0…1).
        private var index = 0, phase = 0.0

        init(drive: ActuatorDrive, sampler: TrackSampler, sampleRate: Double) {
            (self.drive, self.sampler, self.sampleRate) = (drive, sampler, sampleRate)
        }

        /// The next sample, −1…1.
        mutating func next() -> Float {
            let instant = sampler.sample(at: Double(index) / sampleRate)
            index += 1
            let (body, pulse) = (instant.continuousIntensity, instant.pulse)
            let amplitude = Self.fullScaleKnee(body + pulse)
            let sharpness = pulse > 0
                ? (body * instant.continuousSharpness + pulse * instant.pulseSharpness) / (body + pulse)
                : instant.continuousSharpness
            let sample = Float(amplitude * sin(2 * Double.pi * phase))
            phase += drive.frequency(sharpness: sharpness) / sampleRate
            phase -= phase.rounded(.down)
            return sample
        }

        /// A sum of amplitudes bent into 0…1: unchanged up to 0.9, then a parabola that meets it
        /// with the same slope and reaches 1 with slope 0 at 1.1.
        static func fullScaleKnee(_ sum: Double) -> Double {
            let knee = 0.9
            if sum <= knee { return sum }
            if sum >= 2 - knee { return 1 }
            return sum - (sum - knee) * (sum - knee) / (4 * (1 - knee))
        }
    }
}
