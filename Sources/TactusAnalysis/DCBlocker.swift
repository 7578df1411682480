import Foundation

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
    private mutating func filter(_ x: UnsafePointer<Float>, groups count: Int, into y: UnsafeMutablePointer<Float>) {
        let (p, p2, carry, silentRun) = (pole, pole2, carry, silentRun)
        var (x1, y1, n, zeros) = (previousInput, previousOutput, groups, zeroRun)
        for g in 0..<count {
            let v = UnsafeRawPointer(x + 4 * g).loadUnaligned(as: SIMD4<Float>.self)
            var z = v - SIMD4(x1, v[0], v[1], v[2])
            z += p * SIMD4(0, z[0], z[1], z[2])
            z += p2 * SIMD4(0, 0, z[0], z[1])
            let out = z + carry * y1
            zeros = v == .zero ? zeros &+ 4 : 0
            UnsafeMutableRawPointer(y + 4 * g).storeBytes(of: zeros >= silentRun ? .zero : out, as: SIMD4<Float>.self)
            x1 = v[3]
            y1 = out[3]
            // After a sound, silence makes the state decay towards denormals, whose
            // arithmetic is slow. Far too few groups pass to get there between two checks,
            // so checking every 256th group (counted from the start: the same groups
            // whatever the blocks) keeps the branch out of nearly every step.
            n &+= 1
            if n & 255 == 0, y1 < 1e-20, y1 > -1e-20 { y1 = 0 }
        }
        (previousInput, previousOutput, groups, zeroRun) = (x1, y1, n, zeros)
    }
}
