import Foundation

/// The reference from a page to a file it links or plays, relative to the page's folder,
/// so a preview folder can be moved, zipped or served as a whole and still work offline.
enum RelativePath {
    /// `file` as seen from `directory`, e.g. `../sounds/boom.wav`, percent-encoded for an
    /// `src`/`href` attribute (spaces, `#`, `?` and `%` in names would otherwise break it).
    static func reference(to file: URL, from directory: URL) -> String {
        let target = file.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        let base = directory.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        var common = 0
        while common < min(target.count - 1, base.count), target[common] == base[common] { common += 1 }
        let parts = Array(repeating: "..", count: base.count - common) + target[common...]
        return parts.map { $0.addingPercentEncoding(withAllowedCharacters: pathComponentAllowed) ?? $0 }
            .joined(separator: "/")
    }

    /// Characters left as they are inside one path component.
    private static let pathComponentAllowed: CharacterSet = {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;:")
        return allowed
    }()
}
