import TactusCore
import TactusAudio
import TactusPlatform

/// The single streaming pass over the sound: it writes the sonified haptics, the
/// side-by-side mix (sound left, haptics right, sample-aligned) and gathers the waveform
/// outline, reading the original once and block by block.
struct AudioPass {
    /// Frames per block: big enough to amortise calls, small enough to stay in cache.
    static let blockFrames = 4096

    struct Result {
        /// Frames written to each file (the longer of the sound and the haptics).
        var frames: Int
        var waveform: WaveformEnvelope?
    }

    let sonifier: HapticSonifier
    /// Frames the haptics need, last tick's ring included.
    let hapticFrames: Int

    /// Writes `haptics` (mono) and, when there is a sound, `sideBySide` (stereo).
    func run(sound: PatternTimeSound?, haptics: URL, sideBySide: URL?) throws -> Result {
        let rate = Int(sonifier.sampleRate)
        let hapticWriter = try WAVWriter(url: haptics, sampleRate: rate, channels: 1, format: .pcm16)
        let mixWriter = try sideBySide.map { try WAVWriter(url: $0, sampleRate: rate, channels: 2, format: .pcm16) }
        var waveform = sound.map { _ in WaveformEnvelope() }
        var original = [Float](repeating: 0, count: Self.blockFrames)
        var sonified = [Float](repeating: 0, count: Self.blockFrames)
        var stereo = [Float](repeating: 0, count: Self.blockFrames * 2)
        var frames = 0
        while true {
            let heard = try original.withUnsafeMutableBufferPointer { try sound?.read(into: $0) ?? 0 }
            let count = max(heard, min(Self.blockFrames, hapticFrames - frames))
            if count <= 0 { break }
            for i in heard..<count { original[i] = 0 }
            sonified.withUnsafeMutableBufferPointer { sonifier.render(into: UnsafeMutableBufferPointer(rebasing: $0[0..<count])) }
            try sonified.withUnsafeBufferPointer { try hapticWriter.write(UnsafeBufferPointer(rebasing: $0[0..<count])) }
            if let mixWriter {
                for i in 0..<count {
                    stereo[2 * i] = original[i]
                    stereo[2 * i + 1] = sonified[i]
                }
                try stereo.withUnsafeBufferPointer { try mixWriter.write(UnsafeBufferPointer(rebasing: $0[0..<(2 * count)])) }
            }
            original.withUnsafeBufferPointer { waveform?.add(UnsafeBufferPointer(rebasing: $0[0..<count])) }
            frames += count
        }
        try hapticWriter.close()
        try mixWriter?.close()
        return Result(frames: frames, waveform: waveform)
    }
}
