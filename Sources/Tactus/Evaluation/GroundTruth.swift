import TactusCore
import TactusFiles
import TactusPlatform

/// An annotated sound: the audio file and the onset times a designer wants transients at.
///
/// Stored as `<name>.json` beside the audio: `{"file": "hit.wav", "condition": "clean",
/// "category": "impact", "onsets": [0.1234, …]}` (`condition` and `category` optional, other
/// keys ignored). The bundled Corpus uses this format,
/// and so can a studio's own reference set.
public struct GroundTruth {
    /// The annotated sound file.
    public let audio: URL
    /// The set the sound belongs to (e.g. `clean`, `noisy`), for per-condition scores.
    public let condition: String
    /// What kind of sound it is (e.g. `impact`, `texture`), for per-category scores; empty
    /// when the annotation names none.
    public let category: String
    /// The onset times wanted, in seconds, sorted.
    public let onsets: [Double]

    /// - Parameters:
    ///   - audio: the annotated sound file.
    ///   - condition: its set, for per-condition scores (may be empty).
    ///   - category: its kind of sound (may be empty).
    ///   - onsets: the onset times wanted, in seconds, sorted.
    public init(audio: URL, condition: String, category: String = "", onsets: [Double]) {
        self.audio = audio
        self.condition = condition
        self.category = category
        self.onsets = onsets
    }

    /// Every annotation under `directory`, sorted by audio path, and every `.json` file there
    /// that is a broken one, each with the reason (annotations are outside data: a set handed
    /// over by someone else). A JSON object with neither `file` nor `onsets` is some other
    /// file and is passed over, as are hidden files.
    /// - Parameter directory: the folder searched, recursively.
    /// - Returns: the annotations and the refused files.
    /// - Throws: nothing in practice: an annotation that cannot be read is refused (a `FileError`
    ///   in `refused`), and a folder that cannot be listed holds no annotations.
    public static func find(in directory: URL) throws -> (annotations: [GroundTruth], refused: [FileError]) {
        var found: [GroundTruth] = []
        var refused: [FileError] = []
        for url in files(under: directory) where url.pathExtension == "json" && !url.lastPathComponent.hasPrefix(".") {
            do {
                if let annotation = try read(url) { found.append(annotation) }
            } catch let error as FileError {
                refused.append(error)
            }
        }
        return (found.sorted { $0.audio.path < $1.audio.path }, refused)
    }

    /// The annotation in `url`, or nil for a JSON object that is not one (no `file`, no `onsets`).
    /// - Throws: `FileError` naming `url`: not JSON, not an object, or a `file` that is not a
    ///   name inside the annotation's folder, `onsets` that are not finite times ≥ 0 s, a
    ///   `condition` or `category` that is not a string.
    static func read(_ url: URL) throws -> GroundTruth? {
        func refuse(_ reason: String) -> FileError {
            FileError(file: url.path, reason: reason, hint: #"an annotation is {"file": "hit.wav", "onsets": [0.1, …]}"#)
        }
        let json: JSONValue
        do { json = try JSONReader.parse(try InputFile.contents(of: url, maxBytes: Self.maxBytes)) } catch {
            throw refuse("is not an annotation: \((error as? FileError)?.reason ?? "\(error)")")
        }
        guard case .object = json else { throw refuse("is not an annotation: \(json.kindName), not an object") }
        guard json["file"] != nil || json["onsets"] != nil else { return nil }
        guard case .string(let file)? = json["file"], FilePaths.isPlainRelative(file) else {
            throw refuse(#""file" must name a sound in the annotation's folder"#)
        }
        guard case .array(let times)? = json["onsets"],
              case let onsets = times.compactMap(\.number), onsets.count == times.count,
              onsets.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
            throw refuse(#""onsets" must be a list of times in seconds, each finite and ≥ 0"#)
        }
        let condition: String
        switch json["condition"] {
        case nil: condition = ""
        case .string(let name)?: condition = name
        case let other?: throw refuse(#""condition" must be a string, not "# + other.kindName)
        }
        let category: String
        switch json["category"] {
        case nil: category = ""
        case .string(let name)?: category = name
        case let other?: throw refuse(#""category" must be a string, not "# + other.kindName)
        }
        return GroundTruth(audio: url.deletingLastPathComponent().appendingPathComponent(file),
                           condition: condition, category: category, onsets: onsets)
    }

    /// Largest annotation read, bytes (a thousand onsets take 20 KB).
    static let maxBytes = 16 << 20

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
