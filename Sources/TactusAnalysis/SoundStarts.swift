import TactusCore

/// Where each sound of a signal begins: its first audible sample, at the file's start or after
/// a silence, so that nothing felt comes before what is heard.
///
/// Audible means within `audibleBelowPeakDb` of the file's peak sample (the real-sound
/// corpus's onset rule); a silence is at least one whole hop-long block below that. The peak
/// is known only at the end, so while the samples stream past the starts are kept for a
/// ladder of levels 6.02 dB apart (powers of two, down to 2^-16 of full scale), each block's
/// peak compared with every level and only the blocks where a level is first crossed after a
/// silence searched sample by sample; `finish` answers at the lowest level that is not below
/// the audible one. Memory: the starts of the levels within 60 dB of the loudest block so far.
public final class SoundStarts {
    /// A sound's start: `time`, its first audible sample; `silenceStart`, the start of the
    /// first whole block of the silence before it (0 at the file's start); both in seconds.
    public struct Start: Equatable, Sendable {
        public var silenceStart: Double
        public var time: Double
    }

    /// How far under the file's peak sample a sample still counts as audible, in dB.
    public static let audibleBelowPeakDb = 50.0
    static let levelCount = 17
    /// Levels further than this under the loudest block so far can no longer be the audible one.
    static let keptRangeDb = 60.0

    private let sampleRate: Double
    private let block: Int
    private var buffer: [Float]
    private var filled = 0
    /// Samples in whole blocks handed to `process` so far.
    private var consumed = 0
    private var peak: Float = 0
    /// Per level: the sample where its current silence began (nil while the level is crossed).
    private var silentSince: [Int?]
    /// Per level: (silence start, first sample) of every sound it saw begin.
    private var starts: [[(Int, Int)]]

    public init(sampleRate: Double, blockLength: Int) {
        self.sampleRate = sampleRate
        block = max(1, blockLength)
        buffer = [Float](repeating: 0, count: block)
        silentSince = [Int?](repeating: 0, count: Self.levelCount)
        starts = [[(Int, Int)]](repeating: [], count: Self.levelCount)
    }

    /// Level `j` as an amplitude: 2^-j of full scale.
    static func level(_ j: Int) -> Float { Float(sign: .plus, exponent: -j, significand: 1) }

    public func push(_ samples: UnsafeBufferPointer<Float>) {
        var offset = 0
        while offset < samples.count {
            let count = min(block - filled, samples.count - offset)
            for i in 0..<count { buffer[filled + i] = samples[offset + i] }
            filled += count
            offset += count
            if filled == block { process(count: block) }
        }
    }

    private func process(count: Int) {
        var loudest: Float = 0
        for i in 0..<count { loudest = max(loudest, abs(buffer[i])) }
        peak = max(peak, loudest)
        let lowestKept = peak > 0 ? Int((Double(-log2(peak)) + Self.keptRangeDb / 6.0206).rounded(.up)) : Self.levelCount
        for j in 0..<Self.levelCount {
            let threshold = Self.level(j)
            if loudest >= threshold {
                if let since = silentSince[j], j <= lowestKept {
                    let first = (0..<count).first { abs(buffer[$0]) >= threshold } ?? 0
                    starts[j].append((since, consumed + first))
                }
                silentSince[j] = nil
            } else if silentSince[j] == nil {
                silentSince[j] = consumed
            }
            if j > lowestKept, !starts[j].isEmpty { starts[j] = [] }
        }
        consumed += count
        filled = 0
    }

    /// The starts at the audible level of the whole signal, in time order.
    public func finish() -> [Start] {
        if filled > 0 { process(count: filled) }
        guard peak > 0 else { return [] }
        let audible = Double(peak) * pow(10, -Self.audibleBelowPeakDb / 20)
        // The lowest level that is not below the audible one: a sound starts there no earlier.
        var j = 0
        while j + 1 < Self.levelCount, Double(Self.level(j + 1)) >= audible { j += 1 }
        return starts[j].map { Start(silenceStart: Double($0.0) / sampleRate, time: Double($0.1) / sampleRate) }
    }
}
