import TactusCore
import ArgumentParser
import TactusCommandLine

@main
struct TactusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tactus",
        abstract: "Turn sound effects into haptics that feel the way they sound.",
        discussion: """
        Tactus analyses audio (onsets, loudness, brightness) and writes a harmonized AHAP: Core Haptics transients at the attacks, continuous intensity and sharpness that follow the sound, and an AudioCustom event that plays the original audio in sync.

        Examples:
          tactus convert boom.wav -o out/            # out/boom.ahap + out/boom.wav
          tactus convert sfx/*.ogg -o out/ --preset default
          tactus validate out/boom.ahap
          tactus analyze boom.wav --format csv
          tactus batch sfx/ -o out/ --preview         # a whole folder, with a gallery
          tactus preview boom.wav -o preview/         # hear and see the haptics
          tactus tune sfx/                            # tune a preset by feel, live in the browser

        Exit codes: 0 success, 1 some inputs failed, 64 usage error.
        """,
        version: "tactus \(TactusCLIVersion.text)",
        subcommands: [Convert.self, Batch.self, Preview.self, Tune.self, Validate.self, Compare.self, Playback.self, Analyze.self, Evaluate.self, Presets.self, Live.self])

    static func main() {
        prepareProcess()
        main(nil)
    }
}
