import TactusCore
import TactusPlatform

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
        return parts.map(percentEncoded).joined(separator: "/")
    }

    /// One path component with every UTF-8 byte outside `pathComponentAllowed` written as
    /// `%XX`: what Foundation's `addingPercentEncoding(withAllowedCharacters:)` gives.
    static func percentEncoded(_ component: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in component.utf8 {
            if pathComponentAllowed.contains(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Bytes left as they are inside one path component: `CharacterSet.urlPathAllowed`
    /// without `/`, `;` and `:`.
    private static let pathComponentAllowed: Set<UInt8> = Set(
        "!$&'()*+,-.0123456789=@ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~".utf8)
}
