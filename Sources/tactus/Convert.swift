import ArgumentParser
import Foundation
import Tactus
import TactusCore

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert audio files into harmonized AHAP files.",
        discussion: """
        For each input, writes one file per --format (default: <stem>.ahap) and the audio the haptics play with:
        a WAV, AIFF or CAF source is copied unchanged; any other format (FLAC, OGG, Opus, MP3, …) is decoded into <stem>.wav with the same rate, channels and frames, so the sound on the device is exactly the sound that was analysed. Without -o, outputs go beside each input; inputs are never modified or replaced. Inputs that share a name in one output folder (hit.wav, hit.ogg) keep their whole file name as the stem: hit.wav.ahap, hit.ogg.ahap + hit.ogg.wav.

        Examples:
          tactus convert boom.wav -o out/
          tactus convert sfx/*.ogg -o out/ --preset impacts
          tactus convert hit.flac --set mapping.intensity.gamma=0.7
        """)

    @OptionGroup var options: PerFileOptions
    @OptionGroup var formatOptions: FormatOptions

    func run() throws {
        let log = CommittedFiles()
        let (converter, files) = try options.prepare(formats: try formatOptions.resolve(), log: log)
        try files.forEach(flushing: log) { url in
            let result = try converter.convert(url, to: files.outputDirectory, stem: files.stems[url],
                                               protectedPaths: files.protectedPaths)
            if !options.quiet {
                let t = result.track
                print("\(url.path) → \(result.outputs.map(\.url.path).joined(separator: ", "))  (\(t.transients.count) transients, "
                      + "\(t.regions.count) continuous regions, \(String(format: "%.2f", t.duration)) s)")
            }
        }
    }
}
