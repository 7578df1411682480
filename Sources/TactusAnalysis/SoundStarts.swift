import TactusCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where each sound of a signal begins: its first audible sample, at the file's start or after
/// a silence, so that nothing felt comes before what is heard.
///
/// Audible means within `audibleBelowPeakDb` of the file's peak sample (the real-sound
/// corpus's onset rule); a silence is at least one whole hop-long block below that. The peak
/// is known only at the end, so while the samples stream past the starts are kept for a
/// ladder of levels 1.5 dB apart (quarter powers of two, down to 2^-16 of full scale), each block's
/// peak compared with every level and only the blocks where a level is first crossed after a
/// silence searched sample by sample; `finish` answers at the lowest level that is not below
/// the audible one. Memory: the starts of the levels within 60 dB of the loudest block so far.
public final class SoundStarts {
    /// A sound's start: `time`, its first audible sample; `silenceStart`, the start of the
    /// first whole block of the silence before it (0 at the file's start); both in seconds.
    public struct Start: Equatable, Sendable {
        /// Start of the silence before the sound, in seconds.
        public var silenceStart: Double
        /// The sound's first audible sample, in seconds.
        public var time: Double

        /// A sound starting at `time` after a silence from `silenceStart`.
        /// - Parameters:
        ///   - silenceStart: start of the silence before the sound, seconds.
        ///   - time: the sound's first audible sample, seconds (≥ `silenceStart`).
        public init(silenceStart: Double, time: Double) {
            self.silenceStart = silenceStart
            self.time = time
        }
    }

    /// How long before a sound's first audible sample an onset may stay, in seconds: an
    /// attack's first few samples may lie under the audible level, and nothing felt within a
    /// millisecond of the sound comes before it.
    public static let allowedLead = 0.001
    /// How far under the file's peak sample a sample still counts as audible, in dB.
    public static let audibleBelowPeakDb = 50.0
    /// Ladder levels per halving of the amplitude (6.02 dB): 1.5 dB apart, so a start is placed
    /// at most 1.5 dB above the audible level.
    static let levelsPerBinade = 4
    static let levelCount = 16 * levelsPerBinade + 1
    /// Levels further than this under the loudest block so far can no longer be the audible one.
    static let keptRangeDb = 60.0

    private let sampleRate: Double
    private let block: Int
    // The state below is `@exclusivity(unchecked)`, as `SpectralFrame`'s is: one thread uses
    // it and no access is nested in another, so the runtime check on each access finds nothing.
    /// A block's samples while it is incomplete (whole blocks are read where they arrive).
    @exclusivity(unchecked) private var buffer: [Float]
    @exclusivity(unchecked) private var filled = 0
    /// Samples in whole blocks handed to `process` so far.
    @exclusivity(unchecked) private var consumed = 0
    @exclusivity(unchecked) private var peak: Float = 0
    /// Per level: the sample where its last silence began (current for the levels under
    /// `crossedFrom`).
    @exclusivity(unchecked) private var silentSince: [Int]
    /// The levels the last block crossed are `crossedFrom...` (levels fall with the index);
    /// those above are silent. At the file's start every level is silent since sample 0.
    @exclusivity(unchecked) private var crossedFrom = SoundStarts.levelCount
    /// The levels from this one on had their starts dropped (too far under the peak to matter).
    @exclusivity(unchecked) private var keptThrough = SoundStarts.levelCount
    /// Per level: (silence start, first sample) of every sound it saw begin.
    @exclusivity(unchecked) private var starts: [[(Int, Int)]]

    /// - Parameters:
    ///   - sampleRate: the signal's sample rate, in Hz.
    ///   - blockLength: samples per block; a silence is at least one whole block (the analysis passes its hop).
    public init(sampleRate: Double, blockLength: Int) {
        self.sampleRate = sampleRate
        block = max(1, blockLength)
        buffer = [Float](repeating: 0, count: block)
        silentSince = [Int](repeating: 0, count: Self.levelCount)
        starts = [[(Int, Int)]](repeating: [], count: Self.levelCount)
    }

    /// Level `j` as an amplitude: 2^(-j / levelsPerBinade) of full scale.
    static let levels: [Float] = (0..<levelCount).map { Float(exp2(-Double($0) / Double(levelsPerBinade))) }
    static func level(_ j: Int) -> Float { levels[j] }

    /// Reads the next raw mono samples (−1…1).
    /// - Parameter samples: the next samples of the signal, in order.
    public func push(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress else { return }
        var offset = 0
        while offset < samples.count {
            if filled == 0, samples.count - offset >= block {
                // A whole block where it arrived: read in place, not copied.
                process(base + offset, count: block)
                offset += block
                continue
            }
            let count = min(block - filled, samples.count - offset)
            buffer.withUnsafeMutableBufferPointer { destination in
                _ = UnsafeMutableBufferPointer(rebasing: destination[filled..<filled + count])
                    .update(fromContentsOf: samples[offset..<offset + count])
            }
            filled += count
            offset += count
            if filled == block { processBuffer(count: block) }
        }
    }

    /// The largest magnitude among `count` samples from `base`, eight lanes at a time: each
    /// sample's sign bit cleared (`|x|`, exact), then one running maximum (`maxps`): the larger
    /// of the block's maximum and minus its minimum (a silent block's zero may carry either sign,
    /// which no comparison with a level sees).
    private func blockPeak(_ base: UnsafePointer<Float>, count: Int) -> Float {
        var highest = SIMD8<Float>(repeating: 0)
        var k = 0
        while k &+ 8 <= count {
            let v = UnsafeRawPointer(base + k).loadUnaligned(as: SIMD8<Float>.self)
            let magnitude = absolute(v)
            highest.replace(with: magnitude, where: magnitude .> highest)
            k &+= 8
        }
        var loudest = highest.max()
        while k < count { loudest = max(loudest, abs(base[k])); k += 1 }
        return loudest
    }

    /// The first of `count` samples from `base` whose magnitude reaches `threshold` (0 when
    /// none does): eight lanes at a time up to the group that holds it, then sample by sample.
    private func firstSample(_ base: UnsafePointer<Float>, count: Int, reaching threshold: Float) -> Int {
        let limit = SIMD8<Float>(repeating: threshold)
        var k = 0
        while k &+ 8 <= count {
            let v = UnsafeRawPointer(base + k).loadUnaligned(as: SIMD8<Float>.self)
            let magnitude = absolute(v)
            if any(magnitude .>= limit) { break }
            k &+= 8
        }
        while k < count {
            if abs(base[k]) >= threshold { return k }
            k &+= 1
        }
        return 0
    }

    /// `process(_:count:)` of the first `count` samples of `buffer`.
    private func processBuffer(count: Int) {
        buffer.withUnsafeBufferPointer { process($0.baseAddress!, count: count) }
    }

    /// Judges the next block, the `count` samples from `samples` (the signal's samples
    /// `consumed..<consumed + count`).
    private func process(_ samples: UnsafePointer<Float>, count: Int) {
        let loudest = blockPeak(samples, count: count)
        if loudest.isFinite { peak = max(peak, loudest) }
        // Levels start at full scale: a peak above it keeps level 0 and those within the range.
        let lowestKept = peak > 0
            ? max(0, Int(((Double(-log2(peak)) + Self.keptRangeDb / 6.0206) * Double(Self.levelsPerBinade)).rounded(.up)))
            : Self.levelCount
        // Only the levels between the last block's lowest crossed level and this one's change.
        let crossed = Self.levels.partitioningIndex { $0 <= loudest }
        for j in crossed..<max(crossed, crossedFrom) where j <= lowestKept {
            starts[j].append((silentSince[j], consumed + firstSample(samples, count: count, reaching: Self.levels[j])))
        }
        for j in crossedFrom..<max(crossedFrom, crossed) { silentSince[j] = consumed }
        crossedFrom = crossed
        while keptThrough > lowestKept + 1 {
            keptThrough -= 1
            starts[keptThrough] = []
        }
        consumed += count
        filled = 0
    }

    /// The starts at the audible level of the whole signal, in time order.
    /// - Returns: one start per sound; empty for a silent signal.
    public func finish() -> [Start] {
        if filled > 0 { processBuffer(count: filled) }
        guard peak > 0 else { return [] }
        let audible = Double(peak) * pow(10, -Self.audibleBelowPeakDb / 20)
        // The lowest level that is not below the audible one: a sound starts there no earlier.
        var j = 0
        while j + 1 < Self.levelCount, Double(Self.level(j + 1)) >= audible { j += 1 }
        return starts[j].map { Start(silenceStart: Double($0.0) / sampleRate, time: Double($0.1) / sampleRate) }
    }
}
