import TactusCore
import TactusAudio

/// Where a sound can be heard, measured from its samples (the mono mix), for `HarmonyCheck`:
/// the level of every 10 ms block and, to the sample, where each sound begins — at the file's
/// start and after every silence inside it.
///
/// "Audible" is relative to the file itself: a sample is audible when its magnitude reaches the
/// RMS of the file's loudest 10 ms block lowered by `silenceDb`; a block is silent when its RMS
/// is below that level. A silence inside the file is a run of at least `minimumSilence` seconds
/// of inaudible samples.
public struct SoundActivity: Equatable, Sendable {
    /// Length of a level block, in seconds.
    public static let blockSeconds = 0.01
    /// How far below the loudest 10 ms block (dB) audio counts as silent.
    public static let silenceDb = 60.0
    /// Shortest run of inaudible samples, in seconds, that ends one sound so that the next
    /// audible sample begins another.
    public static let minimumSilence = 0.05

    /// One sound of the file: where its first audible sample is, and where the silence before
    /// it began (0 for the file's first sound).
    public struct SoundStart: Equatable, Sendable {
        /// Seconds from the file's start to the first inaudible sample before the sound (0 for
        /// the first sound).
        public var silenceStart: Double
        /// Seconds from the file's start to the sound's first audible sample.
        public var time: Double

        public init(silenceStart: Double, time: Double) {
            self.silenceStart = silenceStart
            self.time = time
        }
    }

    /// RMS level of each 10 ms block, in dB (full scale = 0); the last block may be shorter.
    public var levelDb: [Double]
    /// Every sound's start, in time order; empty for a file with no audible sample.
    public var starts: [SoundStart]
    /// Length of the audio in seconds.
    public var duration: Double

    public init(levelDb: [Double], starts: [SoundStart], duration: Double) {
        self.levelDb = levelDb
        self.starts = starts
        self.duration = duration
    }

    /// The level (dB) under which a block is silent: the loudest block's, less `silenceDb`.
    public var silenceLevelDb: Double { (levelDb.max() ?? 0) - Self.silenceDb }

    /// Measures the file at `url` in two streaming passes (levels, then sound starts against
    /// the level the first pass found); memory grows only with the number of 10 ms blocks.
    /// - Throws: `AudioError` when the file cannot be opened or decoded.
    public static func measure(_ url: URL) throws -> SoundActivity {
        var levels: BlockLevelMeter?
        var frames = 0
        let sampleRate = try forEachMonoBlock(of: url) { mono, rate in
            if levels == nil { levels = BlockLevelMeter(blockFrames: max(1, Int((blockSeconds * rate).rounded()))) }
            levels!.push(mono)
            frames += mono.count
        }
        let levelDb = levels?.finish() ?? []
        var activity = SoundActivity(levelDb: levelDb, starts: [], duration: Double(frames) / sampleRate)
        guard !levelDb.isEmpty else { return activity }
        var finder = SoundStartFinder(threshold: Float(pow(10, activity.silenceLevelDb / 20)),
                                      minimumSilenceFrames: Int((minimumSilence * sampleRate).rounded()))
        _ = try forEachMonoBlock(of: url) { mono, _ in finder.push(mono) }
        activity.starts = finder.starts.map {
            SoundStart(silenceStart: Double($0.silenceStart) / sampleRate, time: Double($0.start) / sampleRate)
        }
        return activity
    }

    /// Decodes `url` block by block into its mono mix; returns the sample rate.
    private static func forEachMonoBlock(of url: URL, _ body: (UnsafeBufferPointer<Float>, Double) -> Void) throws -> Double {
        let reader = try AudioFileReader(url: url)
        let rate = reader.format.sampleRate
        let blocks = MonoBlockReader<Float>(reader, blockFrames: 4096)
        while try blocks.next({ _, mono in body(mono, rate) }) {}
        return rate
    }
}

/// RMS level in dB (full scale = 0) of consecutive blocks of samples, streamed; the last block
/// may be shorter. Digital silence reads −140 dB.
struct BlockLevelMeter {
    let blockFrames: Int
    private var power = 0.0
    private var filled = 0
    private(set) var levelDb: [Double] = []

    init(blockFrames: Int) {
        self.blockFrames = blockFrames
    }

    mutating func push(_ samples: UnsafeBufferPointer<Float>) {
        for x in samples {
            power += Double(x) * Double(x)
            filled += 1
            if filled == blockFrames { close() }
        }
    }

    /// The levels of every block, the partial last one included.
    mutating func finish() -> [Double] {
        if filled > 0 { close() }
        return levelDb
    }

    private mutating func close() {
        levelDb.append(10 * log10(max(power / Double(filled), 1e-14)))
        power = 0
        filled = 0
    }
}

/// Finds, in streamed samples, the first audible sample (magnitude ≥ `threshold`) of the
/// stream and the first after each run of at least `minimumSilenceFrames` inaudible samples.
struct SoundStartFinder {
    let threshold: Float
    let minimumSilenceFrames: Int
    /// Frame indices: where the inaudible run before each sound began, and the sound's first
    /// audible frame.
    private(set) var starts: [(silenceStart: Int, start: Int)] = []
    private var position = 0
    /// Inaudible frames just read; `position - quietRun` is where they began.
    private var quietRun = 0

    init(threshold: Float, minimumSilenceFrames: Int) {
        self.threshold = threshold
        self.minimumSilenceFrames = max(1, minimumSilenceFrames)
    }

    mutating func push(_ samples: UnsafeBufferPointer<Float>) {
        for x in samples {
            if abs(x) >= threshold {
                if starts.isEmpty {
                    starts.append((0, position))
                } else if quietRun >= minimumSilenceFrames {
                    starts.append((position - quietRun, position))
                }
                quietRun = 0
            } else {
                quietRun += 1
            }
            position += 1
        }
    }
}
