import TactusCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Removes a constant offset (DC) from the analysed signal with a one-pole high-pass,
/// `y[n] = x[n] − x[n−1] + p·y[n−1]`.
///
/// DC is inaudible, yet it adds to every frame's RMS and to the lowest band: an offset
/// alone reads as a loud, steady sound, so it buzzed as a continuous haptic under
/// silence and raised the background that onsets are judged against until clicks riding
/// on it went unfelt. At 5 Hz the filter leaves audible bass alone (−0.3 dB at 20 Hz).
/// The state starts at zero, as if the file were preceded by silence, so an offset
/// present from the first sample is the step a speaker would play.
///
/// Digital silence stays silent: once the input has been exactly zero for `silentSeconds`
/// (counted in whole groups of four from the start of the signal), the output is exactly zero
/// for as long as whole groups stay so, while the filter itself runs on unchanged (so a sound resuming after a short gap
/// is filtered as before). Without it, a sound with an offset that stops dead left the
/// offset's step ringing out for a tenth of a second (τ = 1 / (2π · 5 Hz) ≈ 32 ms) after the
/// sound, and the haptics followed it into the silence.
///
/// Samples are filtered four at a time (the recursion solved for a group of four, so the
/// chain from group to group is one multiply and one add rather than one per sample).
/// Groups are counted from the first sample of the signal, so the output does not depend on
/// how the caller splits it into blocks: up to three samples wait for the next block, and
/// `flush` filters the last ones.
struct DCBlocker {
    static let cutoffHz = 5.0
    /// How long the input must stay exactly zero to be digital silence, seconds (sounds
    /// cross zero; they do not stay there).
    static let silentSeconds = 0.002

    private let pole: Float
    private let pole2: Float
    /// (p, p², p³, p⁴): how the previous output reaches each sample of a group.
    private let carry: SIMD4<Float>
    /// p⁴, `carry`'s last lane, kept apart so the compiler keeps the chain from group to group
    /// a scalar multiply and add (seeing it is that lane, it computes the whole vector and
    /// shuffles its last lane out and back on every turn).
    private let pole4: Float
    /// `silentSeconds` in samples.
    private let silentRun: Int
    private var previousInput: Float = 0
    private var previousOutput: Float = 0
    private var held = SIMD4<Float>(repeating: 0)
    private var heldCount = 0
    private var groups = 0
    /// Zero samples in a row at the end of the input so far, in whole groups.
    private var zeroRun = 0

    init(sampleRate: Double) {
        let p = Float(exp(-2 * Double.pi * Self.cutoffHz / sampleRate))
        pole = p
        pole2 = p * p
        carry = SIMD4(p, p * p, p * p * p, p * p * p * p)
        pole4 = carry[3]
        silentRun = max(4, Int((Self.silentSeconds * sampleRate).rounded()))
    }

    /// Filters `input` and returns how many samples were written to `output`: whole groups
    /// of four, including samples held from the previous call. `output` needs room for
    /// `input.count + 3` samples.
    mutating func process(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) -> Int {
        precondition(output.count >= input.count + heldCount)
        var i = 0, written = 0
        if heldCount > 0 {
            while heldCount < 4, i < input.count {
                held[heldCount] = input[i]
                heldCount += 1
                i += 1
            }
            guard heldCount == 4 else { return 0 }
            let group = held
            withUnsafeBytes(of: group) {
                filter($0.baseAddress!.assumingMemoryBound(to: Float.self), groups: 1, into: output.baseAddress!)
            }
            heldCount = 0
            written = 4
        }
        let whole = (input.count - i) / 4
        if whole > 0 { filter(input.baseAddress! + i, groups: whole, into: output.baseAddress! + written) }
        i += 4 * whole
        written += 4 * whole
        while i < input.count {
            held[heldCount] = input[i]
            heldCount += 1
            i += 1
        }
        return written
    }

    /// Filters the samples still held (fewer than four) one by one, at the end of the signal.
    mutating func flush(into output: UnsafeMutableBufferPointer<Float>) -> Int {
        precondition(output.count >= heldCount)
        for k in 0..<heldCount {
            let y = held[k] - previousInput + pole * previousOutput
            previousInput = held[k]
            previousOutput = y
            output[k] = zeroRun >= silentRun && held[k] == 0 ? 0 : y
        }
        defer { heldCount = 0 }
        return heldCount
    }

    /// Whole groups: per group the differences, a two-step prefix scan with the pole (each
    /// sample gathers the three before it), then the previous group's last output carried
    /// in. The state stays in locals for the loop: kept in `self`, every group stored one
    /// lane and reloaded it as part of a vector, a stall that cost more than the arithmetic.
    ///
    /// The time goes into the carry, the one chain from group to group: it is kept a scalar,
    /// `y1 = z[3] + p⁴·y1` (the group's last lane, the same multiply and add), so each turn
    /// waits for one multiply and one add rather than for shuffles that pack it into a vector.
    /// The sample before each group is loaded from the input (the state only for the call's
    /// first group), silence is judged with one vector compare, and the check for denormals
    /// runs between runs of groups, not in every turn.
    private mutating func filter(_ x: UnsafePointer<Float>, groups count: Int, into y: UnsafeMutablePointer<Float>) {
        guard count > 0 else { return }
        let (p, p2, carry, p4, silentRun) = (pole, pole2, carry, pole4, silentRun)
        var (y1, n, zeros) = (previousOutput, groups, zeroRun)

        @inline(__always) func step(_ v: SIMD4<Float>, after before: SIMD4<Float>, into out: UnsafeMutablePointer<Float>) {
            var z = v - before
            z += p * SIMD4(0, z[0], z[1], z[2])
            z += p2 * SIMD4(0, 0, z[0], z[1])
            let filtered = z + carry * y1
            zeros = all(v .== .zero) ? zeros &+ 4 : 0
            UnsafeMutableRawPointer(out).storeBytes(of: zeros >= silentRun ? .zero : filtered, as: SIMD4<Float>.self)
            y1 = z[3] + p4 * y1  // out[3], bit for bit
        }

        let first = UnsafeRawPointer(x).loadUnaligned(as: SIMD4<Float>.self)
        step(first, after: SIMD4(previousInput, first[0], first[1], first[2]), into: y)
        var g = 1
        // Checked at whole multiples of 256 groups counted from the start, as before: the
        // state decays towards denormals (slow arithmetic) after a sound, and far too few
        // groups pass to get there between two checks.
        n &+= 1
        if n & 255 == 0, y1 < 1e-20, y1 > -1e-20 { y1 = 0 }
        while g < count {
            let end = min(count, g + 256 - (n & 255))
            var (source, target) = (UnsafeRawPointer(x + 4 * g), y + 4 * g)
            for _ in g..<end {
                step(source.loadUnaligned(as: SIMD4<Float>.self), after: (source - 4).loadUnaligned(as: SIMD4<Float>.self),
                     into: target)
                source += 16
                target += 4
            }
            n &+= end - g
            g = end
            if n & 255 == 0, y1 < 1e-20, y1 > -1e-20 { y1 = 0 }
        }
        (previousInput, previousOutput, groups, zeroRun) = (x[4 * count - 1], y1, n, zeros)
    }
}
