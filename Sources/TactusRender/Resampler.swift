import TactusCore

/// Band-limited resampling of interleaved frames, streamed: a Kaiser-windowed sinc (β 8,
/// ±16 zero crossings, cutoff at 0.97 of the lower of the two Nyquist frequencies),
/// tabulated at 512 points per zero crossing and interpolated linearly. Equal rates pass
/// through unchanged. Deterministic: the same input gives the same samples in any block sizes.
struct Resampler {
    let channels: Int
    /// Input frames per output frame.
    let ratio: Double
    /// Input frames the kernel reaches on each side of an output instant.
    let halfWidth: Int
    /// The kernel at `phases` points per input frame from 0 to `halfWidth`, plus a trailing 0.
    private let table: [Double]
    private let phases: Double
    /// Input frames not yet consumed, interleaved, the first being absolute frame `inputStart`.
    private var input: [Float] = []
    private var inputStart = 0
    private var received = 0
    /// The next output frame.
    private(set) var produced = 0

    static let zeroCrossings = 16.0, beta = 8.0, cutoff = 0.97, pointsPerCrossing = 512.0

    init(from inputRate: Double, to outputRate: Double, channels: Int) {
        self.channels = channels
        ratio = inputRate / outputRate
        // The cutoff as a fraction of the input's Nyquist frequency.
        let fc = Self.cutoff * min(1, outputRate / inputRate)
        let width = Self.zeroCrossings / fc
        halfWidth = Int(width.rounded(.up))
        phases = Self.pointsPerCrossing * fc
        let count = Int((width * phases).rounded(.up))
        let i0Beta = Self.besselI0(Self.beta)
        table = (0...count).map { i in
            let u = Double(i) / (Self.pointsPerCrossing * fc)
            guard u < width else { return 0 }
            let r = u / width
            let window = Self.besselI0(Self.beta * (1 - r * r).squareRoot()) / i0Beta
            let x = Double.pi * fc * u
            return fc * (x == 0 ? 1 : sin(x) / x) * window
        } + [0]
    }

    var isIdentity: Bool { ratio == 1 }

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

    private mutating func produce(upTo limit: Int, final: Bool, _ body: ([Float]) throws -> Void) rethrows {
        var out: [Float] = []
        while produced < limit {
            let x = Double(produced) * ratio
            let base = Int(x.rounded(.down))
            if !final && base + halfWidth >= received { break }
            for channel in 0..<channels {
                var sum = 0.0
                for k in (base - halfWidth + 1)...(base + halfWidth) where k >= 0 && k < received {
                    let position = abs(x - Double(k)) * phases
                    let i = Int(position)
                    guard i + 1 < table.count else { continue }
                    let weight = table[i] + (table[i + 1] - table[i]) * (position - Double(i))
                    sum += weight * Double(input[(k - inputStart) * channels + channel])
                }
                out.append(Float(sum))
            }
            produced += 1
            if out.count >= 4096 * channels {
                try body(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        if !out.isEmpty { try body(out) }
        // Frames no later output reaches are dropped.
        let keepFrom = max(inputStart, Int((Double(produced) * ratio).rounded(.down)) - halfWidth)
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
