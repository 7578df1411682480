import Tactus
import TactusAHAP
import TactusCore
import TactusPreview

/// `tactus batch --preview`: a preview beside every converted AHAP (the batch must write the
/// AHAP format), and a gallery of the whole output tree. It lives here because the batch runner (`Tactus`) and the previews
/// (`TactusPreview`) do not depend on each other; the CLI joins them.
struct PreviewStep: BatchStep {
    /// Changing the preview's look or sound should rebuild previews: bump with the tool.
    var fingerprint: String { "preview \(TactusVersion.current)" }

    func run(after result: ConversionResult, source: BatchSource, log: CommittedFiles) throws -> [URL] {
        guard let ahap = result.output(AHAPFormat.id) else { return [] }
        let summary = try PreviewRenderer.render(ahap: ahap, into: ahap.deletingLastPathComponent(),
                                                 protectedPaths: [source.url.standardizedFileURL.path],
                                                 soundCheck: HarmonyCheck.check, log: log)
        return [summary.hapticsAudio, summary.sideBySideAudio, summary.plot, summary.page].compactMap { $0 }
    }
}

enum BatchGallery {
    static let fileName = "index.html"

    /// Writes `<output>/index.html` with one row per source of the run, converted, up to date
    /// or failed. Previews already on disk are summarised without being rendered again.
    static func write(_ result: BatchResult, outputRoot: URL, log: CommittedFiles) throws -> URL {
        let rows = result.files.compactMap { file -> GalleryRow? in
            switch file.status {
            case .notStarted:
                return nil
            case .failed:
                return GalleryRow(name: file.source, status: .failed(file.error.map { $0.reason } ?? "failed"))
            case .converted, .upToDate:
                guard let ahap = file.outputs.first(where: { $0.hasSuffix("." + AHAPFormat.fileExtension) }) else {
                    return GalleryRow(name: file.source, status: .ok)
                }
                let url = outputRoot.appendingPathComponent(ahap)
                do {
                    let preview = try PreviewRenderer.summary(ahap: url, in: url.deletingLastPathComponent(),
                                                              soundCheck: HarmonyCheck.check)
                    return GalleryRow(name: file.source, status: .ok, warnings: preview.warnings, preview: preview)
                } catch {
                    return GalleryRow(name: file.source, status: .ok, warnings: ["no preview: \(error)"])
                }
            }
        }
        let url = outputRoot.appendingPathComponent(fileName)
        try GalleryPage.write(rows: rows, to: url, log: log)
        return url
    }
}
