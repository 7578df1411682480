import TactusCore

/// An annotated sound: the audio file and the onset times a designer wants transients at.
///
/// Stored as `<name>.json` beside the audio: `{"file": "hit.wav", "condition": "clean",
/// "onsets": [0.1234, …]}` (other keys are ignored). The bundled Corpus uses this format,
/// and so can a studio's own reference set.
public struct GroundTruth {
    public let audio: URL
    public let condition: String
    public let onsets: [Double]

    /// Every annotation under `directory`, sorted by audio path.
    public static func find(in directory: URL) throws -> [GroundTruth] {
        var found: [GroundTruth] = []
        for url in files(under: directory) where url.pathExtension == "json" {
            guard let data = try? InputFile.contents(of: url, maxBytes: 16 << 20), let json = try? JSONReader.parse(data),
                  let file = json["file"]?.string, case .array(let times)? = json["onsets"] else { continue }
            let onsets = times.compactMap(\.number)
            guard onsets.count == times.count else { continue }
            found.append(GroundTruth(audio: url.deletingLastPathComponent().appendingPathComponent(file),
                                     condition: json["condition"]?.string ?? "", onsets: onsets))
        }
        return found.sorted { $0.audio.path < $1.audio.path }
    }

    /// Every file under `directory`, at any depth, without following links to folders
    /// (as `FileManager.enumerator(at:)` walks); an unreadable folder is skipped.
    private static func files(under directory: URL) -> [URL] {
        var found: [URL] = []
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names.sorted() {
            let url = directory.appendingPathComponent(name)
            let type = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType
            if type == .typeDirectory { found += files(under: url) } else { found.append(url) }
        }
        return found
    }
}
