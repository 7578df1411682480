import Tactus
import TactusCore
import TactusFiles
import TactusPreview
import TactusPlatform

/// `tactus batch --preview`: a preview of each conversion's first output in a readable format
/// (the AHAP when the batch writes it first, else the `.haptic`, Android, rumble or rendered file)
/// and a gallery of them all, in a folder of their own inside the output folder
/// (`previewRoot`, mirroring the output tree), apart from the files an app bundles. It lives
/// here because the batch runner (`Tactus`) and the previews (`TactusPreview`) do not depend on
/// each other; the CLI joins them.
struct PreviewStep: BatchStep {
    /// The default folder of the previews, relative to the output folder: hidden, as the
    /// manifest is, so it stays out of the resources an app bundles from the output folder.
    static let defaultFolder = ".tactus-preview"

    let outputRoot: URL
    /// The previews' folder relative to `outputRoot` (`FilePaths.isPlainRelative`).
    let folderName: String
    var previewRoot: URL { outputRoot.appendingPathComponent(folderName, isDirectory: true) }

    /// Changing the preview's look, sound or place should rebuild previews: bump with the tool.
    var fingerprint: String {
        "preview \(TactusVersion.current)" + (folderName == Self.defaultFolder ? "" : " in \(folderName)")
    }

    func run(after result: ConversionResult, source: BatchSource, log: CommittedFiles) throws -> [URL] {
        guard let (file, format) = Self.previewed(result.outputs.map(\.url)) else { return [] }
        let summary = try PreviewRenderer.render(file: file, format: format, into: folder(of: file),
                                                 protectedPaths: [source.url.standardizedFileURL.path],
                                                 soundCheck: HarmonyCheck.check, log: log)
        return [summary.hapticsAudio, summary.sideBySideAudio, summary.plot, summary.page].compactMap { $0 }
    }

    /// The first of `outputs` whose format reads it back, with that format: the one previewed.
    static func previewed(_ outputs: [URL]) -> (URL, any HapticReadableFormat)? {
        outputs.lazy.compactMap { url in HapticFormats.reader(for: url).map { (url, $0) } }.first
    }

    /// Where the preview of the output `file` goes: its folder's place in the output tree,
    /// under `previewRoot`.
    func folder(of file: URL) -> URL {
        let folder = file.deletingLastPathComponent().standardizedFileURL.path, root = outputRoot.standardizedFileURL.path
        let relative = folder.hasPrefix(root + "/") ? String(folder.dropFirst(root.count + 1)) : ""
        return relative.isEmpty ? previewRoot : previewRoot.appendingPathComponent(relative, isDirectory: true)
    }
}

enum BatchGallery {
    static let fileName = "index.html"

    /// Writes `index.html` into the previews' folder with one row per source of the run,
    /// converted, up to date or failed. Previews already on disk are summarised without being
    /// rendered again; a preview whose page, plot or haptics sound is gone is left out (with a
    /// warning) and a missing sound is not offered, so the gallery never links a missing file.
    /// Each row lists the formats' own warnings about every output of its source.
    static func write(_ result: BatchResult, previews step: PreviewStep, log: CommittedFiles) throws -> URL {
        let rows = result.files.compactMap { file -> GalleryRow? in
            switch file.status {
            case .notStarted:
                return nil
            case .failed:
                return GalleryRow(name: file.source, status: .failed(file.error.map { $0.reason } ?? "failed"))
            case .converted, .upToDate:
                let previewed = PreviewStep.previewed(file.hapticOutputs.map { step.outputRoot.appendingPathComponent($0) })
                // The previewed file's own findings are already among the preview's warnings.
                let outputs = file.warnings.filter { step.outputRoot.appendingPathComponent($0.output) != previewed?.0 }
                    .map { "\($0.output): \($0.finding)" }
                guard let (url, format) = previewed else {
                    return GalleryRow(name: file.source, status: .ok, warnings: outputs)
                }
                do {
                    let preview = try PreviewRenderer.summary(file: url, format: format, in: step.folder(of: url),
                                                              soundCheck: HarmonyCheck.check)
                    guard let shown = onDisk(preview) else {
                        return GalleryRow(name: file.source, status: .ok, warnings: ["no preview: its files are missing (run with --force to draw them again)"] + outputs)
                    }
                    return GalleryRow(name: file.source, status: .ok, warnings: preview.warnings + outputs, preview: shown)
                } catch {
                    return GalleryRow(name: file.source, status: .ok, warnings: ["no preview: \(error)"] + outputs)
                }
            }
        }
        let url = step.previewRoot.appendingPathComponent(fileName)
        try GalleryPage.write(rows: rows, to: url, log: log)
        return url
    }

    /// `preview` with only the files that exist: nil when its page, plot or haptics sound is
    /// missing, else without the sounds that are.
    static func onDisk(_ preview: PreviewSummary) -> PreviewSummary? {
        let exists = { (url: URL) in FileManager.default.fileExists(atPath: url.path) }
        guard [preview.page, preview.plot, preview.hapticsAudio].allSatisfy(exists) else { return nil }
        var shown = preview
        shown.sideBySideAudio = preview.sideBySideAudio.flatMap { exists($0) ? $0 : nil }
        shown.originalAudio = preview.originalAudio.flatMap { exists($0) ? $0 : nil }
        return shown
    }
}
