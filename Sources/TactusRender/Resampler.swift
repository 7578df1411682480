import TactusCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Band-limited resampling of interleaved frames, streamed: a Kaiser-windowed sinc (β 8,
/// ±16 zero crossings, cutoff at 0.97 of the lower of the two Nyquist frequencies),
/// tabulated at 512 points per zero crossing and interpolated linearly. Output frame m sits at
/// input frame m · input / output, kept as an exact fraction; the weights of each of its
/// phases are computed once when there are few (44.1 → 48 kHz has 160). Equal rates pass
/// through unchanged. Deterministic: the same input gives the same samples in any block sizes.
struct Resampler {
    let channels: Int
    /// Input frames per output frame, as the fraction step / phases in lowest terms.
    let step: Int, phases: Int
    /// Input frames the kernel reaches on each side of an output instant.
    let halfWidth: Int
    /// The kernel at `pointsPerFrame` points per input frame from 0 to `halfWidth`, plus a trailing 0.
    private let table: [Double]
    private let pointsPerFrame: Double
    /// The weights of every phase, when `phases` ≤ `maxCachedPhases`, each 2 · halfWidth long.
    private var cached: [[Double]?]
    /// Input frames not yet consumed, interleaved, the first being absolute frame `inputStart`.
    private var input: [Float] = []
    private var inputStart = 0
    private var received = 0
    /// The next output frame.
    private(set) var produced = 0

    static let zeroCrossings = 16.0, beta = 8.0, cutoff = 0.97, pointsPerCrossing = 512.0, maxCachedPhases = 4096

    init(from inputRate: Int, to outputRate: Int, channels: Int) {
        self.channels = channels
        var (a, b) = (inputRate, outputRate)
        while b != 0 { (a, b) = (b, a % b) }
        (step, phases) = (inputRate / a, outputRate / a)
        // The cutoff as a fraction of the input's Nyquist frequency.
        let fc = Self.cutoff * min(1, Double(outputRate) / Double(inputRate))
        let width = Self.zeroCrossings / fc
        halfWidth = Int(width.rounded(.up))
        pointsPerFrame = Self.pointsPerCrossing * fc
        let i0Beta = Self.besselI0(Self.beta)
        table = (0...Int((width * pointsPerFrame).rounded(.up))).map { [pointsPerFrame] i in
            let u = Double(i) / pointsPerFrame
            guard u < width else { return 0 }
            let r = u / width
            let window = Self.besselI0(Self.beta * (1 - r * r).squareRoot()) / i0Beta
            let x = Double.pi * fc * u
            return fc * (x == 0 ? 1 : sin(x) / x) * window
        } + [0]
        cached = [[Double]?](repeating: nil, count: phases <= Self.maxCachedPhases ? phases : 0)
    }

    var isIdentity: Bool { step == phases }

    /// Adds input frames and hands `body` every output frame they complete (interleaved).
    mutating func push(_ frames: UnsafeBufferPointer<Float>, _ body: ([Float]) throws -> Void) rethrows {
        if isIdentity {
            produced += frames.count / channels
            return try body(Array(frames))
        }
        input.append(contentsOf: frames)
        received += frames.count / channels
        try produce(upTo: Int.max, final: false, body)
    }

    /// Produces output frames up to (not including) `limit`, the input past its end read as
    /// silence.
    mutating func finish(at limit: Int, _ body: ([Float]) throws -> Void) rethrows {
        if isIdentity {
            guard limit > produced else { return }
            defer { produced = limit }
            return try body([Float](repeating: 0, count: (limit - produced) * channels))
        }
        try produce(upTo: limit, final: true, body)
    }

    /// The weights of input frames base − halfWidth + 1 … base + halfWidth for an output
    /// instant `phase / phases` of a frame after `base`.
    private mutating func weights(phase: Int) -> [Double] {
        if phase < cached.count, let known = cached[phase] { return known }
        let fraction = Double(phase) / Double(phases)
        let weights = (0..<(2 * halfWidth)).map { j -> Double in
            let position = abs(fraction - Double(j - halfWidth + 1)) * pointsPerFrame
            let i = Int(position)
            guard i + 1 < table.count else { return 0 }
            return table[i] + (table[i + 1] - table[i]) * (position - Double(i))
        }
        if phase < cached.count { cached[phase] = weights }
        return weights
    }

    private mutating func produce(upTo limit: Int, final: Bool, _ body: ([Float]) throws -> Void) rethrows {
        var out: [Float] = []
        while produced < limit {
            let (base, phase) = (produced * step).quotientAndRemainder(dividingBy: phases)
            if !final && base + halfWidth >= received { break }
            let weights = weights(phase: phase)
            let first = base - halfWidth + 1
            let from = max(0, -first), to = min(2 * halfWidth, received - first)
            // Each channel's sum in order of j, through pointers: the indices are in range by
            // construction (from…to lies within the frames received and kept).
            input.withUnsafeBufferPointer { samples in
                weights.withUnsafeBufferPointer { w in
                    for channel in 0..<channels {
                        var sum = 0.0
                        var index = (first + from - inputStart) * channels + channel
                        for j in from..<max(from, to) {
                            sum += w[j] * Double(samples[index])
                            index += channels
                        }
                        out.append(Float(sum))
                    }
                }
            }
            produced += 1
            if out.count >= 4096 * channels {
                try body(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        if !out.isEmpty { try body(out) }
        // Frames no later output reaches are dropped.
        let keepFrom = max(inputStart, produced * step / phases - halfWidth)
        if keepFrom - inputStart >= 8192 {
            input.removeFirst((keepFrom - inputStart) * channels)
            inputStart = keepFrom
        }
    }

    /// The modified Bessel function of the first kind, order 0 (its power series).
    static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0, k = 1.0
        while term > 1e-12 * sum {
            term *= (x / (2 * k)) * (x / (2 * k))
            sum += term
            k += 1
        }
        return sum
    }
}
