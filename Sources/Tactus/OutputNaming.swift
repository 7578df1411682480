import TactusCore
import TactusPlatform

/// Output stems for a set of sources, so that no two sources write the same files.
///
/// A source's outputs are normally `<stem>.ahap` (and `<stem>.wav` when its audio must be
/// transcoded), where the stem is its name without extension. When several sources going
/// to the same folder share a stem (`hit.wav`, `hit.ogg`), each of them keeps its whole file
/// name as the stem instead: `hit.wav.ahap` + `hit.wav`, `hit.ogg.ahap` + `hit.ogg.wav`.
/// The rule depends only on the set of sources, so reruns name things the same way.
public enum OutputNaming {
    public static func stems(for sources: [URL], outputDirectory: (URL) -> URL) -> [URL: String] {
        var groups: [String: [URL]] = [:]
        for source in sources {
            let key = outputDirectory(source).standardizedFileURL.path + "/"
                + source.deletingPathExtension().lastPathComponent.lowercased()
            groups[key, default: []].append(source)
        }
        var stems: [URL: String] = [:]
        for members in groups.values {
            for source in members {
                stems[source] = members.count > 1 ? source.lastPathComponent : source.deletingPathExtension().lastPathComponent
            }
        }
        return stems
    }
}
