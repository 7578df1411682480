import TactusCore

/// What a drive signal rendered by `ActuatorDrive` plays, read back from its samples as a track:
/// the inverse of the renderer's rule, half cycle by half cycle of the carrier.
///
/// The signal is cut into half cycles (runs of samples of one sign; a run of zeros is silence).
/// Each half cycle gives
/// - an amplitude: the larger of its peak and √2 × its RMS (a sampled half sine's amplitude,
///   whatever the grid), turned back into the sum the renderer bent by inverting its full-scale
///   knee (0.9…1.1; an amplitude of full scale reads 1.1, as every sum from 1.1 up plays alike);
/// - a frequency, from the times its zero crossings were passed (interpolated between samples;
///   a half cycle next to silence takes its neighbour's), turned back into sharpness through the
///   band's law (`ActuatorDrive.sharpness(frequency:)`).
///
/// Transients: a peak of the summed amplitude that stands at least `minPulse` above the
/// amplitude half a pulse before and half a pulse after its own half pulse (the body under a
/// pulse stays where it was; a body's own attack does not come back down) is read as a pulse:
/// its start half a pulse before the peak (refined between three half cycles by a parabola), its
/// intensity the height above that body, its sharpness the carrier's there unblended from the
/// body's (the renderer plays their amplitude-weighted blend). The body under it is the straight
/// line between the amplitudes either side.
///
/// What reads back exactly (to the 16-bit grid and the half cycle's length): a steady body's
/// intensity and sharpness, a region's start and end (within the fade of one resonance period the
/// renderer adds, read as a ramp), the track's length (the file's, which lasts to the end of the
/// last pulse). Approximately: curves change only once per half cycle (3 ms at 160 Hz, 6 ms at
/// 80 Hz); a pulse's time (within about a millisecond) and height on a moving body; its
/// sharpness; sums above 0.9 (the knee) and any sum above 1.1 (full scale). Lost: pulses weaker
/// than `minPulse` over a body, two pulses closer than one pulse length (the renderer plays the
/// stronger), and the profile itself (the file does not say which one rendered it: the reader
/// assumes the format's parameters).
struct DriveDemodulator {
    let drive: ActuatorDrive
    /// Smallest pulse height read as a transient, in amplitude (0…1).
    static let minPulse = 0.04
    /// How far (in intensity or sharpness, 0…1) the read-back curves may drop a half cycle's
    /// value: below the 16-bit drive's own step, so the curves keep every move it carries.
    static let curveTolerance = 0.001
    /// Shortest run of zero samples read as silence between regions, seconds.
    static let minSilence = 0.002
    /// Smallest amplitude (0…1) a region's body must reach somewhere to be kept as a region.
    static let minBody = 0.005

    /// One half cycle of the carrier.
    struct HalfCycle {
        /// Its middle, seconds.
        var time: Double
        /// The sum the renderer bent into this amplitude (knee inverted), 0…1.1.
        var sum: Double
        /// The sharpness its frequency plays, 0…1.
        var sharpness: Double
        /// Index of the run of sound (between silences) it belongs to.
        var run: Int
    }

    /// The half cycles of `count` samples at `sampleRate`, `sample(i)` being sample i (−1…1).
    func halfCycles(count: Int, sampleRate: Double, sample: (Int) -> Float) -> [HalfCycle] {
        var cycles: [HalfCycle] = []
        var frequencies: [Double?] = []
        var run = 0
        var i = 0
        let silence = max(1, Int(Self.minSilence * sampleRate))
        while i < count {
            let x = sample(i)
            if x == 0 {
                var j = i
                while j < count, sample(j) == 0 { j += 1 }
                if j - i >= silence, !cycles.isEmpty, cycles[cycles.count - 1].run == run { run += 1 }
                i = j
                continue
            }
            let positive = x > 0
            var j = i, peak: Float = 0, energy = 0.0
            while j < count {
                let y = sample(j)
                guard y != 0, (y > 0) == positive else { break }
                peak = max(peak, abs(y))
                energy += Double(y) * Double(y)
                j += 1
            }
            // Where the crossings were passed, between the samples either side of the run.
            let before = i > 0 ? sample(i - 1) : 0, after = j < count ? sample(j) : 0
            let start = before != 0 ? Double(i) - Double(x) / Double(x - before) : Double(i)
            let last = sample(j - 1)
            let end = after != 0 ? Double(j - 1) + Double(last) / Double(last - after) : Double(j)
            let length = max(end - start, 1)
            let amplitude = min(1, max(Double(peak), (2 * energy / length).squareRoot()))
            cycles.append(HalfCycle(time: (start + end) / 2 / sampleRate, sum: Self.unbent(amplitude), sharpness: 0.5, run: run))
            frequencies.append(before != 0 && after != 0 ? sampleRate / (2 * length) : nil)
            i = j
        }
        // A half cycle next to silence is cut short: it takes its nearest measured neighbour's.
        // Before the first measured one, the first measured one's.
        var lastMeasured = frequencies.lazy.compactMap { $0 }.first
        for k in cycles.indices {
            if let f = frequencies[k] { lastMeasured = f }
            cycles[k].sharpness = lastMeasured.map { drive.sharpness(frequency: $0) } ?? 0.5
        }
        return cycles
    }

    /// The sum the full-scale knee bent into `amplitude` (0…1): unchanged up to 0.9, the
    /// parabola's inverse up to 1, which reads 1.1.
    static func unbent(_ amplitude: Double) -> Double {
        let knee = 0.9
        guard amplitude > knee else { return amplitude }
        let rise = min(1, amplitude) - knee
        return knee + 2 * (1 - knee) * (1 - (max(0, 1 - rise / (1 - knee))).squareRoot())
    }

    /// The track `count` samples at `sampleRate` play (see the type's documentation).
    func track(count: Int, sampleRate: Double, sample: (Int) -> Float) -> HapticTrack {
        var cycles = halfCycles(count: count, sampleRate: sampleRate, sample: sample)
        let transients = pulses(in: &cycles)
        var regions: [HapticTrack.ContinuousRegion] = []
        var k = 0
        while k < cycles.count {
            var end = k
            while end < cycles.count, cycles[end].run == cycles[k].run { end += 1 }
            let run = cycles[k..<end]
            k = end
            guard run.contains(where: { $0.sum >= Self.minBody }) else { continue }
            let intensity = CurveSimplifier.simplify(run.map { HapticTrack.Point(time: $0.time, value: clampUnit($0.sum)) },
                                                    tolerance: Self.curveTolerance)
            let sharpness = CurveSimplifier.simplify(run.map { HapticTrack.Point(time: $0.time, value: $0.sharpness) },
                                                    tolerance: Self.curveTolerance)
            regions.append(HapticTrack.ContinuousRegion(start: run.first!.time, end: run.last!.time,
                                                        intensity: intensity, sharpness: sharpness))
        }
        return HapticTrack(duration: Double(count) / sampleRate, transients: transients, regions: regions)
    }

    /// Finds the pulses among the half cycles (see the type's documentation), takes each out of
    /// the body under it and returns them as transients, in time order.
    private func pulses(in cycles: inout [HalfCycle]) -> [HapticTrack.Transient] {
        var found: [HapticTrack.Transient] = []
        let half = drive.pulse / 2
        var k = 1
        while k + 1 < cycles.count {
            let c = cycles[k]
            guard c.sum >= cycles[k - 1].sum, c.sum > cycles[k + 1].sum else { k += 1; continue }
            // The peak's time between three half cycles, by a parabola through them.
            let (a, b) = (cycles[k - 1], cycles[k + 1])
            let curvature = a.sum - 2 * c.sum + b.sum
            let offset = curvature < 0 ? max(-0.5, min(0.5, 0.5 * (a.sum - b.sum) / curvature)) : 0
            let peakTime = c.time + offset * (offset < 0 ? c.time - a.time : b.time - c.time)
            let left = value(of: cycles, at: peakTime - 2 * half, run: c.run)
            let right = value(of: cycles, at: peakTime + 2 * half, run: c.run)
            let height = c.sum - max(left.sum, right.sum)
            guard height >= Self.minPulse else { k += 1; continue }
            // The body under the pulse, and the pulse's own sharpness out of the blend.
            let start = peakTime - half, end = peakTime + half
            var bodySharpness = (left.sharpness + right.sharpness) / 2
            if left.sum + right.sum > 0 { bodySharpness = (left.sum * left.sharpness + right.sum * right.sharpness) / (left.sum + right.sum) }
            let body = (left.sum + right.sum) / 2
            let sharpness = clampUnit((c.sharpness * (body + height) - body * bodySharpness) / height)
            found.append(HapticTrack.Transient(time: max(0, start), intensity: min(1, height), sharpness: sharpness))
            var j = k
            while j > 0, cycles[j - 1].time > start - 1e-9, cycles[j - 1].run == c.run { j -= 1 }
            while j < cycles.count, cycles[j].time < end + 1e-9, cycles[j].run == c.run {
                let x = (cycles[j].time - (peakTime - 2 * half)) / (4 * half)
                cycles[j].sum = left.sum + (right.sum - left.sum) * x
                cycles[j].sharpness = bodySharpness
                j += 1
            }
            k = max(k + 1, j)
        }
        return found
    }

    /// The summed amplitude and sharpness at `time` within one run of sound, linear between
    /// half cycles; 0 (and 0.5) outside the run.
    private func value(of cycles: [HalfCycle], at time: Double, run: Int) -> (sum: Double, sharpness: Double) {
        let after = cycles.partitioningIndex { $0.time > time }
        guard after > 0, after < cycles.count else { return (0, 0.5) }
        let (a, b) = (cycles[after - 1], cycles[after])
        guard a.run == run, b.run == run else { return (0, 0.5) }
        let x = b.time > a.time ? (time - a.time) / (b.time - a.time) : 0
        return (a.sum + (b.sum - a.sum) * x, a.sharpness + (b.sharpness - a.sharpness) * x)
    }
}
