import TactusCore
import TactusAudio
import TactusPlatform

/// The sound a haptic file plays with (`ImportedHaptics.pairedAudio`: AHAP's `AudioCustom`
/// at 0 s), opened, found relative to the file as Core Haptics finds it.
struct PairedAudio {
    let reader: AudioFileReader

    /// Where the sound `paired` names is, relative to the haptic `file` (or absolute); nil
    /// when it names none.
    static func location(of paired: TactusCore.PairedAudio?, besides file: URL) -> URL? {
        guard let path = paired?.fileName, !path.isEmpty else { return nil }
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path)
            : file.deletingLastPathComponent().appendingPathComponent(path)
        return url.standardizedFileURL
    }
}

/// Mono frames of the paired sound, mixed down block by block (never the whole file in
/// memory).
final class PatternTimeSound {
    private let blocks: MonoBlockReader<Float>

    init(_ audio: PairedAudio, blockFrames: Int) {
        blocks = MonoBlockReader(audio.reader, blockFrames: blockFrames)
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
