import TactusCore
import TactusAudio
import TactusPlatform

extension PairedAudio {
    /// Where this sound is, found relative to the haptic `file` that names it as Core Haptics
    /// finds it (an absolute name as it is); nil when the name is empty.
    func location(besides file: URL) -> URL? {
        guard !fileName.isEmpty else { return nil }
        let url = fileName.hasPrefix("/") ? URL(fileURLWithPath: fileName)
            : file.deletingLastPathComponent().appendingPathComponent(fileName)
        return url.standardizedFileURL
    }
}

/// Mono frames of the paired sound, mixed down block by block (never the whole file in
/// memory).
final class PatternTimeSound {
    private let blocks: MonoBlockReader<Float>

    init(_ audio: AudioFileReader, blockFrames: Int) {
        blocks = MonoBlockReader(audio, blockFrames: blockFrames)
    }

    /// Fills as much of `mono` as the sound still covers; returns the frames filled (0 at the end).
    func read(into mono: UnsafeMutableBufferPointer<Float>) throws -> Int {
        var filled = 0
        while filled < mono.count {
            let got = try blocks.read(into: UnsafeMutableBufferPointer(rebasing: mono[filled...]))
            if got == 0 { break }
            filled += got
        }
        return filled
    }
}
