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
/// loudness integrates a short sound over time (as libebur128 reads it). Samples are counted
/// in short blocks (below), so each read's 100 ms end at the block centre nearest it (within
/// 0.3 ms).
///
/// K-weighting is the two BS.1770 filters, a high shelf (+4 dB above about 2 kHz) and the
/// RLB high-pass T (38 Hz), with their coefficients derived for the actual sample rate as
/// libebur128 derives them. The meter reads the analysis's own DC-blocked samples (the
/// blocker's 5 Hz cut lies where T is already 45 dB down) and its frames' power spectra P,
/// and filters nothing at the sample rate:
/// - **The high-pass, on blocks.** The samples are taken in blocks of `decimation` (a block
///   rate of 1.6–3.2 kHz). A block's energy after T is its samples' spread about their mean,
///   `Σ (x − x̄)²`, which lies above the block rate's band and which T passes whole, plus its
///   mean through T: `n·(T·x̄)²`, T derived for the block rate (the boxcar of the means is flat
///   in the band T shapes, and null where aliases would fold onto it). Both parts are ≥ 0, so
///   a sub-bass rumble that T nearly removes reads what is left of it, not a difference of two
///   large sums.
/// - **The rest of |K|², `|K|² − |T|²`** (the shelf, and what T leaves of the exact
///   high-pass), from P: frame k gives the ratio `r = 1 + Σ (|K|² − |T|²)·P / E`, the sum over
///   the bins with the one-sided spectrum's weights, E the frame's high-passed windowed energy
///   in the spectrum's units (`Σ P` by Parseval, less what T takes from the blocks inside the
///   window, `n·(x̄² − (T·x̄)²)`, weighted by the window at their centres); r scales the
///   high-passed energy of the blocks centred nearest the frame's centre.
///
/// Neither part can come from the spectrum alone: a 20 ms window does not resolve a 38 Hz slope
/// (a 20 Hz tone read 6.8 dB loud, a real impact 3.3 LU), and a sound whose energy lies below
/// it (an offset's drift, a sub-bass rumble) leaks into the lowest bins, where |T|² is no
/// longer small. `|K|² − |T|²` is nearly 0 in those bins and the shelf is smooth over a bin, so
/// steady tones read within 0.05 dB above 100 Hz (0.1 dB at 30 Hz). Against libebur128
/// (`scripts/bench/loudness_error.py`): BENCHMARKS.md, "Loudness on blocks".
public final class LoudnessMeter {
    /// How often the momentary loudness is read, in seconds.
    public static let readInterval = 0.1
    /// Reported for a signal with no measurable loudness (silence).
    public static let silentLufs = -200.0
    /// The lowest block rate, in Hz: blocks are the longest whole number of samples (a
    /// multiple of four from 9.6 kHz up) that keeps the rate at least this.
    static let lowestBlockRate = 1600.0

    /// Samples between reads, `round(0.1 · rate)`.
    private let readLength: Int
    /// Samples in a momentary block, `floor(0.4 · rate)` for an integral rate.
    private let blockLength: Int
    /// Samples between frame centres.
    private let hop: Int
    /// Samples per block (≥ 1); block j holds samples `j·decimation ..< (j+1)·decimation` and is
    /// centred on sample `j·decimation + decimation/2`.
    private let decimation: Int
    /// T's two first-order sections at the block rate: their pole, and the gain that makes
    /// them 1 at the block rate's Nyquist (`KWeighting.highPassGain`).
    private let blockPole: Double
    private let blockGain: Double
    /// `(|K|² − |T|²)` at each bin times the one-sided spectrum's weight (1 at 0 Hz and
    /// Nyquist, 2 between), zeros after the last bin up to a whole group of four.
    private let shelfWeights: [Float]
    /// The one-sided spectrum's weights alone, padded as `shelfWeights`: `Σ sides·P` is the
    /// frame's windowed energy in the spectrum's units (Parseval).
    private let sides: [Float]
    /// The STFT's window squared, scaled so that `Σ windowPower[i]·x[i]²` over a frame's
    /// samples is in the units of its power spectrum (Parseval: the spectrum's scale and the
    /// FFT's length).
    private let windowPower: [Float]
    /// Half a window, in samples: a frame starts that far before its centre.
    private let halfWindow: Int
    /// The samples of a block still being filled (`heldCount` of them).
    private let held: UnsafeMutableBufferPointer<Float>
    /// The high-passed energy of each of the last `blockMask + 1` blocks (a power of two),
    /// block j at `j & blockMask`.
    private let energies: UnsafeMutableBufferPointer<Float>
    /// What T takes from each of those blocks' energy, `n·(x̄² − (T·x̄)²)`, beside `energies`.
    private let taken: UnsafeMutableBufferPointer<Float>
    private let blockMask: Int
    // The state below is `@exclusivity(unchecked)`, as `SpectralFrame`'s is: a meter is used by
    // one thread and no access to it is nested in another, so the runtime check Swift makes on
    // each access to a class's stored property finds nothing.
    /// Each frame's ratio, frame k at `k & (ratios.count − 1)` (a power of two).
    @exclusivity(unchecked) private var ratios: [Float]
    @exclusivity(unchecked) private var heldCount = 0
    /// T's state at the block rate: the last block mean, and each section's last output.
    @exclusivity(unchecked) private var lastMean = 0.0
    @exclusivity(unchecked) private var first = 0.0
    @exclusivity(unchecked) private var second = 0.0
    /// Blocks measured.
    @exclusivity(unchecked) private var blocks = 0
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
        let blockSamples = Int(rate / Self.lowestBlockRate)
        decimation = blockSamples >= 4 ? blockSamples & ~3 : max(1, blockSamples)
        let blockWeighting = KWeighting(sampleRate: rate / Double(decimation))
        (blockPole, blockGain) = (blockWeighting.highPassPole, blockWeighting.highPassGain)
        let tables = Self.tables.value(for: TableKey(sampleRate: rate, fftSize: geometry.fftSize,
                                                     windowLength: geometry.windowLength)) {
            Tables(geometry: geometry, weighting: KWeighting(sampleRate: rate))
        }
        shelfWeights = tables.shelfWeights
        sides = tables.sides
        windowPower = tables.windowPower
        halfWindow = geometry.windowLength / 2
        held = .allocate(capacity: decimation)
        held.initialize(repeating: 0)
        // Room for the last momentary block, the slot being summed and the blocks pushed before
        // the frames that cover them arrive (a chunk, a window and a hop).
        let samples = blockLength + readLength + 2 * geometry.windowLength + geometry.hop + OnsetDetector.maxChunk
        let kept = Self.powerOfTwo(above: samples / decimation + 4)
        blockMask = kept - 1
        energies = .allocate(capacity: kept)
        energies.initialize(repeating: 0)
        taken = .allocate(capacity: kept)
        taken.initialize(repeating: 0)
        ratios = Array(repeating: 1, count: Self.powerOfTwo(above: samples / max(1, geometry.hop) + 4))
    }

    /// The smallest power of two above `n` (rings indexed by a mask, not a division).
    private static func powerOfTwo(above n: Int) -> Int { 1 << (Int.bitWidth - n.leadingZeroBitCount) }

    deinit {
        held.deallocate()
        energies.deallocate()
        taken.deallocate()
    }

    /// What `tables` keeps a meter's weights by: they depend on nothing else.
    private struct TableKey: Hashable {
        var sampleRate: Double, fftSize: Int, windowLength: Int
    }

    /// `shelfWeights`, `sides` and `windowPower` for one geometry.
    private struct Tables {
        let shelfWeights: [Float]
        let sides: [Float]
        let windowPower: [Float]

        init(geometry: FrameGeometry, weighting: KWeighting) {
            let bins = geometry.fftSize / 2 + 1
            var weights = [Float](repeating: 0, count: (bins + 3) & ~3)
            var sides = weights
            for b in 0..<bins {
                let side: Double = b == 0 || b == bins - 1 ? 1 : 2
                let omega = 2 * Double.pi * Double(b) / Double(geometry.fftSize)
                weights[b] = Float(side * (weighting.power(atRadians: omega) - weighting.sectionsPower(atRadians: omega)))
                sides[b] = Float(side)
            }
            shelfWeights = weights
            self.sides = sides
            let window = STFT.window(length: geometry.windowLength)
            let scale = Double(SpectralFrame.spectrumScale * SpectralFrame.spectrumScale) * Double(geometry.fftSize)
            windowPower = window.map { Float(scale * Double($0) * Double($0)) }
        }
    }

    /// The weights of every geometry met so far, each made once per process (a thousand
    /// cosines and more per geometry; a batch meets the same few again and again).
    private static let tables = ProcessCache<TableKey, Tables>()

    /// Measures the next DC-blocked mono samples (the analysis's, as the STFT reads them), before
    /// the frames that cover them; at most `OnsetDetector.maxChunk` ahead of those frames.
    ///
    /// Blocks are counted from the first sample of the signal and each is measured once it is
    /// whole, from its samples in order, so the result does not depend on how the caller splits
    /// the signal.
    /// - Parameter samples: the next samples of the signal, in order.
    public func push(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress else { return }
        var i = 0
        if heldCount > 0 {
            let count = min(decimation - heldCount, samples.count)
            (held.baseAddress! + heldCount).update(from: base, count: count)
            heldCount += count
            i = count
            guard heldCount == decimation else { return }
            measureBlocks(UnsafePointer(held.baseAddress!), count: 1, length: decimation)
            heldCount = 0
        }
        let whole = (samples.count - i) / decimation
        measureBlocks(base + i, count: whole, length: decimation)
        i += whole * decimation
        heldCount = samples.count - i
        held.baseAddress!.update(from: base + i, count: heldCount)
        sumSlots(final: false)
    }

    /// The next `count` blocks, each of `length` samples from `x` on (whole blocks, or the
    /// signal's last few samples as one): each block's samples' spread about their mean, plus
    /// its mean through T at the block rate. T's state stays in locals for the loop.
    private func measureBlocks(_ x: UnsafePointer<Float>, count: Int, length: Int) {
        guard count > 0 else { return }
        let (pole, gain, mask, energies, taken) = (blockPole, blockGain, blockMask, energies, taken)
        var (lastMean, first, second) = (lastMean, first, second)
        let n = Double(length)
        for b in 0..<count {
            let block = x + b * length
            var sums = SIMD4<Float>(repeating: 0), squares = SIMD4<Float>(repeating: 0)
            var i = 0
            while i &+ 4 <= length {
                let v = UnsafeRawPointer(block + i).loadUnaligned(as: SIMD4<Float>.self)
                sums += v
                squares += v * v
                i &+= 4
            }
            var (sum, square) = (sums.sum(), squares.sum())
            while i < length {
                sum += block[i]
                square += block[i] * block[i]
                i &+= 1
            }
            let mean = Double(sum) / n
            // (1 − z⁻¹)/(1 − p·z⁻¹) twice, then the gain.
            let a = mean - lastMean + pole * first
            let v = a - first + pole * second
            (lastMean, first, second) = (mean, abs(a) < 1e-30 ? 0 : a, abs(v) < 1e-30 ? 0 : v)
            let passed = gain * v
            let slot = (blocks &+ b) & mask
            energies[slot] = Float(max(0, Double(square) - n * mean * mean) + n * passed * passed)
            taken[slot] = Float(n * (mean * mean - passed * passed))
        }
        (self.lastMean, self.first, self.second) = (lastMean, first, second)
        blocks += count
    }

    /// Reads the spectral part of the weighting from the next frame of the STFT: its ratio
    /// `1 + Σ (|K|² − |T|²)·P / E`, E its windowed energy `Σ sides·P` less what T takes from
    /// the whole blocks inside its window (all measured: the frame is complete), each weighted
    /// by the window at its centre, in the spectrum's units.
    /// - Parameter frame: the analysis's frame, in order (`frame.index` frames seen before).
    public func process(_ frame: SpectralFrame) {
        let count = shelfWeights.count, power = frame.powerStorage.baseAddress!
        let (shelf, total) = shelfWeights.withUnsafeBufferPointer { weights in
            sides.withUnsafeBufferPointer { dotPairInFours(power, weights.baseAddress!, $0.baseAddress!, count: count) }
        }
        let start = frames * hop - halfWindow
        let (from, to) = (max(0, (start + decimation - 1) / decimation, blocks - blockMask), min(blocks, (start + windowPower.count) / decimation))
        let lows = windowed(taken, from: from, to: to, start: start)
        // Where T takes most of the frame, `total − lows` is the difference of two near sums:
        // the blocks' own high-passed energies say it instead.
        let energy = lows <= total / 2 ? total - lows : windowed(energies, from: from, to: to, start: start)
        ratios[frames & (ratios.count - 1)] = energy > 0 ? 1 + shelf / energy : 1
        frames += 1
        sumSlots(final: false)
    }

    /// `Σ windowPower(centre of block j) · values[j]` over blocks `from..<to`, a frame's window
    /// starting at sample `start`.
    private func windowed(_ values: UnsafeMutableBufferPointer<Float>, from: Int, to: Int, start: Int) -> Float {
        var sum: Float = 0
        var j = from, at = from * decimation + decimation / 2 - start
        while j < to {
            sum += windowPower[at] * values[j & blockMask]
            j &+= 1
            at &+= decimation
        }
        return sum
    }

    /// The loudest momentary loudness of the reads made so far, in LUFS (`silentLufs` before
    /// the first audible one): what a live stream knows of the sound's loudness.
    public var loudestSoFar: Double { loudest }

    /// `loudestSoFar`, or the next read's lower bound when louder: the K-weighted energy its
    /// 400 ms block holds so far (up to the blocks nearest the frames seen, centred before
    /// `frames·hop − hop/2`) over the whole block's length, in LUFS. It never exceeds the next
    /// read, so it never exceeds the loudest the whole signal reaches; at a sound's start it
    /// rises with each frame instead of waiting for the next 100 ms read.
    public var loudestWithNextRead: Double {
        // The block's complete slots (up to three), then the slot in progress.
        var sum = energy(from: blocks(centredBefore: slots * readLength), to: blocks(centredBefore: frames * hop - hop / 2))
        for k in 0..<min(3, slots) { sum += slotEnergy[3 - k] }
        guard sum > 0 else { return loudest }
        let lufs = -0.691 + 10 * log10(sum / Double(blockLength))
        return lufs.isFinite ? max(loudest, lufs) : loudest
    }

    /// Ends the signal (after its last samples and frames): the last read, over the 400 ms
    /// that end with it (the samples short of a whole block at the end taken as one block).
    /// - Returns: the loudest momentary loudness, in LUFS (`silentLufs` for silence).
    public func finish() -> Double {
        let pushed = blocks * decimation + heldCount
        if heldCount > 0 {
            measureBlocks(UnsafePointer(held.baseAddress!), count: 1, length: heldCount)
            heldCount = 0
        }
        sumSlots(final: true)
        if pushed > slots * readLength {
            read(energy(from: blocks(centredBefore: max(0, pushed - blockLength)), to: blocks))
        }
        return loudest
    }

    /// Sums every complete 100 ms slot whose frames and blocks have all arrived (all of them
    /// when `final`: blocks after the last frame's take its ratio) and reads each.
    private func sumSlots(final: Bool) {
        while true {
            let end = (slots + 1) * readLength
            let last = blocks(centredBefore: end)
            guard last <= blocks, final || (last < blocks && frame(nearest: end - 1) < frames) else { return }
            slotEnergy = SIMD4(slotEnergy[1], slotEnergy[2], slotEnergy[3], energy(from: blocks(centredBefore: end - readLength), to: last))
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

    /// How many blocks have their centre before sample `n`.
    private func blocks(centredBefore n: Int) -> Int {
        max(0, (n - decimation / 2 + decimation - 1) / decimation)
    }

    /// The K-weighted energy of blocks `start..<end` (those measured and still kept): each
    /// block's high-passed energy times the ratio of the frame nearest its centre (the last
    /// frame's after it).
    private func energy(from start: Int, to end: Int) -> Double {
        var total = 0.0
        var j = max(start, blocks - blockMask)
        let last = min(end, blocks)
        while j < last {
            // The blocks centred nearest frame k, up to its segment's end.
            let k = frame(nearest: j * decimation + decimation / 2)
            let stop = min(last, max(j + 1, blocks(centredBefore: (k + 1) * hop - hop / 2)))
            var sum: Float = 0
            while j < stop {
                sum += energies[j & blockMask]
                j &+= 1
            }
            let ratio = frames == 0 ? 1 : ratios[min(k, frames - 1) & (ratios.count - 1)]
            total += Double(ratio) * Double(sum)
        }
        return total
    }
}

/// The BS.1770 K-weighting for one sample rate: the high shelf and the RLB high-pass, each a
/// biquad whose coefficients come from the analogue prototype through the bilinear transform
/// (libebur128's derivation: at 48 kHz they are the standard's coefficients).
struct KWeighting {
    /// Shelf and high-pass as (b0, b1, b2, a1, a2), a0 = 1.
    let shelf: (Double, Double, Double, Double, Double)
    let highPass: (Double, Double, Double, Double, Double)
    /// The two first-order sections that stand for the high-pass (its Q is 0.5003),
    /// `g·(1 − z⁻¹)² / (1 − p·z⁻¹)²`: the pole p, and the gain g = ((1 + p)/2)² that makes them 1
    /// at Nyquist (the analogue prototype's double pole through the bilinear transform: at the
    /// low rate of `LoudnessMeter`'s blocks they then stay under 1 up to Nyquist, where without
    /// g they rise 1.7 dB over it).
    let highPassPole: Double
    let highPassGain: Double

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
        highPassGain = (1 + highPassPole) * (1 + highPassPole) / 4
    }

    /// |K|² at `omega` radians per sample (π: Nyquist); 1 kHz at 48 kHz reads +0.69 dB.
    func power(atRadians omega: Double) -> Double {
        Self.power(shelf, omega) * Self.power(highPass, omega)
    }

    /// |T|² of the two first-order sections with their gain (`highPassGain`) at `omega`
    /// radians per sample: what `LoudnessMeter`'s blocks take away, at any rate.
    func sectionsPower(atRadians omega: Double) -> Double {
        let c = cos(omega), p = highPassPole
        let one = (2 - 2 * c) / (1 - 2 * p * c + p * p)
        return one * one * highPassGain * highPassGain
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
