import ArgumentParser
import Tactus
import TactusCore
import TactusFiles
import TactusPreview
import TactusPlatform

struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Hear and see haptics without an iPhone: a sonification, a plot and a page.",
        discussion: """
        For each input writes, into the output folder:
          <stem>.haptics.wav       the haptics as sound: a tick per transient (louder = more
                                   intense, higher and crisper = sharper) and a hum for
                                   continuous haptics (swells with intensity, rises with sharpness)
          <stem>.side-by-side.wav  the original sound left, the haptics right, time-aligned
          <stem>.svg               waveform, intensity, sharpness, transients, preset
          <stem>.html              the plot with players and a moving playhead (works offline)
        An audio input is converted first (with --preset/--set, as in tactus convert), so its
        <stem>.ahap and paired audio are written too.
        A haptic file (from any tool) is read by its format into what it plays, with no translation in between: \(HapticFormats.readingSummaries). A file without its own sound is heard as its track's sonification, like every format's.
        With a sound, the page lists the harmony check's findings (as validate --audio prints
        them) beside the validator's. Inputs are never modified.

        Examples:
          tactus preview boom.wav -o out/        # then open out/boom.html
          tactus preview out/boom.ahap
          tactus preview Explosion.haptic -o out/
          tactus preview sfx/*.ogg -o out/ --preset impacts
        """)

    @OptionGroup var options: PerFileOptions

    func run() throws {
        let log = CommittedFiles()
        let (converter, files) = try options.prepare(log: log)
        try files.forEach(flushing: log) { url in
            let directory = files.directory(for: url)
            let file = HapticFormats.reader(for: url) != nil ? url
                : try converter.convert(url, to: directory, stem: files.stems[url], protectedPaths: files.protectedPaths).outputs[0].url
            // The file's format reads it: a converted sound's AHAP has a reader too.
            let summary = try PreviewRenderer.render(file: file, format: HapticFormats.reader(for: file)!, into: directory,
                                                     stem: files.stems[url], protectedPaths: files.protectedPaths,
                                                     soundCheck: HarmonyCheck.check, log: log)
            if !options.quiet { print(Self.line(for: url, summary)) }
        }
    }

    private static func line(for input: URL, _ summary: PreviewSummary) -> String {
        let findings = summary.warnings.isEmpty ? "" : ", \(counted(summary.warnings.count, "finding")): see the page"
        return "\(input.path) → \(summary.page.path)  (\(counted(summary.transientCount, "transient")), "
            + String(printf: "%.2f", summary.continuousSeconds) + " s continuous, "
            + "\(counted(summary.curvePointCount, "curve point")), preset \(summary.presetName ?? "unknown")\(findings))"
    }
}
