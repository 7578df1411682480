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
/// Samples are filtered four at a time (the recursion solved for a group of four, so the
/// chain from group to group is one multiply and one add rather than one per sample).
/// Groups are counted from the first sample of the signal, so the output does not depend on
/// how the caller splits it into blocks: up to three samples wait for the next block, and
/// `flush` filters the last ones.
struct DCBlocker {
    static let cutoffHz = 5.0

    private let pole: Float
    private let pole2: Float
    /// (p, p², p³, p⁴): how the previous output reaches each sample of a group.
    private let carry: SIMD4<Float>
    private var previousInput: Float = 0
    private var previousOutput: Float = 0
    private var held = SIMD4<Float>(repeating: 0)
    private var heldCount = 0
    private var groups = 0

    init(sampleRate: Double) {
        let p = Float(exp(-2 * Double.pi * Self.cutoffHz / sampleRate))
        pole = p
        pole2 = p * p
        carry = SIMD4(p, p * p, p * p * p, p * p * p * p)
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
            output[k] = y
        }
        defer { heldCount = 0 }
        return heldCount
    }

    /// Whole groups: per group the differences, a two-step prefix scan with the pole (each
    /// sample gathers the three before it), then the previous group's last output carried
    /// in. Four groups at a time are transposed so that every in-group step is one vector
    /// operation across the groups, leaving only the carry chain from group to group scalar;
    /// the arithmetic, operation by operation, is that of `filterGroup`, so the output does not
    /// depend on how many groups a call gets. The state stays in locals for the loop: kept in
    /// `self`, every group stored one lane and reloaded it as part of a vector, a stall that
    /// cost more than the arithmetic.
    private mutating func filter(_ x: UnsafePointer<Float>, groups count: Int, into y: UnsafeMutablePointer<Float>) {
        var state = Chain(x1: previousInput, y1: previousOutput, n: groups)
        var g = 0
        while g + 4 <= count {
            filterFourGroups(x + 4 * g, into: y + 4 * g, &state)
            g += 4
        }
        while g < count {
            filterGroup(x + 4 * g, into: y + 4 * g, &state)
            g += 1
        }
        (previousInput, previousOutput, groups) = (state.x1, state.y1, state.n)
    }

    /// What one group hands the next: its last input and output, and the groups filtered
    /// since the start of the signal.
    private struct Chain {
        var x1: Float
        var y1: Float
        var n: Int

        /// Counts a group whose last output was `y` and keeps it as the next group's input.
        /// After a sound, silence makes the state decay towards denormals, whose arithmetic
        /// is slow. Far too few groups pass to get there between two checks, so checking
        /// every 256th group (counted from the start: the same groups whatever the blocks)
        /// keeps the branch out of nearly every step.
        @inline(__always) mutating func carry(_ y: Float) {
            y1 = y
            n &+= 1
            if n & 255 == 0, y1 < 1e-20, y1 > -1e-20 { y1 = 0 }
        }
    }

    /// One group of four samples.
    @inline(__always) private func filterGroup(_ x: UnsafePointer<Float>, into y: UnsafeMutablePointer<Float>,
                                               _ state: inout Chain) {
        let v = UnsafeRawPointer(x).loadUnaligned(as: SIMD4<Float>.self)
        var z = v - SIMD4(state.x1, v[0], v[1], v[2])
        z += pole * SIMD4(0, z[0], z[1], z[2])
        z += pole2 * SIMD4(0, 0, z[0], z[1])
        let out = z + carry * state.y1
        UnsafeMutableRawPointer(y).storeBytes(of: out, as: SIMD4<Float>.self)
        state.x1 = v[3]
        state.carry(out[3])
    }

    /// Four consecutive groups, transposed: `s[k]` holds sample k of each group, so
    /// `z[k] = s[k] − s[k−1]` and the scans are whole-vector steps. The zeros `filterGroup`
    /// adds (the pole times a zero lane) are added here too: they turn −0 into +0.
    @inline(__always) private func filterFourGroups(_ x: UnsafePointer<Float>, into y: UnsafeMutablePointer<Float>,
                                                    _ state: inout Chain) {
        let raw = UnsafeRawPointer(x)
        let a = raw.loadUnaligned(as: SIMD4<Float>.self), b = raw.loadUnaligned(fromByteOffset: 16, as: SIMD4<Float>.self)
        let c = raw.loadUnaligned(fromByteOffset: 32, as: SIMD4<Float>.self)
        let d = raw.loadUnaligned(fromByteOffset: 48, as: SIMD4<Float>.self)
        let (s0, s1, s2, s3) = transpose(a, b, c, d)
        let zero = pole * SIMD4<Float>(repeating: 0)
        let z0 = s0 - SIMD4(state.x1, s3[0], s3[1], s3[2])
        let z1 = s1 - s0, z2 = s2 - s1, z3 = s3 - s2
        let w0 = z0 + zero, w1 = z1 + pole * z0, w2 = z2 + pole * z1, w3 = z3 + pole * z2
        let zero2 = pole2 * SIMD4<Float>(repeating: 0)
        let u0 = w0 + zero2, u1 = w1 + zero2, u2 = w2 + pole2 * w0, u3 = w3 + pole2 * w1
        // The chain: each group's last output, from the one before, as `filterGroup` makes it.
        var incoming = SIMD4<Float>(repeating: 0)
        for lane in 0..<4 {
            incoming[lane] = state.y1
            state.carry(u3[lane] + carry[3] * state.y1)
        }
        state.x1 = s3[3]
        let (o0, o1, o2, o3) = transpose(u0 + carry[0] * incoming, u1 + carry[1] * incoming,
                                         u2 + carry[2] * incoming, u3 + carry[3] * incoming)
        let out = UnsafeMutableRawPointer(y)
        out.storeBytes(of: o0, as: SIMD4<Float>.self)
        out.storeBytes(of: o1, toByteOffset: 16, as: SIMD4<Float>.self)
        out.storeBytes(of: o2, toByteOffset: 32, as: SIMD4<Float>.self)
        out.storeBytes(of: o3, toByteOffset: 48, as: SIMD4<Float>.self)
    }
}

/// The 4×4 transpose: lane k of result j is lane j of argument k.
@inline(__always) private func transpose(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>, _ d: SIMD4<Float>)
    -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
    (SIMD4(a[0], b[0], c[0], d[0]), SIMD4(a[1], b[1], c[1], d[1]), SIMD4(a[2], b[2], c[2], d[2]),
     SIMD4(a[3], b[3], c[3], d[3]))
}
