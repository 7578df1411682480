import TactusAHAP
import TactusAudio
import TactusCore

/// Makes the preview of one AHAP file: the haptics as sound, the sound and haptics side by
/// side, a plot and a page that plays them with a moving playhead.
///
/// The file may come from any tool; its `AudioCustom` sound is found relative to it, as
/// Core Haptics finds it. Nothing is written under a final name until every output is
/// complete, inputs are never replaced, and the same file always gives the same bytes.
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
    ///   - stem: base name of the outputs (default: the AHAP's name without extension).
    ///   - protectedPaths: files that must never be replaced (the AHAP and its sound always are).
    ///   - log: where the committed outputs are recorded, to be synced by the caller.
    ///   - format: the pattern's format: AHAP (the default) or any other readable format, whose
    ///     file is shown as the AHAP Tactus would write from it (haptics only: other formats
    ///     carry no sound).
    ///   - soundCheck: checks what the pattern plays against its sound (starting at 0 s); its
    ///     findings join the page's.
    public static func render(ahap: URL, format: any HapticReadableFormat = AHAPFormat(), into directory: URL,
                              stem: String? = nil, protectedPaths: Set<String> = [], soundCheck: SoundCheck? = nil,
                              log: CommittedFiles) throws -> PreviewSummary {
        let (document, evaluator, audio, outputs, warnings) = try open(ahap, format, into: directory, stem: stem,
                                                                       soundCheck: soundCheck)
        try refuseOverlongPreview(evaluator, audio, ahap: ahap)
        try outputs.prepare(protecting: protectedPaths.union([ahap, audio?.reader.url].compactMap { $0?.standardizedFileURL.path }))
        defer { outputs.staged.forEach { $0.discard() } }

        let sampleRate = audio?.reader.format.sampleRate ?? defaultSampleRate
        let hapticSeconds = max(evaluator.hapticEndTime + HapticSonifier.longestTick, minimumDuration)
        let pass = AudioPass(sonifier: HapticSonifier(evaluator: evaluator, sampleRate: sampleRate),
                             hapticFrames: Int((hapticSeconds * sampleRate).rounded(.up)))
        let written: AudioPass.Result
        do {
            written = try pass.run(sound: audio.map { PatternTimeSound($0, blockFrames: AudioPass.blockFrames) },
                                   haptics: outputs.haptics.temporary, sideBySide: outputs.sideBySide?.temporary)
        } catch let error as AudioError {
            let file = error.kind == .writeFailed ? directory : audio?.reader.url
            throw FileError(file: (file ?? ahap).path, reason: error.reason, hint: error.hint)
        }

        let (summary, timeline) = makeSummary(ahap: ahap, document: document, evaluator: evaluator, audio: audio,
                                              outputs: outputs, duration: Double(written.frames) / sampleRate,
                                              warnings: warnings)
        let svg = PreviewPlot(content: .init(title: ahap.lastPathComponent, presetName: summary.presetName,
                                             timeline: timeline, waveform: written.waveform)).svg()
        try outputs.plot.write(svg)
        try outputs.page.write(PreviewPage(summary: summary, svg: svg, audioOffset: audio?.offset ?? 0).html())
        // The page last: a page on disk never names a sound or plot that is not there.
        for file in outputs.staged { try file.commit(recordingIn: log) }
        return summary
    }

    /// The plot `render` draws for `document`, without its sound: an SVG of the pattern's
    /// intensity, sharpness and transients over `max(its end, minimumDuration)` seconds.
    /// - Throws: `FileError` naming `title` when the pattern runs past `maxDuration`.
    public static func plot(of document: AHAPDocument, title: String) throws -> String {
        let evaluator = PatternEvaluator(document)
        guard evaluator.hapticEndTime.isFinite, evaluator.hapticEndTime <= maxDuration else {
            throw FileError(file: title, reason: "its haptics run past \(Markup.seconds(maxDuration))")
        }
        let duration = max(evaluator.hapticEndTime + HapticSonifier.longestTick, minimumDuration)
        let timeline = HapticTimeline(evaluator: evaluator, document: document, duration: duration,
                                      columns: PreviewPlot.Layout.columns)
        return PreviewPlot(content: .init(title: title, presetName: document.metadata.last { $0.key == "Preset" }?.value,
                                          timeline: timeline, waveform: nil)).svg()
    }

    /// What `render` reports for a preview already on disk, without writing or rendering
    /// anything: an incremental batch's gallery lists the files that were up to date too.
    public static func summary(ahap: URL, format: any HapticReadableFormat = AHAPFormat(), in directory: URL,
                               stem: String? = nil, soundCheck: SoundCheck? = nil) throws -> PreviewSummary {
        let (document, evaluator, audio, outputs, warnings) = try open(ahap, format, into: directory, stem: stem,
                                                                       soundCheck: soundCheck)
        let sampleRate = audio?.reader.format.sampleRate ?? defaultSampleRate
        let hapticFrames = (max(evaluator.hapticEndTime + HapticSonifier.longestTick, minimumDuration) * sampleRate)
            .rounded(.up)
        let soundFrames = audio.map { (($0.offset + $0.reader.format.duration) * sampleRate).rounded(.up) } ?? 0
        return makeSummary(ahap: ahap, document: document, evaluator: evaluator, audio: audio, outputs: outputs,
                           duration: max(hapticFrames, soundFrames) / sampleRate, warnings: warnings).0
    }

    private static func makeSummary(ahap: URL, document: AHAPDocument, evaluator: PatternEvaluator, audio: PairedAudio?,
                                    outputs: Outputs, duration: Double, warnings: [String]) -> (PreviewSummary, HapticTimeline) {
        let timeline = HapticTimeline(evaluator: evaluator, document: document, duration: duration,
                                      columns: PreviewPlot.Layout.columns)
        let summary = PreviewSummary(
            ahap: ahap, stem: outputs.stem, page: outputs.page.destination, plot: outputs.plot.destination,
            hapticsAudio: outputs.haptics.destination, sideBySideAudio: outputs.sideBySide?.destination,
            originalAudio: audio?.reader.url, presetName: document.metadata.last { $0.key == "Preset" }?.value,
            duration: duration, length: audio.map { $0.offset + $0.reader.format.duration } ?? evaluator.hapticEndTime,
            transientCount: evaluator.transients.count,
            continuousSeconds: timeline.continuousSeconds, controlPointCount: document.controlPointCount,
            warnings: warnings)
        return (summary, timeline)
    }

    /// The pattern, evaluated, validated and checked against its sound, its sound opened, and
    /// where its preview goes.
    private static func open(_ ahap: URL, _ format: any HapticReadableFormat, into directory: URL, stem: String?,
                             soundCheck: SoundCheck?) throws -> (AHAPDocument, PatternEvaluator, PairedAudio?, Outputs, [String]) {
        let (document, diagnostics) = format is AHAPFormat ? try readPattern(ahap) : try readPattern(ahap, format)
        var warnings = diagnostics.map(\.description)
        let audio = openAudio(document, ahap: ahap, warnings: &warnings)
        if let audio, let soundCheck {
            warnings += check(document, with: audio, soundCheck)
        }
        let outputs = Outputs(directory: directory, stem: stem ?? ahap.deletingPathExtension().lastPathComponent,
                              withSideBySide: audio != nil)
        return (document, PatternEvaluator(document), audio, outputs, warnings)
    }

    /// The file's pattern and the validator's findings, from one reading.
    private static func readPattern(_ ahap: URL) throws -> (AHAPDocument, [FormatDiagnostic]) {
        let data: Data
        data = try InputFile.contents(of: ahap, maxBytes: AHAPLimits.maxFileBytes)
        let (report, document) = AHAPValidator(baseDirectory: ahap.deletingLastPathComponent()).inspect(data)
        guard let document else {
            let reason = report.diagnostics.first { $0.severity == .error }.map { "\($0.location): \($0.message)" }
            throw FileError(file: ahap.path, reason: "is not an AHAP file: " + (reason ?? "unreadable"),
                            hint: "check it with tactus validate")
        }
        return (document, report.diagnostics.map(\.formatDiagnostic))
    }

    /// A file of another format, read and checked, as the AHAP Tactus writes from it.
    private static func readPattern(_ file: URL, _ format: any HapticReadableFormat) throws -> (AHAPDocument, [FormatDiagnostic]) {
        let (data, imported) = try format.contents(of: file)
        do {
            return (try AHAPWriter().document(for: imported.track), format.validate(data, baseDirectory: nil))
        } catch {
            throw FileError(file: file.path, reason: "cannot be previewed: \(error)")
        }
    }

    /// The sound check's findings for what `document` plays, one line each; a sound that
    /// starts later than the pattern is not checked (the line says so).
    private static func check(_ document: AHAPDocument, with audio: PairedAudio, _ soundCheck: SoundCheck) -> [String] {
        let name = audio.reader.url.lastPathComponent
        guard audio.offset == 0 else {
            return ["sound \(name) starts at \(Markup.seconds(audio.offset)): its harmony with the haptics is not checked"]
        }
        do {
            return try soundCheck(AHAPImport.imported(from: document).track, audio.reader.url).map(\.description)
        } catch {
            return ["sound \(name): harmony not checked: \(error)"]
        }
    }

    private static func refuseOverlongPreview(_ evaluator: PatternEvaluator, _ audio: PairedAudio?, ahap: URL) throws {
        let limit = "previews cover at most \(Markup.seconds(maxDuration))"
        guard evaluator.hapticEndTime.isFinite, evaluator.hapticEndTime <= maxDuration else {
            throw FileError(file: ahap.path, reason: "its haptics run past \(Markup.seconds(maxDuration))",
                               hint: limit + "; check the events' Time")
        }
        if let audio, audio.offset + audio.reader.format.duration > maxDuration {
            throw FileError(file: audio.reader.url.path, reason: "the sound runs to "
                               + Markup.seconds(audio.offset + audio.reader.format.duration), hint: limit)
        }
    }

    /// The pattern's sound, opened; nil (with a note) when it has none or it cannot be read.
    private static func openAudio(_ document: AHAPDocument, ahap: URL, warnings: inout [String]) -> PairedAudio? {
        guard let reference = PairedAudio.reference(in: document, besideAHAP: ahap) else { return nil }
        do {
            return PairedAudio(reader: try AudioFileReader(url: reference.url), offset: reference.offset)
        } catch let error as AudioError {
            // A missing file is already named by the validator's audioFileNotFound.
            if error.kind != .notFound {
                warnings.append("sound \(reference.url.lastPathComponent) \(error.reason); previewing the haptics only")
            }
        } catch {
            warnings.append("sound \(reference.url.lastPathComponent): \(error); previewing the haptics only")
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
