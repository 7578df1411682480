/// The min/max outline of a waveform, decimated while the audio streams past, so a
/// plot of an hour-long file needs no more memory than a plot of a one-second click.
///
/// Samples are gathered into buckets of `framesPerBucket`. Whenever the buckets outgrow
/// `maxBuckets`, neighbours merge pairwise and the bucket size doubles: memory stays under
/// `maxBuckets` whatever the length, the result does not depend on the header's (possibly
/// estimated) frame count, and the same samples always give the same outline.
public struct WaveformEnvelope: Equatable, Sendable {
    /// The lowest and highest sample of a run of frames, in −1…1.
    public struct Bucket: Equatable, Sendable {
        /// The lowest sample.
        public var low: Float
        /// The highest sample.
        public var high: Float
    }

    /// The most buckets kept; even, at least 2.
    public let maxBuckets: Int
    private(set) var framesPerBucket = 1
    private(set) var buckets: [Bucket] = []
    private(set) var frames = 0
    /// Samples gathered into the bucket not yet complete.
    private var filling = 0

    /// `maxBuckets` must be even and at least 2, so that merging halves the list exactly.
    /// - Parameter maxBuckets: the most buckets kept.
    public init(maxBuckets: Int = 4096) {
        precondition(maxBuckets >= 2 && maxBuckets % 2 == 0)
        self.maxBuckets = maxBuckets
        buckets.reserveCapacity(maxBuckets + 1)
    }

    /// Adds the next mono samples to the outline.
    /// - Parameter samples: the next samples, in order.
    public mutating func add(_ samples: UnsafeBufferPointer<Float>) {
        for sample in samples {
            if filling == 0 {
                if buckets.count == maxBuckets { mergePairs() }
                buckets.append(Bucket(low: sample, high: sample))
            } else {
                let last = buckets.count - 1
                buckets[last].low = min(buckets[last].low, sample)
                buckets[last].high = max(buckets[last].high, sample)
            }
            filling += 1
            if filling == framesPerBucket { filling = 0 }
        }
        frames += samples.count
    }

    /// The outline resampled to `count` equal columns over the whole duration (each the
    /// min/max of the buckets it covers, or of the one bucket under it when columns are
    /// finer than buckets), so a plot draws one point per pixel whatever the file's length.
    /// - Parameter count: the columns wanted, e.g. the plot's width in pixels.
    /// - Returns: `count` buckets, or none when `count` ≤ 0 or nothing was added.
    public func columns(_ count: Int) -> [Bucket] {
        guard count > 0, !buckets.isEmpty else { return [] }
        return (0..<count).map { column in
            let first = min(column * frames / count / framesPerBucket, buckets.count - 1)
            let end = min(max((column + 1) * frames / count / framesPerBucket, first + 1), buckets.count)
            return buckets[first..<end].dropFirst().reduce(buckets[first]) {
                Bucket(low: min($0.low, $1.low), high: max($0.high, $1.high))
            }
        }
    }

    /// The largest magnitude seen, 0 for silence.
    public var peak: Float {
        buckets.reduce(0) { max($0, abs($1.low), abs($1.high)) }
    }

    /// Halves the bucket count by merging neighbours; only called on complete buckets.
    private mutating func mergePairs() {
        buckets = stride(from: 0, to: buckets.count, by: 2).map { i in
            Bucket(low: min(buckets[i].low, buckets[i + 1].low), high: max(buckets[i].high, buckets[i + 1].high))
        }
        framesPerBucket *= 2
    }
}
