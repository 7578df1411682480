import Foundation
import Tactus
import TactusAnalysis
import TactusAudio
import TactusCore
import TactusFiles
import TactusLive
import TactusMapping
import TactusPresets
import TactusSpectrum
import TactusTestSupport

/// Real sounds of the bundled corpus, decoded, and what live and offline make of them.
enum LiveFixtures {
    struct Sound {
        let rate: Double
        let channels: Int
        /// Interleaved samples.
        let samples: [Float]
        let url: URL
    }

    static func sound(_ path: String) throws -> Sound {
        let url = Corpus.root.appendingPathComponent(path)
        let reader = try AudioFileReader(url: url)
        var samples: [Float] = []
        var buffer = [Float](repeating: 0, count: 4096 * reader.format.channels)
        while true {
            let frames = try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
            if frames == 0 { break }
            samples += buffer[0..<(frames * reader.format.channels)]
        }
        return Sound(rate: reader.format.sampleRate, channels: reader.format.channels, samples: samples, url: url)
    }

    static func preset(_ name: String = "default", overrides: [String] = []) throws -> ResolvedPreset {
        try PresetLibrary.standard().resolve(name, overrides: overrides)
    }

    /// Every event, pushing interleaved blocks of `block` frames (the whole sound when nil).
    static func events(_ sound: Sound, preset: ResolvedPreset, block: Int? = nil) throws -> [LiveEvent] {
        let live = try LiveHaptics(preset: preset, sampleRate: sound.rate, channels: sound.channels)
        var events: [LiveEvent] = []
        let step = (block ?? sound.samples.count) * sound.channels
        sound.samples.withUnsafeBufferPointer { all in
            var start = 0
            while start < all.count {
                let end = min(all.count, start + step)
                live.push(interleaved: UnsafeBufferPointer(rebasing: all[start..<end])) { events.append($0) }
                start = end
            }
        }
        live.finish { events.append($0) }
        return events
    }

    /// What `tactus convert` plays for the sound (`Converter.analyze`, on FFTW).
    static func offlineTrack(_ sound: Sound, preset: ResolvedPreset) throws -> HapticTrack {
        try Converter(preset: preset, log: CommittedFiles()).analyze(sound.url).2
    }
}
