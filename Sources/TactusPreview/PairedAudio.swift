import TactusCore
import TactusAHAP
import TactusAudio

/// The sound a pattern plays with: the first `AudioCustom` event's file, found relative to
/// the AHAP file as Core Haptics finds it, and when in the pattern it starts.
struct PairedAudio {
    let reader: AudioFileReader
    /// The event's `Time`: the sound starts this many seconds into the pattern.
    let offset: Double

    /// What the document names, before anything is opened.
    struct Reference {
        let url: URL
        let offset: Double
    }

    /// The first `AudioCustom` event with a waveform path (another tool's pattern may hold
    /// several; a preview plays the first, which is the one Tactus writes).
    static func reference(in document: AHAPDocument, besideAHAP ahap: URL) -> Reference? {
        for case .event(let event) in document.pattern where event.type == .audioCustom {
            guard let path = event.waveformPath, !path.isEmpty else { continue }
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path)
                : ahap.deletingLastPathComponent().appendingPathComponent(path)
            return Reference(url: url.standardizedFileURL, offset: max(0, event.time.isFinite ? event.time : 0))
        }
        return nil
    }
}

/// Mono frames of the paired sound in pattern time: silence until the sound's offset,
/// then the sound mixed down block by block (never the whole file in memory).
final class PatternTimeSound {
    private var leadingSilence: Int
    private let blocks: MonoBlockReader<Float>

    init(_ audio: PairedAudio, blockFrames: Int) {
        leadingSilence = Int((audio.offset * audio.reader.format.sampleRate).rounded())
        blocks = MonoBlockReader(audio.reader, blockFrames: blockFrames)
    }

    /// Fills as much of `mono` as the sound still covers; returns the frames filled (0 at the end).
    func read(into mono: UnsafeMutableBufferPointer<Float>) throws -> Int {
        var filled = 0
        while filled < mono.count {
            if leadingSilence > 0 {
                let count = min(leadingSilence, mono.count - filled)
                for i in filled..<(filled + count) { mono[i] = 0 }
                leadingSilence -= count
                filled += count
                continue
            }
            let got = try blocks.read(into: UnsafeMutableBufferPointer(rebasing: mono[filled...]))
            if got == 0 { break }
            filled += got
        }
        return filled
    }
}
