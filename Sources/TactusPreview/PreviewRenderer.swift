import TactusAudio
import TactusCore
import TactusFiles
import TactusPlatform

/// Makes the preview of one haptic file of any readable format: the haptics as sound, the
/// sound and haptics side by side, a plot and a page that plays them with a moving playhead.
///
/// The file may come from any tool. It is read by its format into the format-free track and
/// everything shown and heard is what that track plays (`HapticPlayback`); the sound it
/// pairs with (AHAP's `AudioCustom`) is found relative to it, as Core Haptics finds it.
/// Nothing is written under a final name until every output is complete, inputs are never
/// replaced, and the same file always gives the same bytes.
public enum PreviewRenderer {
    /// A check of what a pattern plays against the sound file it plays with, returning its
    /// findings (`HarmonyCheck.check(_:soundAt:)` in the `Tactus` library, which this module
    /// does not depend on: the caller joins them).
    public typealias SoundCheck = @Sendable (HapticTrack, URL) throws -> [FormatDiagnostic]

    /// Longest pattern or sound previewed, in seconds; beyond it the WAVs would run to
    /// gigabytes and a corrupt `Time` could make a preview run for hours.
    public static let maxDuration = 3600.0
    /// Sample rate of the sonification when the pattern has no sound to align with.
    public static let defaultSampleRate = 48_000.0
    /// Shortest preview, so an empty pattern still gives a playable file.
    public static let minimumDuration = 0.1

    /// Writes `<stem>.haptics.wav`, `<stem>.side-by-side.wav` (when there is a sound),
    /// `<stem>.svg` and `<stem>.html` into `directory`.
    ///
    /// - Parameters:
    ///   - file: the haptic file previewed.
    ///   - format: the readable format `file` is in (`HapticFormats.reader(for:)` finds it).
    ///   - directory: the folder the outputs are written into.
    ///   - stem: base name of the outputs (default: the file's name without its last extension).
    ///   - protectedPaths: files that must never be replaced (the file and its sound always are).
    ///   - log: where the committed outputs are recorded, to be synced by the caller.
    ///   - soundCheck: checks what the file plays against its sound; its findings join the page's.
    /// - Returns: what the preview shows, for the gallery and the batch report.
    /// - Throws: `FileError` naming the file or its sound: unreadable in its format, longer
    ///   than `maxDuration`, or an output that cannot be written.
    public static func render(file: URL, format: any HapticReadableFormat, into directory: URL,
                              stem: String? = nil, protectedPaths: Set<String> = [], soundCheck: SoundCheck? = nil,
                              log: CommittedFiles) throws -> PreviewSummary {
        let (opened, audio, outputs, warnings) = try open(file, format, into: directory, stem: stem, soundCheck: soundCheck)
        let playback = opened.playback
        try refuseOverlongPreview(playback, audio, file: file.path)
        try outputs.prepare(protecting: protectedPaths.union([file, audio?.url].compactMap { $0?.standardizedFileURL.path }))
        defer { outputs.staged.forEach { $0.discard() } }

        let sampleRate = audio?.format.sampleRate ?? defaultSampleRate
        let seconds = hapticSeconds(playback)
        let pass = AudioPass(sonifier: HapticSonifier(playback: playback, sampleRate: sampleRate),
                             hapticFrames: Int((seconds * sampleRate).rounded(.up)))
        let written: AudioPass.Result
        do {
            written = try pass.run(sound: audio.map { PatternTimeSound($0, blockFrames: AudioPass.blockFrames) },
                                   haptics: outputs.haptics.temporary, sideBySide: outputs.sideBySide?.temporary)
        } catch let error as AudioError {
            let failed = error.kind == .writeFailed ? directory : audio?.url
            throw FileError(file: (failed ?? file).path, reason: error.reason, hint: error.hint)
        }

        let (summary, timeline) = makeSummary(file: file, opened: opened, audio: audio,
                                              outputs: outputs, duration: Double(written.frames) / sampleRate,
                                              warnings: warnings)
        let svg = PreviewPlot(content: .init(title: file.lastPathComponent, presetName: summary.presetName,
                                             timeline: timeline, waveform: written.waveform)).svg()
        try outputs.plot.write(svg)
        try outputs.page.write(PreviewPage(summary: summary, svg: svg).html())
        // The page last: a page on disk never names a sound or plot that is not there.
        for file in outputs.staged { try file.commit(recordingIn: log) }
        return summary
    }

    /// What `render` reports for a preview already on disk, without writing or rendering
    /// anything: an incremental batch's gallery lists the files that were up to date too.
    /// - Parameters:
    ///   - file: the haptic file previewed.
    ///   - format: the readable format `file` is in.
    ///   - directory: the folder the preview was written into.
    ///   - stem: base name of the outputs (default: the file's name without its last extension).
    ///   - soundCheck: checks what the file plays against its sound, as `render` did.
    /// - Returns: the summary `render` returned for the same file.
    /// - Throws: `FileError` naming the file or its sound when either cannot be read.
    public static func summary(file: URL, format: any HapticReadableFormat, in directory: URL,
                               stem: String? = nil, soundCheck: SoundCheck? = nil) throws -> PreviewSummary {
        let (opened, audio, outputs, warnings) = try open(file, format, into: directory, stem: stem, soundCheck: soundCheck)
        let sampleRate = audio?.format.sampleRate ?? defaultSampleRate
        let hapticFrames = (hapticSeconds(opened.playback) * sampleRate)
            .rounded(.up)
        let soundFrames = audio.map { ($0.format.duration * sampleRate).rounded(.up) } ?? 0
        return makeSummary(file: file, opened: opened, audio: audio, outputs: outputs,
                           duration: max(hapticFrames, soundFrames) / sampleRate, warnings: warnings).0
    }

    /// The preview's plot of what `track` plays, without a sound: the SVG a page shows.
    /// - Parameters:
    ///   - track: what a haptic file plays (from its format's reader).
    ///   - title: the plot's title, written as text (never as markup).
    /// - Returns: the SVG document.
    /// - Throws: `FileError` naming `title` when the track runs past `maxDuration`.
    public static func plot(of track: HapticTrack, title: String) throws -> String {
        let playback = HapticPlayback(track)
        try refuseOverlongPreview(playback, nil, file: title)
        let timeline = HapticTimeline(playback: playback, duration: hapticSeconds(playback), columns: PreviewPlot.Layout.columns)
        return PreviewPlot(content: .init(title: title, presetName: nil, timeline: timeline, waveform: nil)).svg()
    }

    /// A file read for its preview: what it plays and what its metadata names.
    private struct Opened {
        var imported: ImportedHaptics
        var playback: HapticPlayback
        /// The last `Preset` entry of its metadata (Tactus's provenance), if any.
        var presetName: String? { imported.metadata.last { $0.key == "Preset" }?.value }
    }

    private static func makeSummary(file: URL, opened: Opened, audio: AudioFileReader?,
                                    outputs: Outputs, duration: Double, warnings: [String]) -> (PreviewSummary, HapticTimeline) {
        let playback = opened.playback
        let timeline = HapticTimeline(playback: playback, duration: duration, columns: PreviewPlot.Layout.columns)
        let summary = PreviewSummary(
            file: file, stem: outputs.stem, page: outputs.page.destination, plot: outputs.plot.destination,
            hapticsAudio: outputs.haptics.destination, sideBySideAudio: outputs.sideBySide?.destination,
            originalAudio: audio?.url, presetName: opened.presetName,
            duration: duration, length: audio?.format.duration ?? playback.endTime,
            transientCount: playback.transients.count,
            continuousSeconds: timeline.continuousSeconds, curvePointCount: playback.curvePointCount,
            warnings: warnings)
        return (summary, timeline)
    }

    /// The file read, validated and checked against its sound, its sound opened, and where its
    /// preview goes.
    private static func open(_ file: URL, _ format: any HapticReadableFormat, into directory: URL, stem: String?,
                             soundCheck: SoundCheck?) throws -> (Opened, AudioFileReader?, Outputs, [String]) {
        let (data, imported) = try format.contents(of: file)
        let diagnostics = format.validate(data, baseDirectory: file.deletingLastPathComponent())
        // The reader's notes on what the track could not hold, unless validation said it already.
        var warnings = (diagnostics + imported.warnings.filter { !diagnostics.contains($0) }).map(\.description)
        let audio = openAudio(imported.pairedAudio, besides: file, warnings: &warnings)
        if let audio, let soundCheck {
            warnings += check(imported.track, with: audio, soundCheck)
        }
        let outputs = Outputs(directory: directory, stem: stem ?? OutputNaming.stem(of: file),
                              withSideBySide: audio != nil)
        return (Opened(imported: imported, playback: HapticPlayback(imported.track)), audio, outputs, warnings)
    }

    /// The sound check's findings for what `track` plays, one line each.
    private static func check(_ track: HapticTrack, with audio: AudioFileReader, _ soundCheck: SoundCheck) -> [String] {
        do {
            return try soundCheck(track, audio.url).map(\.description)
        } catch {
            return ["sound \(audio.url.lastPathComponent): harmony not checked: \(error)"]
        }
    }

    /// How long a preview of `playback` plays, seconds: to its last tick's end, at least `minimumDuration`.
    private static func hapticSeconds(_ playback: HapticPlayback) -> Double {
        max(playback.endTime + HapticSonifier.longestTick, minimumDuration)
    }

    private static func refuseOverlongPreview(_ playback: HapticPlayback, _ audio: AudioFileReader?, file: String) throws {
        let limit = "previews cover at most \(Markup.seconds(maxDuration))"
        guard playback.endTime.isFinite, playback.endTime <= maxDuration else {
            throw FileError(file: file, reason: "its haptics run past \(Markup.seconds(maxDuration))",
                               hint: limit + "; check its times")
        }
        if let audio, audio.format.duration > maxDuration {
            throw FileError(file: audio.url.path, reason: "the sound runs to "
                               + Markup.seconds(audio.format.duration), hint: limit)
        }
    }

    /// The file's sound, opened; nil (with a note) when it has none or it cannot be read.
    private static func openAudio(_ paired: PairedAudio?, besides file: URL, warnings: inout [String]) -> AudioFileReader? {
        guard let url = paired?.location(besides: file) else { return nil }
        do {
            return try AudioFileReader(url: url)
        } catch let error as AudioError {
            // A missing file is already named by the validator (AHAP's audioFileNotFound).
            if error.kind != .notFound {
                warnings.append("sound \(url.lastPathComponent) \(error.reason); previewing the haptics only")
            }
        } catch {
            warnings.append("sound \(url.lastPathComponent): \(error); previewing the haptics only")
        }
        return nil
    }
}

/// The files one preview writes, staged under temporary names until all are complete.
private struct Outputs {
    let stem: String
    let directory: URL
    let haptics: StagedFile
    let sideBySide: StagedFile?
    let plot: StagedFile
    let page: StagedFile

    init(directory: URL, stem: String, withSideBySide: Bool) {
        self.stem = stem
        self.directory = directory
        func file(_ suffix: String) -> StagedFile { StagedFile(directory.appendingPathComponent(stem + suffix)) }
        haptics = file(".haptics.wav")
        sideBySide = withSideBySide ? file(".side-by-side.wav") : nil
        plot = file(".svg")
        page = file(".html")
    }

    /// In commit order, the page last.
    var staged: [StagedFile] { [haptics, sideBySide, plot, page].compactMap { $0 } }

    func prepare(protecting protected: Set<String>) throws {
        try OutputFolder.prepare(directory)
        for file in staged where protected.contains(file.destination.standardizedFileURL.path) {
            throw FileError(file: file.destination.path, reason: "would overwrite an input",
                               hint: "choose another output folder with -o")
        }
    }
}
