import ArgumentParser
import TactusCommandLine
import TactusCore
import TactusPresets
import TactusTune
import TactusPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `tactus-tune`, the executable `tactus tune` runs (with the same arguments): the only one that
/// links the local server (Hummingbird on SwiftNIO), so `tactus` itself, the build plugin and
/// the apps that build it do not. Its help and usage read `tactus tune`, as users call it.
@main
struct TuneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        _superCommandName: "tactus",
        abstract: TuneSummary.abstract,
        discussion: """
        Finds the sounds as batch does (files, or folders walked recursively), analyses each once, and serves a page on 127.0.0.1 only. Its URL, with the run's random token, is the first line of standard output; open it in a browser (--open does). Serves until Ctrl-C or SIGTERM, then exits 0 and removes the sounds dropped on the page.

        The page shows each sound's waveform with its transients (height = intensity, labelled intensity/sharpness) and continuous intensity and sharpness curves, plays the original, the haptics as sound and both mixed, and lists the files it skipped with their reason. The Feel knobs come first (at most 12, the feel.* ones among them, in plain words); every other preset parameter is under Advanced. Start from any preset; reset one knob, a section or everything. A knob re-maps from the cached analysis; the analysis sections (stft, onset, peaks, attack, centroid) analyse again. A value that is refused is said beside its knob and the last valid settings stay in force. Pin the settings as A and tune B to compare. Audition draws and plays what a target format (AHAP, .haptic, Android, rumble, PCM) plays, read back from the bytes it would write, with its warnings.

        The settings in force are shown as --set lines and as a preset file. "Save as new preset" writes NAME.json into --presets-dir (extending the starting preset, holding only what differs); the page can also write a folder's tactus.json, or save over the starting preset when it is a user's file (never a shipped one). "Export" converts the current sound with those settings into --output, exactly as `tactus convert --preset NAME` will; its files record the saved preset's name (once saved on the search path, as ./Presets is) or else the starting preset and the differences as overrides, so `tactus convert --preset-from` on any of them makes it again.

        Examples:
          tactus tune Sounds/
          tactus tune boom.wav clicks/ --preset impacts --open
          tactus tune Sounds/ --set mapping.intensity.gamma=0.8 --port 8321
        """,
        version: "tactus \(TactusCLIVersion.text)")

    static func main() {
        prepareProcess()
        main(nil)
    }

    @Argument(help: "Sound files, or folders walked recursively.")
    var inputs: [String]

    /// The starting preset (`--preset`, `--set`, or `--preset-from`).
    @OptionGroup var presetOptions: PresetOptions

    @Option(help: "Port on 127.0.0.1; 0 picks a free one.")
    var port: Int = 0

    @Option(name: .shortAndLong, help: ArgumentHelp("Where Export writes (created when first used).", valueName: "dir"))
    var output: String = "tune-export"

    @Option(name: .customLong("presets-dir"), help: ArgumentHelp("Where \"Save as new preset\" writes NAME.json (created when first used). The default, ./Presets, is on the preset search path, so --preset NAME finds the saved preset from this folder.",
                                                                 valueName: "dir"))
    var presetsDirectory: String = PresetLibrary.userFolderName

    @Option(help: "Sounds opened and analysed at once at start (default: the number of cores).")
    var jobs: Int?

    @Flag(help: "Open the page in the default browser.")
    var open = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        // A bad --preset, --set or --preset-from is a usage error before any work (as in batch).
        let start = try presetOptions.resolve()
        let fromAHAP = presetOptions.presetFrom != nil
        let base: TuneBase
        do {
            base = try TuneBase(reference: fromAHAP ? start.name : presetOptions.preset,
                                overrides: fromAHAP ? start.overrides : presetOptions.overrides, library: PresetLibrary.standard())
        } catch {
            report(error)
            throw ExitCode(64)
        }
        let jobs = self.jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let (found, problems) = FoundSound.find(inputs, jobs: jobs)
        problems.forEach(report)
        let (session, failures) = try TuneSession.open(
            found, skipped: problems, base: base, library: PresetLibrary.standard(),
            exportFolder: URL(fileURLWithPath: output, isDirectory: true),
            presetFolder: URL(fileURLWithPath: presetsDirectory, isDirectory: true), jobs: jobs)
        defer { session.close() }
        failures.forEach(report)
        guard session.soundCount > 0 else {
            report("\(inputs.joined(separator: " ")): no sound to tune (give sound files or folders that hold some)")
            throw ExitCode(1)
        }
        let opening = open
        let failure = TuneServer(session: session, port: port).runBlocking { url in
            print(url)
            fflush(stdout)
            if opening { openInBrowser(url) }
        }
        if let failure {
            report("127.0.0.1:\(port): cannot serve (\(failure))")
            throw ExitCode(1)
        }
    }
}

/// Hands `url` to the desktop's opener (`xdg-open`, `open` on macOS); a failure is reported, not fatal.
private func openInBrowser(_ url: String) {
    #if os(macOS)
    let opener = "open"
    #else
    let opener = "xdg-open"
    #endif
    var pid = pid_t()
    let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(opener), strdup(url), nil]
    defer { arguments.forEach { free($0) } }
    if posix_spawnp(&pid, opener, nil, nil, arguments, environ) != 0 {
        report("\(opener): cannot open the page; open the URL above yourself")
    }
}
