import ArgumentParser
import Tactus
import TactusCommandLine
import TactusCore
import TactusFiles

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert audio files into harmonized haptics (" + HapticFormats.all.map { $0.id }.joined(separator: ", ") + "), or translate haptic files between formats.",
        discussion: """
        For each input, writes one file per --format (default: the preset's output.formats, else <stem>.ahap) and the audio the haptics play with:
        a WAV, AIFF or CAF source is copied unchanged; any other format (FLAC, OGG, Opus, MP3, …) is decoded into <stem>.wav with the same rate, channels and frames, so the sound on the device is exactly the sound that was analysed. Without -o, outputs go beside each input; inputs are never modified or replaced. Inputs that share a name in one output folder (hit.wav, hit.ogg) keep their whole file name as the stem: hit.wav.ahap, hit.ogg.ahap + hit.ogg.wav.

        An input that is already a haptic file from any tool (\(HapticFormats.endings(of: HapticFormats.readable)), read as it plays, as compare reads it) is translated: what it plays is written in every --format, with its paired sound referenced or copied beside the outputs; anything the target format cannot hold, or a file that plays nothing, is reported as `<input>: warning: …`.

        Examples:
          tactus convert boom.wav -o out/
          tactus convert boom.wav -o out/ --format ahap,haptic,android
          tactus convert Explosion.haptic -o out/ --format ahap
          tactus convert old.ahap -o out/ --format haptic,android
          tactus convert sfx/*.ogg -o out/ --preset impacts
          tactus convert hit.flac --set mapping.intensity.gamma=0.7
        """)

    @OptionGroup var options: PerFileOptions
    @OptionGroup var formatOptions: FormatOptions

    @Flag(name: .customLong("check-harmony"), help: ArgumentHelp(
        "After writing, check the haptics of each audio input against its sound (as validate --audio does) and print every finding as `<input>: warning: <message>` (the form build tools show as warnings)."))
    var checkHarmony = false

    func run() throws {
        let log = CommittedFiles()
        let (converter, files) = try options.prepare(formats: formatOptions, log: log)
        try files.forEach(flushing: log) { url in
            let result = try converter.convert(url, to: files.outputDirectory, stem: files.stems[url],
                                               protectedPaths: files.protectedPaths)
            for warning in result.warnings {
                writeToStandardError("\(url.path): \(warning)\n")
            }
            if checkHarmony, result.audioFormat != nil {
                for finding in try HarmonyCheck.check(result.track, soundAt: url) {
                    writeToStandardError("\(url.path): warning: \(finding.message)\n")
                }
            }
            if !options.quiet {
                let t = result.track
                print("\(url.path) → \(result.outputs.map(\.url.path).joined(separator: ", "))  (\(counted(t.transients.count, "transient")), "
                      + "\(counted(t.regions.count, "continuous region")), \(String(printf: "%.2f", t.duration)) s)")
            }
        }
    }
}
