import TactusCore
import TactusPlatform

/// The names of a sound's outputs, in one place: its stem among a set of sources, and the
/// files named from a stem (every haptic file, the transcoded paired audio).
///
/// A source's outputs are normally `<stem>.ahap` (and `<stem>.wav` when its audio must be
/// transcoded), where the stem is its name without extension. When several sources going
/// to the same folder share a stem (`hit.wav`, `hit.ogg`), each of them keeps its whole file
/// name as the stem instead: `hit.wav.ahap` + `hit.wav`, `hit.ogg.ahap` + `hit.ogg.wav`.
/// The rule depends only on the set of sources, so reruns name things the same way.
public enum OutputNaming {
    /// Each source's stem: its name without extension, or its whole name where sources going to
    /// the same folder (by `outputDirectory`) share a stem, compared without case.
    /// - Parameters:
    ///   - sources: every source of the run.
    ///   - outputDirectory: the folder a source's outputs go to.
    /// - Returns: each source's stem.
    public static func stems(for sources: [URL], outputDirectory: (URL) -> URL) -> [URL: String] {
        var groups: [String: [URL]] = [:]
        for source in sources {
            let key = outputDirectory(source).standardizedFileURL.path + "/"
                + stem(of: source).lowercased()
            groups[key, default: []].append(source)
        }
        var stems: [URL: String] = [:]
        for members in groups.values {
            for source in members {
                stems[source] = members.count > 1 ? source.lastPathComponent : stem(of: source)
            }
        }
        return stems
    }

    /// A lone source's stem: its file name without its extension (`boom.wav` → `boom`).
    /// - Parameter source: the source file.
    /// - Returns: its stem.
    public static func stem(of source: URL) -> String { source.deletingPathExtension().lastPathComponent }

    /// The file named `<stem>.<ending>`, `ending` without its leading dot (a format's file ending,
    /// `HapticFormat.fileEndings`).
    /// - Parameters:
    ///   - stem: the sound's stem (`stems(for:outputDirectory:)`).
    ///   - ending: the file's ending, without its leading dot (`ahap`, `pcm.wav`).
    /// - Returns: the file's name.
    public static func fileName(stem: String, ending: String) -> String { stem + "." + ending }

    /// The names of the files `format` writes for a sound of this stem, in its ending order.
    /// - Parameters:
    ///   - stem: the sound's stem.
    ///   - format: the format written.
    /// - Returns: one name per file the format writes (two for split AHAP).
    public static func hapticFileNames(stem: String, format: any HapticFormat) -> [String] {
        format.fileEndings.map { fileName(stem: stem, ending: $0) }
    }

    /// The name of the WAV a sound's audio is transcoded into when it pairs audio that Apple
    /// platforms do not reliably play (`<stem>.wav`).
    /// - Parameter stem: the sound's stem.
    /// - Returns: the WAV's name.
    public static func transcodedAudioName(stem: String) -> String { fileName(stem: stem, ending: "wav") }
}
