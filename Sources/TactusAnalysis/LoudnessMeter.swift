import TactusCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How loud a sound is against an absolute reference: the loudest momentary loudness
/// (ITU-R BS.1770 / EBU R128: K-weighted power over 400 ms) of the mono signal, in LUFS,
/// measured as the samples stream past.
///
/// The momentary loudness is read every 100 ms (the 75 % overlap of BS.1770's gating
/// blocks, `round(0.1 · rate)` samples) over the last `floor(0.4 · rate)` samples, and once
/// more at the end of the signal when it does not end on a read: −0.691 + 10·log10 of the
/// block's mean K-weighted power. Before the first sample the signal is silence, so a sound
/// shorter than 400 ms is measured over 400 ms with the silence around it, as a listener's
/// loudness integrates a short sound over time (as libebur128 reads it).
///
/// K-weighting is the two BS.1770 filters, a high shelf (+4 dB above about 2 kHz) and the
/// RLB high-pass (38 Hz), with their coefficients derived for the actual sample rate as
/// libebur128 derives them. It is applied in two parts:
/// - the high-pass T in the time domain, on the raw samples: with Q = 0.5003 it is, to 0.03 %
///   of its Q, a double real pole, so it runs as `(1 − z⁻¹)² / (1 − p·z⁻¹)²`, four samples a
///   step;
/// - the rest of |K(f)|², `|K|² − |T|²` (the shelf, and what T leaves of the exact high-pass),
///   from the power spectra P the STFT computes anyway: frame k gives the ratio
///   `r = 1 + Σ (|K|² − |T|²)·P / Σ (w·v)²`, the first sum over the bins with the one-sided
///   spectrum's weights, the second over the frame's window w of the filtered samples v in
///   the spectrum's units (Parseval), and r scales the filtered energy of the samples nearest
///   the frame's centre (`k·hop ± hop/2`).
///
/// Neither part can come from the spectrum alone: a 20 ms window does not resolve a 38 Hz slope
/// (a 20 Hz tone read 6.8 dB loud, a real impact 3.3 LU), and a sound whose energy lies below
/// it (an offset's drift, a sub-bass rumble) leaks into the lowest bins, where |T|² is no
/// longer small: with `Σ |T|²·P` as the ratio's denominator two such sounds read 0.6–0.7 LU
/// low. `|K|² − |T|²` is nearly 0 in those bins and the shelf is smooth over a bin, so steady
/// tones read within 0.01 dB above 100 Hz. Against libebur128 (`scripts/bench/loudness_error.py`):
/// within 0.05 LU on the Corpus, 0.14 LU on the real-sound corpus's dev half, 0.09 LU held out.
public final class LoudnessMeter {
    /// How often the momentary loudness is read, in seconds.
    public static let readInterval = 0.1
    /// Reported for a signal with no measurable loudness (silence).
    public static let silentLufs = -200.0

    /// Samples between reads, `round(0.1 · rate)`.
    private let readLength: Int
    /// Samples in a momentary block, `floor(0.4 · rate)` for an integral rate.
    private let blockLength: Int
    /// Samples between frame centres.
    private let hop: Int
    /// The two high-pass sections' pole p, and (p, p², p³, p⁴): how a pass's previous
    /// output reaches each sample of a group.
    private let pole: Float
    private let poles: SIMD4<Float>
    /// `(|K|² − |T|²)` at each bin times the one-sided spectrum's weight (1 at 0 Hz and
    /// Nyquist, 2 between), zeros after the last bin up to a whole group of four.
    private let shelfWeights: [Float]
    /// The STFT's window squared, scaled so that `Σ windowPower[i]·v[i]²` over a frame's
    /// filtered samples is in the units of its power spectrum (Parseval: the spectrum's scale
    /// and the FFT's length).
    private let windowPower: [Float]
    /// Half a window, in samples: a frame starts that far before its centre.
    private let halfWindow: Int
    /// The filtered samples of the last `ring.count` pushed, sample n at `n % ring.count`.
    private let ring: UnsafeMutableBufferPointer<Float>
    // The state below is `@exclusivity(unchecked)`, as `SpectralFrame`'s is: a meter is used by
    // one thread and no access to it is nested in another, so the runtime check Swift makes on
    // each access to a class's stored property finds nothing.
    /// Each frame's ratio, frame k at `k % ratios.count`.
    @exclusivity(unchecked) private var ratios: [Float]
    /// Up to three samples waiting for the rest of their group of four.
    @exclusivity(unchecked) private var held = SIMD4<Float>(repeating: 0)
    @exclusivity(unchecked) private var heldCount = 0
    /// The filter's state: the last two inputs, and each pass's last output.
    @exclusivity(unchecked) private var inputBefore: Float = 0
    @exclusivity(unchecked) private var lastInput: Float = 0
    @exclusivity(unchecked) private var first: Float = 0
    @exclusivity(unchecked) private var second: Float = 0
    /// Samples filtered into the ring (all pushed but the held ones).
    @exclusivity(unchecked) private var pushed = 0
    /// Frames seen.
    @exclusivity(unchecked) private var frames = 0
    /// Reads made (the 100 ms slots summed), and the last four slots' K-weighted energies.
    @exclusivity(unchecked) private var slots = 0
    @exclusivity(unchecked) private var slotEnergy = SIMD4<Double>(repeating: 0)
    @exclusivity(unchecked) private var loudest = LoudnessMeter.silentLufs

    /// A meter for one mono signal with the analysis's frames.
    /// - Parameter geometry: the STFT's frames (sample rate in Hz, hop and FFT size); the
    ///   meter reads each of them through `process(_:)`.
    public init(geometry: FrameGeometry) {
        let rate = geometry.sampleRate
        readLength = max(1, Int((rate * Self.readInterval).rounded()))
        blockLength = max(1, Int(rate.rounded()) * 4 / 10)
        hop = geometry.hop
        let weighting = KWeighting(sampleRate: rate)
        let p = Float(weighting.highPassPole)
        pole = p
        poles = SIMD4(p, p * p, p * p * p, p * p * p * p)
        let tables = Self.tables.value(for: TableKey(sampleRate: rate, fftSize: geometry.fftSize,
                                                     windowLength: geometry.windowLength)) {
            Tables(geometry: geometry, weighting: weighting)
        }
        shelfWeights = tables.shelfWeights
        windowPower = tables.windowPower
        halfWindow = geometry.windowLength / 2
        // Room for the last block, the slot being summed and the samples pushed before the
        // frames that cover them arrive (a chunk, half a window, half a hop, and the DC
        // blocker's three held samples).
        // A whole number of groups of four, so no group is split by the ring's end.
        let capacity = (blockLength + readLength + geometry.windowLength + geometry.hop + OnsetDetector.maxChunk + 11) & ~3
        ring = .allocate(capacity: capacity)
        ring.initialize(repeating: 0)
        ratios = Array(repeating: 1, count: capacity / max(1, geometry.hop) + 4)
    }

    deinit { ring.deallocate() }

    /// What `tables` keeps a meter's weights by: they depend on nothing else.
    private struct TableKey: Hashable {
        var sampleRate: Double, fftSize: Int, windowLength: Int
    }

    /// `shelfWeights` and `windowPower` for one geometry.
    private struct Tables {
        let shelfWeights: [Float]
        let windowPower: [Float]

        init(geometry: FrameGeometry, weighting: KWeighting) {
            let bins = geometry.fftSize / 2 + 1
            var weights = [Float](repeating: 0, count: (bins + 3) & ~3)
            for b in 0..<bins {
                let side: Double = b == 0 || b == bins - 1 ? 1 : 2
                let omega = 2 * Double.pi * Double(b) / Double(geometry.fftSize)
                weights[b] = Float(side * (weighting.power(atRadians: omega) - weighting.sectionsPower(atRadians: omega)))
            }
            shelfWeights = weights
            let window = STFT.window(length: geometry.windowLength)
            let scale = Double(SpectralFrame.spectrumScale * SpectralFrame.spectrumScale) * Double(geometry.fftSize)
            windowPower = window.map { Float(scale * Double($0) * Double($0)) }
        }
    }

    /// The weights of every geometry met so far, each made once per process (a thousand
    /// cosines and more per geometry; a batch meets the same few again and again).
    private static let tables = ProcessCache<TableKey, Tables>()

    /// Measures the next raw mono samples (−1…1, before any DC blocking); at most
    /// `OnsetDetector.maxChunk` ahead of the frames the STFT has made of them.
    ///
    /// Samples are filtered four at a time, in groups counted from the first sample of the
    /// signal (up to three wait for the next call), so the result does not depend on how the
    /// caller splits the signal.
    /// - Parameter samples: the next samples of the signal, in order.
    public func push(_ samples: UnsafeBufferPointer<Float>) {
        var i = 0
        if heldCount > 0 {
            while heldCount < 4, i < samples.count {
                held[heldCount] = samples[i]
                heldCount += 1
                i += 1
            }
            guard heldCount == 4 else { return }
            let group = held
            withUnsafeBytes(of: group) { filter($0.baseAddress!.assumingMemoryBound(to: Float.self), groups: 1) }
            heldCount = 0
        }
        let whole = (samples.count - i) / 4
        if whole > 0 { filter(samples.baseAddress! + i, groups: whole) }
        i += 4 * whole
        while i < samples.count {
            held[heldCount] = samples[i]
            heldCount += 1
            i += 1
        }
        sumSlots(final: false)
    }

    /// Whole groups of four through the two sections into the ring: the second difference
    /// `x − 2x₋₁ + x₋₂` (from overlapping loads), then `1 / (1 − p·z⁻¹)` twice, each as
    /// `DCBlocker` runs its recursion: a two-step prefix scan within the group, and the
    /// previous output carried in, so the only chain from group to group is one multiply and
    /// one add per pass.
    private func filter(_ x: UnsafePointer<Float>, groups: Int) {
        let (p, p2, carry, p4) = (pole, pole * pole, poles, poles[3])
        var (a1, v1) = (first, second)
        var at = pushed % ring.count
        let (capacity, target) = (ring.count, UnsafeMutableRawPointer(ring.baseAddress!))
        @inline(__always) func pass(_ d: SIMD4<Float>, _ previous: inout Float) -> SIMD4<Float> {
            var z = d
            z += p * SIMD4(0, z[0], z[1], z[2])
            z += p2 * SIMD4(0, 0, z[0], z[1])
            let out = z + carry * previous
            previous = z[3] + p4 * previous  // out[3], bit for bit
            return out
        }
        @inline(__always) func store(_ d: SIMD4<Float>) {
            (target + 4 &* at).storeBytes(of: pass(pass(d, &a1), &v1), as: SIMD4<Float>.self)
            at &+= 4
            if at == capacity { at = 0 }
        }
        let head = UnsafeRawPointer(x).loadUnaligned(as: SIMD4<Float>.self)
        store(head - 2 * SIMD4(lastInput, head[0], head[1], head[2]) + SIMD4(inputBefore, lastInput, head[0], head[1]))
        // Then each group's samples one and two back from overlapping loads.
        var source = UnsafeRawPointer(x + 4)
        for _ in 1..<groups {
            store(source.loadUnaligned(as: SIMD4<Float>.self) - 2 * (source - 4).loadUnaligned(as: SIMD4<Float>.self)
                  + (source - 8).loadUnaligned(as: SIMD4<Float>.self))
            source += 16
        }
        // After a sound the passes decay towards denormals (slow arithmetic).
        if abs(a1) < 1e-20 { a1 = 0 }
        if abs(v1) < 1e-20 { v1 = 0 }
        (inputBefore, lastInput, first, second) = (x[4 * groups - 2], x[4 * groups - 1], a1, v1)
        pushed += 4 * groups
    }

    /// The samples still held (fewer than four) one by one, at the end of the signal.
    private func flush() {
        let base = ring.baseAddress!
        for k in 0..<heldCount {
            let x = held[k]
            let a = x - 2 * lastInput + inputBefore + pole * first
            let v = a + pole * second
            (inputBefore, lastInput, first, second) = (lastInput, x, a, v)
            base[pushed % ring.count] = v
            pushed += 1
        }
        heldCount = 0
    }

    /// Reads the spectral part of the weighting from the next frame of the STFT: its ratio
    /// `1 + Σ (|K|² − |T|²)·P / Σ (w·v)²`, the sum over the window of the filtered samples it
    /// covers (those already filtered), in the spectrum's units.
    /// - Parameter frame: the analysis's frame, in order (`frame.index` frames seen before).
    public func process(_ frame: SpectralFrame) {
        let count = shelfWeights.count
        let shelf = shelfWeights.withUnsafeBufferPointer { dotInFours(frame.powerStorage.baseAddress!, $0.baseAddress!, count: count) }
        let start = frames * hop - halfWindow
        let (from, to) = (max(0, start), min(pushed, start + windowPower.count))
        var filtered: Float = 0
        if from < to, from >= pushed - ring.count {
            windowPower.withUnsafeBufferPointer { window in
                let at = from % ring.count, head = min(to - from, ring.count - at)
                let (base, weights) = (ring.baseAddress!, window.baseAddress! + (from - start))
                filtered = weightedSquares(base + at, weights, count: head) + weightedSquares(base, weights + head, count: to - from - head)
            }
        }
        ratios[frames % ratios.count] = filtered > 0 ? 1 + shelf / filtered : 1
        frames += 1
        sumSlots(final: false)
    }

    /// Σ w[i]·a[i]² over `count` values, in eight fixed lanes.
    private func weightedSquares(_ a: UnsafePointer<Float>, _ w: UnsafePointer<Float>, count: Int) -> Float {
        var lanes = SIMD8<Float>(repeating: 0)
        var i = 0
        while i + 8 <= count {
            let x = UnsafeRawPointer(a + i).loadUnaligned(as: SIMD8<Float>.self)
            lanes += UnsafeRawPointer(w + i).loadUnaligned(as: SIMD8<Float>.self) * (x * x)
            i &+= 8
        }
        var total = lanes.sum()
        while i < count {
            total += w[i] * a[i] * a[i]
            i += 1
        }
        return total
    }

    /// The loudest momentary loudness of the reads made so far, in LUFS (`silentLufs` before
    /// the first audible one): what a live stream knows of the sound's loudness.
    public var loudestSoFar: Double { loudest }

    /// `loudestSoFar`, or the next read's lower bound when louder: the K-weighted energy its
    /// 400 ms block holds so far (up to the samples nearest the frames seen, `frames·hop − hop/2`)
    /// over the whole block's length, in LUFS. It never exceeds the next read, so it never
    /// exceeds the loudest the whole signal reaches; at a sound's start it rises with each frame
    /// instead of waiting for the next 100 ms read.
    public var loudestWithNextRead: Double {
        // The block's complete slots (up to three), then the slot in progress up to `end`.
        let start = slots * readLength, end = min(pushed, frames * hop - hop / 2)
        var sum = end > start ? energy(from: start, to: end) : 0
        for k in 0..<min(3, slots) { sum += slotEnergy[3 - k] }
        guard sum > 0 else { return loudest }
        let lufs = -0.691 + 10 * log10(sum / Double(blockLength))
        return lufs.isFinite ? max(loudest, lufs) : loudest
    }

    /// Ends the signal (after its last samples and frames): the last read, over the 400 ms
    /// that end with it.
    /// - Returns: the loudest momentary loudness, in LUFS (`silentLufs` for silence).
    public func finish() -> Double {
        flush()
        sumSlots(final: true)
        if pushed > slots * readLength {
            read(energy(from: max(0, pushed - blockLength), to: pushed))
        }
        return loudest
    }

    /// Sums every complete 100 ms slot whose frames have all arrived (all of them when
    /// `final`: samples after the last frame's take its ratio) and reads each.
    private func sumSlots(final: Bool) {
        while (slots + 1) * readLength <= pushed {
            let end = (slots + 1) * readLength
            guard final || frame(nearest: end - 1) < frames else { return }
            slotEnergy = SIMD4(slotEnergy[1], slotEnergy[2], slotEnergy[3], energy(from: end - readLength, to: end))
            slots += 1
            read(slotEnergy.sum())
        }
    }

    /// Records the momentary loudness of a block with K-weighted energy `energy`.
    private func read(_ energy: Double) {
        guard energy > 0 else { return }
        let lufs = -0.691 + 10 * log10(energy / Double(blockLength))
        if lufs.isFinite { loudest = max(loudest, lufs) }
    }

    /// The frame whose centre is nearest sample `n`.
    private func frame(nearest n: Int) -> Int { (2 * n + hop) / (2 * hop) }

    /// The K-weighted energy of samples `start..<end` (all still in the ring): each frame's
    /// ratio times the filtered energy of its samples.
    private func energy(from start: Int, to end: Int) -> Double {
        precondition(start >= pushed - ring.count && end <= pushed)
        var total = 0.0
        var n = start
        while n < end {
            let k = frame(nearest: n)
            let stop = min(end, (k + 1) * hop - hop / 2)
            let ratio = frames == 0 ? 1 : ratios[min(k, frames - 1) % ratios.count]
            total += Double(ratio) * Double(filteredEnergy(from: n, count: stop - n))
            n = stop
        }
        return total
    }

    /// Σ of the filtered samples' squares from sample `start`, `count` of them, across the
    /// ring's end.
    private func filteredEnergy(from start: Int, count: Int) -> Float {
        let at = start % ring.count, head = min(count, ring.count - at)
        let base = ring.baseAddress!
        return sumOfSquares(base + at, count: head) + sumOfSquares(base, count: count - head)
    }
}

/// The BS.1770 K-weighting for one sample rate: the high shelf and the RLB high-pass, each a
/// biquad whose coefficients come from the analogue prototype through the bilinear transform
/// (libebur128's derivation: at 48 kHz they are the standard's coefficients).
struct KWeighting {
    /// Shelf and high-pass as (b0, b1, b2, a1, a2), a0 = 1.
    let shelf: (Double, Double, Double, Double, Double)
    let highPass: (Double, Double, Double, Double, Double)
    /// The pole of the two first-order sections that stand for the high-pass (its Q is 0.5003).
    let highPassPole: Double

    /// - Parameter sampleRate: in Hz.
    init(sampleRate: Double) {
        var f0 = 1681.974450955533, q = 0.7071752369554196
        let gainDb = 3.999843853973347
        var k = tan(Double.pi * f0 / sampleRate)
        let vh = pow(10, gainDb / 20), vb = pow(vh, 0.4996667741545416)
        var a0 = 1 + k / q + k * k
        shelf = ((vh + vb * k / q + k * k) / a0, 2 * (k * k - vh) / a0, (vh - vb * k / q + k * k) / a0,
                 2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0)
        f0 = 38.13547087602444
        q = 0.5003270373238773
        k = tan(Double.pi * f0 / sampleRate)
        a0 = 1 + k / q + k * k
        highPass = (1, -2, 1, 2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0)
        highPassPole = (1 - k) / (1 + k)
    }

    /// |K|² at `omega` radians per sample (π: Nyquist); 1 kHz at 48 kHz reads +0.69 dB.
    func power(atRadians omega: Double) -> Double {
        Self.power(shelf, omega) * Self.power(highPass, omega)
    }

    /// |T|² of the two first-order sections `(1 − z⁻¹) / (1 − p·z⁻¹)` at `omega` radians per sample.
    func sectionsPower(atRadians omega: Double) -> Double {
        let c = cos(omega), p = highPassPole
        let one = (2 - 2 * c) / (1 - 2 * p * c + p * p)
        return one * one
    }

    /// |H(e^{jω})|² of a biquad (b0, b1, b2, a1, a2).
    private static func power(_ h: (Double, Double, Double, Double, Double), _ omega: Double) -> Double {
        let (b0, b1, b2, a1, a2) = h
        let c1 = cos(omega), c2 = cos(2 * omega)
        let numerator = b0 * b0 + b1 * b1 + b2 * b2 + 2 * (b0 * b1 + b1 * b2) * c1 + 2 * b0 * b2 * c2
        let denominator = 1 + a1 * a1 + a2 * a2 + 2 * (a1 + a1 * a2) * c1 + 2 * a2 * c2
        return numerator / denominator
    }
}
