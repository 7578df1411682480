import ArgumentParser
import Tactus
import TactusAHAP
import TactusCommandLine
import TactusCore
import TactusFiles
import TactusPlatform

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check haptic files (" + HapticFormats.endings(of: HapticFormats.readable) + ") against their players' rules.",
        discussion: """
        Reports one line per problem with its location. Errors break playback or play something other than what was meant (Core Haptics clamps bad values and ignores unknown keys silently); warnings are suspicious but legal.
        The format follows the file's extension: \(HapticFormats.readable.map { ".\($0.fileExtension) files against \($0.rulesSummary)" }.joined(separator: "; ")); any other file as AHAP.
        With --audio, the harmony check (the same as convert --check-harmony and the previews) prints its findings as warnings.

        Examples:
          tactus validate out/boom.ahap
          tactus validate out/*.ahap --quiet
          tactus validate out/boom.ahap --audio boom.wav
          tactus validate Explosion.haptic
          tactus validate out/boom.android.json
          tactus validate out/boom.pcm.wav out/boom.dualsense.wav
        """)

    @Argument(help: ArgumentHelp("Haptic files to check (" + HapticFormats.endings(of: HapticFormats.readable) + ")."))
    var files: [String]

    @Flag(name: .shortAndLong, help: "Print only problems, not the per-file summary.")
    var quiet = false

    @Option(help: ArgumentHelp(
        "Also check harmony with this audio: haptics longer than the sound, haptics that start before it, continuous haptics under silence, transients with no audible attack.",
        valueName: "file"))
    var audio: String?

    func run() throws {
        var failed = false
        for path in files {
            let url = URL(fileURLWithPath: path)
            let data: Data
            do { data = try InputFile.contents(of: url, maxBytes: AHAPLimits.maxFileBytes) } catch {
                let cause = error as? FileError
                report(FileError(file: path, reason: cause?.reason ?? "\(error)", hint: cause?.hint))
                failed = true
                continue
            }
            guard let format = HapticFormats.reader(for: url) ?? Self.readableAsAHAP(url) else {
                report(FileError(file: path, reason: "is a file Tactus writes but does not read back",
                                 hint: "validate the AHAP converted from the same sound"))
                failed = true
                continue
            }
            var diagnostics = format.validate(data, baseDirectory: url.deletingLastPathComponent())
            // A file its validator finds no error in reads.
            if let audio, !diagnostics.contains(where: { $0.severity == .error }), let track = try? format.read(data).track {
                do {
                    diagnostics += try HarmonyCheck.check(track, soundAt: URL(fileURLWithPath: audio))
                } catch {
                    report(FileError(file: audio, reason: "\(error)"))
                    failed = true
                }
            }
            for d in diagnostics { print("\(path): \(d)") }
            let errors = diagnostics.filter { $0.severity == .error }.count
            if errors > 0 { failed = true }
            if !quiet {
                print("\(path): \(counted(errors, "error")), \(counted(diagnostics.count - errors, "warning"))")
            }
        }
        if failed { throw ExitCode(1) }
    }

    /// AHAP for a file no readable format's extension names, unless a write-only format's does.
    private static func readableAsAHAP(_ url: URL) -> AHAPFormat? {
        let name = url.lastPathComponent.lowercased()
        return HapticFormats.all.contains { name.hasSuffix("." + $0.fileExtension.lowercased()) } ? nil : AHAPFormat()
    }
}
