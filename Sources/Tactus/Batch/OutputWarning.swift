import TactusCore
import TactusFiles
import TactusPlatform

/// One finding of a format's own checker about a file a batch wrote: a file that plays, but
/// not everywhere or not as written (an Android envelope beyond the 16 control points every
/// device guarantees, a rumble beyond its motors' range, …).
public struct OutputWarning: Equatable, Sendable {
    /// The file, relative to the output folder.
    public var output: String
    /// The finding as the validator words it: `warning: <place>: <message>`.
    public var finding: String

    /// What the readable formats' validators (`HapticReadableFormat.validate`) find in the
    /// files at `relativePaths` under `root`; files no format reads back are skipped, a file
    /// that cannot be read is one finding.
    /// - Parameters:
    ///   - relativePaths: haptic files, relative to `root`, in the order to report them.
    ///   - root: the output folder.
    /// - Returns: every finding, file by file in `relativePaths` order.
    static func check(_ relativePaths: [String], under root: URL) -> [OutputWarning] {
        relativePaths.flatMap { path -> [OutputWarning] in
            let url = root.appendingPathComponent(path)
            guard let format = HapticFormats.reader(for: url) else { return [] }
            do {
                let data = try InputFile.contents(of: url, maxBytes: type(of: format).maxFileBytes)
                return format.validate(consume data, baseDirectory: url.deletingLastPathComponent())
                    .map { OutputWarning(output: path, finding: $0.description) }
            } catch {
                return [OutputWarning(output: path, finding: "error: cannot be read back: \(FileErrorReason.describe(error))")]
            }
        }
    }
}
