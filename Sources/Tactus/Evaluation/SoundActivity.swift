import TactusCore
import TactusAnalysis
import TactusAudio
import TactusPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a sound can be heard, measured from its samples (the mono mix), for `HarmonyCheck`:
/// the level of every 10 ms block, whether it has an audible sample, and, to the sample, where
/// each sound begins — at the file's start and after every silence inside it.
///
/// "Audible" is the analysis's own (`SoundStarts`, which finds the starts here too): a sample is
/// audible when it is within `SoundStarts.audibleBelowPeakDb` of the file's peak sample, and a
/// silence is a whole block with no audible sample. So the harmony check and the mapper's
/// "nothing before the sound" agree on where a sound starts.
public struct SoundActivity: Equatable, Sendable {
    /// Length of a level block, in seconds.
    public static let blockSeconds = 0.01

    /// One sound of the file: where its first audible sample is, and where the silence before
    /// it began (0 for the file's first sound).
    public struct SoundStart: Equatable, Sendable {
        /// Seconds from the file's start to the first whole inaudible block before the sound
        /// (0 for the first sound).
        public var silenceStart: Double
        /// Seconds from the file's start to the sound's first audible sample.
        public var time: Double

        /// - Parameters:
        ///   - silenceStart: where the silence before the sound began, in seconds.
        ///   - time: the sound's first audible sample, in seconds.
        public init(silenceStart: Double, time: Double) {
            self.silenceStart = silenceStart
            self.time = time
        }
    }

    /// RMS level of each 10 ms block, in dB (full scale = 0); the last block may be shorter.
    public var levelDb: [Double]
    /// Largest sample magnitude of each 10 ms block, in dB (full scale = 0).
    public var peakDb: [Double]
    /// Every sound's start, in time order; empty for a file with no audible sample.
    public var starts: [SoundStart]
    /// Length of the audio in seconds.
    public var duration: Double

    /// - Parameters:
    ///   - levelDb: RMS level per 10 ms block, in dBFS.
    ///   - peakDb: peak sample per block, in dBFS (as many as `levelDb`).
    ///   - starts: every sound's start, in time order.
    ///   - duration: the audio's length in seconds.
    public init(levelDb: [Double], peakDb: [Double], starts: [SoundStart], duration: Double) {
        self.levelDb = levelDb
        self.peakDb = peakDb
        self.starts = starts
        self.duration = duration
    }

    /// The level (dB) a sample must reach to be audible: the file's peak sample's, less
    /// `SoundStarts.audibleBelowPeakDb`.
    public var audibleLevelDb: Double { (peakDb.max() ?? -140) - SoundStarts.audibleBelowPeakDb }

    /// Whether block `k` holds an audible sample.
    /// - Parameter k: a block index, 0 ..< `peakDb.count`.
    /// - Returns: true when its peak reaches `audibleLevelDb`.
    public func isAudible(block k: Int) -> Bool { peakDb[k] >= audibleLevelDb }

    /// Measures the file at `url` in one streaming pass; memory grows only with the number of
    /// 10 ms blocks.
    /// - Throws: `AudioError` when the file cannot be opened or decoded.
    /// - Parameter url: the audio file.
    /// - Returns: the levels, peaks and starts of the file.
    public static func measure(_ url: URL) throws -> SoundActivity {
        var levels: BlockLevelMeter?
        var starts: SoundStarts?
        var frames = 0
        let reader = try AudioFileReader(url: url)
        let sampleRate = reader.format.sampleRate
        let blocks = MonoBlockReader<Float>(reader, blockFrames: 4096)
        while try blocks.next({ _, mono in
            if levels == nil {
                let block = max(1, Int((blockSeconds * sampleRate).rounded()))
                levels = BlockLevelMeter(blockFrames: block)
                starts = SoundStarts(sampleRate: sampleRate, blockLength: block)
            }
            levels!.push(mono)
            starts!.push(mono)
            frames += mono.count
        }) {}
        let levelDb = levels?.finish() ?? []
        return SoundActivity(levelDb: levelDb, peakDb: levels?.peakDb ?? [],
                             starts: (starts?.finish() ?? []).map { SoundStart(silenceStart: $0.silenceStart, time: $0.time) },
                             duration: Double(frames) / sampleRate)
    }
}

/// RMS level and peak in dB (full scale = 0) of consecutive blocks of samples, streamed; the
/// last block may be shorter. Digital silence reads −140 dB. A block's level and peak cover its
/// span: the whole block, or its samples from the last `startSpan()` inside it on.
struct BlockLevelMeter {
    let blockFrames: Int
    private var power = 0.0
    private var peak: Float = 0
    /// Samples of the current block so far, and of its span.
    private var filled = 0, counted = 0
    private(set) var levelDb: [Double] = []
    private(set) var peakDb: [Double] = []
    /// Per block, the index of its span's first sample (from the first sample pushed).
    private(set) var spanStart: [Int] = []
    /// Samples pushed so far, and the index of the current span's first.
    private var pushed = 0, first = 0

    init(blockFrames: Int) {
        self.blockFrames = blockFrames
    }

    mutating func push(_ samples: UnsafeBufferPointer<Float>) {
        for x in samples {
            if filled == 0 { first = pushed }
            power += Double(x) * Double(x)
            peak = max(peak, abs(x))
            filled += 1
            counted += 1
            pushed += 1
            if filled == blockFrames { close() }
        }
    }

    /// Leaves out of the current block's level the samples pushed into it so far: its span
    /// begins with the next sample.
    mutating func startSpan() {
        guard filled > 0 else { return }
        power = 0
        peak = 0
        counted = 0
        first = pushed
    }

    /// The levels of every block, the partial last one included.
    mutating func finish() -> [Double] {
        if filled > 0 { close() }
        return levelDb
    }

    private mutating func close() {
        levelDb.append(10 * log10(max(power / Double(max(counted, 1)), 1e-14)))
        peakDb.append(20 * log10(max(Double(peak), 1e-7)))
        spanStart.append(first)
        power = 0
        peak = 0
        filled = 0
        counted = 0
    }
}
