import TactusCore

/// A sample type files are read as: 32-bit float (any file) or 16-bit integer (16-bit PCM
/// files, which libsndfile then only copies).
public protocol DecodedSample: Numeric {
    /// Reads up to `buffer.count / channels` interleaved frames; returns the frames read.
    /// - Parameters:
    ///   - reader: the open file.
    ///   - buffer: room for interleaved samples.
    /// - Returns: the frames read (0 at the end of the file).
    /// - Throws: an `AudioError` where the stream is damaged.
    static func read(_ reader: AudioFileReader, into buffer: UnsafeMutableBufferPointer<Self>) throws -> Int
    /// Mixes `frames` interleaved frames into `mono` (see `Mixdown`).
    /// - Parameters:
    ///   - interleaved: at least `frames × channels` samples.
    ///   - frames: the frames to mix.
    ///   - channels: channels per frame.
    ///   - mono: receives `frames` samples in −1…1.
    static func mix(_ interleaved: UnsafeBufferPointer<Self>, frames: Int, channels: Int,
                    into mono: UnsafeMutableBufferPointer<Float>)
}

extension Float: DecodedSample {
    /// Float samples, converted by libsndfile from any encoding.
    /// - Parameters:
    ///   - reader: the open file.
    ///   - buffer: room for interleaved samples.
    /// - Returns: the frames read (0 at the end of the file).
    /// - Throws: an `AudioError` where the stream is damaged.
    public static func read(_ reader: AudioFileReader, into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        try reader.read(into: buffer)
    }

    /// The mean of the channels (`Mixdown`).
    /// - Parameters:
    ///   - interleaved: at least `frames × channels` samples.
    ///   - frames: the frames to mix.
    ///   - channels: channels per frame.
    ///   - mono: receives `frames` samples.
    public static func mix(_ interleaved: UnsafeBufferPointer<Float>, frames: Int, channels: Int,
                           into mono: UnsafeMutableBufferPointer<Float>) {
        Mixdown.mono(interleaved, frames: frames, channels: channels, into: mono)
    }
}

extension Int16: DecodedSample {
    /// 16-bit samples as a 16-bit PCM file stores them.
    /// - Parameters:
    ///   - reader: the open file.
    ///   - buffer: room for interleaved samples.
    /// - Returns: the frames read (0 at the end of the file).
    /// - Throws: an `AudioError` where the stream is damaged.
    public static func read(_ reader: AudioFileReader, into buffer: UnsafeMutableBufferPointer<Int16>) throws -> Int {
        try reader.read(into: buffer)
    }

    /// The mean of the channels, scaled ÷ 32768 into −1…1 (`Mixdown`).
    /// - Parameters:
    ///   - interleaved: at least `frames × channels` samples.
    ///   - frames: the frames to mix.
    ///   - channels: channels per frame.
    ///   - mono: receives `frames` samples.
    public static func mix(_ interleaved: UnsafeBufferPointer<Int16>, frames: Int, channels: Int,
                           into mono: UnsafeMutableBufferPointer<Float>) {
        Mixdown.mono(interleaved, frames: frames, channels: channels, into: mono)
    }
}

/// Reads a file block by block as interleaved samples and their mono mix: the one decoding
/// loop of the conversion, the reference envelope and the preview's sound. Memory is one
/// block, whatever the file's length.
public final class MonoBlockReader<Sample: DecodedSample> {
    /// The file being read; its format gives the sample rate and channels.
    public let reader: AudioFileReader
    /// Frames per block (at most).
    public let blockFrames: Int
    private var interleaved: [Sample]
    private var mono: [Float]

    /// - Parameters:
    ///   - reader: an open file, read from its current position.
    ///   - blockFrames: frames per block; values below 1 count as 1.
    public init(_ reader: AudioFileReader, blockFrames: Int) {
        self.reader = reader
        self.blockFrames = max(1, blockFrames)
        interleaved = [Sample](repeating: 0, count: self.blockFrames * reader.format.channels)
        mono = [Float](repeating: 0, count: self.blockFrames)
    }

    /// Reads the next block and hands `body` its interleaved samples and their mono mix
    /// (valid only during the call). Returns false at the end of the file.
    /// - Parameter body: receives the block's interleaved samples and their mono mix (one sample
    ///   per frame, −1…1); an error it throws is rethrown.
    /// - Returns: true when a block was read, false at the end of the file.
    /// - Throws: an `AudioError` where the stream is damaged, or what `body` throws.
    public func next(_ body: (UnsafeBufferPointer<Sample>, UnsafeBufferPointer<Float>) throws -> Void) throws -> Bool {
        let channels = reader.format.channels
        let frames = try interleaved.withUnsafeMutableBufferPointer { try Sample.read(reader, into: $0) }
        guard frames > 0 else { return false }
        try interleaved.withUnsafeBufferPointer { block in
            let samples = UnsafeBufferPointer(rebasing: block[0..<(frames * channels)])
            try mono.withUnsafeMutableBufferPointer { mix in
                Sample.mix(samples, frames: frames, channels: channels, into: mix)
                try body(samples, UnsafeBufferPointer(rebasing: mix[0..<frames]))
            }
        }
        return true
    }

    /// Reads up to `min(output.count, blockFrames)` frames and writes their mono mix into
    /// `output`; returns the frames written (0 at the end of the file).
    /// - Parameter output: receives one mono sample per frame.
    /// - Returns: the frames written.
    /// - Throws: an `AudioError` where the stream is damaged.
    public func read(into output: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let channels = reader.format.channels
        let wanted = min(output.count, blockFrames)
        let frames = try interleaved.withUnsafeMutableBufferPointer {
            try Sample.read(reader, into: UnsafeMutableBufferPointer(rebasing: $0[0..<(wanted * channels)]))
        }
        interleaved.withUnsafeBufferPointer { block in
            Sample.mix(UnsafeBufferPointer(rebasing: block[0..<(frames * channels)]), frames: frames, channels: channels,
                       into: UnsafeMutableBufferPointer(rebasing: output[0..<frames]))
        }
        return frames
    }
}
