import TactusCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns what a track plays into sound, block by block, so a designer can hear haptics
/// without a device.
///
/// Everything comes from `HapticPlayback`, the track as its format's reader resolved it
/// (AHAP's controls, `.haptic`'s square law), so what is heard is what is felt:
/// - each transient is a short decaying tick at its exact sample: its level is the
///   intensity it plays at, its pitch and its decay follow its sharpness (dull → a low,
///   slower thump; sharp → a high, crisp click);
/// - continuous haptics are a carrier in the Taptic Engine's range (80–300 Hz) whose
///   amplitude follows the evaluated intensity and whose pitch and overtones follow the
///   evaluated sharpness. The overtones make the low carrier audible on laptop speakers;
///   they are normalised so the carrier's RMS depends on intensity alone.
///
/// Output depends only on the track and the sample rate, not on block sizes: ticks are a
/// pure function of the sample index and the carrier's phase advances one sample at a time.
final class HapticSonifier {
    /// Peak amplitude of a tick at intensity 1, and of the carrier at intensity 1. Together
    /// they stay below full scale even where a tick lands on the carrier's crest.
    static let tickAmplitude = 0.45
    static let carrierAmplitude = 0.32
    /// Carrier pitch at sharpness 0 and 1 (the Taptic Engine's useful band).
    static let carrierLowHz = 80.0, carrierHighHz = 300.0
    /// Tick pitch at sharpness 0 and 1, and its decay time constant at sharpness 0 and 1.
    static let tickLowHz = 150.0, tickHighHz = 1200.0
    static let tickDullDecay = 0.010, tickSharpDecay = 0.003
    /// A tick lasts this many decay constants and then fades linearly to exactly zero.
    static let tickLengthInDecays = 5.0
    /// Longest a tick rings, in seconds (the dullest one).
    static var longestTick: Double { tickDullDecay * tickLengthInDecays }
    /// Continuous intensity and sharpness are evaluated on this grid and interpolated
    /// linearly between; it also turns each hard start or stop into a 2 ms ramp (no click).
    static let controlStep = 0.002

    private struct Tick {
        var start: Int
        var length: Int
        var amplitude: Double
        /// Phase increment per sample and decay per sample, precomputed.
        var omega: Double
        var decayRate: Double
    }

    let sampleRate: Double
    private let playback: HapticPlayback
    private let ticks: [Tick]
    private let longestTickFrames: Int
    /// Index of the first tick that may still ring at the current frame.
    private var firstRinging = 0
    private var frame = 0
    private var phase = 0.0
    /// The carrier's phase step per sample for `incrementSharpness` (sharpness is mostly
    /// constant, and the step costs a `pow`).
    private var phaseIncrement = 0.0
    private var incrementSharpness = Double.nan
    /// Grid cell `cachedCell` spans `cellStart` to `cellEnd` (intensity, sharpness).
    private var cachedCell = -2
    private var cellStart = (0.0, 0.0)
    private var cellEnd = (0.0, 0.0)

    init(playback: HapticPlayback, sampleRate: Double) {
        self.playback = playback
        self.sampleRate = sampleRate
        ticks = playback.transients.map { transient in
            let sharpness = transient.sharpness
            let decay = Self.tickDullDecay + (Self.tickSharpDecay - Self.tickDullDecay) * sharpness
            let hz = Self.tickLowHz * pow(Self.tickHighHz / Self.tickLowHz, sharpness)
            return Tick(start: Int((transient.time * sampleRate).rounded()),
                        length: max(1, Int((decay * Self.tickLengthInDecays * sampleRate).rounded())),
                        amplitude: Self.tickAmplitude * transient.intensity,
                        omega: 2 * .pi * hz / sampleRate, decayRate: 1 / (decay * sampleRate))
        }.sorted { $0.start < $1.start }
        longestTickFrames = ticks.map(\.length).max() ?? 0
    }

    /// Writes the next `buffer.count` samples.
    func render(into buffer: UnsafeMutableBufferPointer<Float>) {
        let first = frame
        for i in buffer.indices { buffer[i] = Float(carrierSample(at: first + i)) }
        addTicks(into: buffer, from: first)
        frame += buffer.count
    }

    private func carrierSample(at frame: Int) -> Double {
        let t = Double(frame) / sampleRate
        let position = t / Self.controlStep
        let cell = Int(position.rounded(.down))
        moveGrid(to: cell)
        let fraction = position - Double(cell)
        let intensity = cellStart.0 + (cellEnd.0 - cellStart.0) * fraction
        let sharpness = cellStart.1 + (cellEnd.1 - cellStart.1) * fraction
        if sharpness != incrementSharpness {
            let hz = Self.carrierLowHz * pow(Self.carrierHighHz / Self.carrierLowHz, sharpness)
            (incrementSharpness, phaseIncrement) = (sharpness, 2 * .pi * hz / sampleRate)
        }
        let current = phase
        phase = (phase + phaseIncrement).truncatingRemainder(dividingBy: 2 * .pi)
        guard intensity > 0 else { return 0 }
        return Self.carrierAmplitude * intensity * Self.carrierWave(phase: current, sharpness: sharpness)
    }

    /// One period of the carrier at unit RMS × √2 (a plain sine's): the fundamental plus a
    /// second and third harmonic that grow with sharpness, rescaled so loudness tracks
    /// intensity only.
    static func carrierWave(phase: Double, sharpness: Double) -> Double {
        let second = 0.3 + 0.4 * sharpness, third = 0.6 * sharpness
        let sum = sin(phase) + second * sin(2 * phase) + third * sin(3 * phase)
        return sum / (1 + second * second + third * third).squareRoot()
    }

    private func moveGrid(to cell: Int) {
        guard cell != cachedCell else { return }
        cellStart = cell == cachedCell + 1 ? cellEnd : controls(atCell: cell)
        cellEnd = controls(atCell: cell + 1)
        cachedCell = cell
    }

    /// Continuous (intensity, sharpness) at a grid point; silence holds sharpness at 0.
    private func controls(atCell cell: Int) -> (Double, Double) {
        let t = Double(cell) * Self.controlStep
        return (playback.continuousIntensity(at: t), playback.continuousSharpness(at: t) ?? 0)
    }

    private func addTicks(into buffer: UnsafeMutableBufferPointer<Float>, from first: Int) {
        let end = first + buffer.count
        while firstRinging < ticks.count, ticks[firstRinging].start + longestTickFrames <= first { firstRinging += 1 }
        var index = firstRinging
        while index < ticks.count, ticks[index].start < end {
            let tick = ticks[index]
            let from = max(first, tick.start), to = max(first, min(end, tick.start + tick.length))
            if from < to {
                // e^(−n·decay)·(cos ωn, sin ωn) as a damped rotation, advanced one sample at a
                // time: a multiply-add per sample instead of an exp and a sin.
                let n0 = Double(from - tick.start)
                let start = exp(-n0 * tick.decayRate)
                var (re, im) = (start * cos(tick.omega * n0), start * sin(tick.omega * n0))
                let damping = exp(-tick.decayRate)
                let (c, s) = (damping * cos(tick.omega), damping * sin(tick.omega))
                let length = Double(tick.length)
                for frame in from..<to {
                    let n = Double(frame - tick.start)
                    buffer[frame - first] += Float(tick.amplitude * im * (1 - n / length))
                    (re, im) = (re * c - im * s, re * s + im * c)
                }
            }
            index += 1
        }
    }
}
