/// Path arithmetic on plain strings, for hot paths that handle many files (Foundation's URL
/// and NSString versions are slow on Linux).
public enum FilePaths {
    /// The folder part of a path, taken literally: what precedes its last "/" ("/" for a
    /// file at the root, "." for a bare name). `..` and links are left for the kernel.
    /// - Parameter path: a path.
    /// - Returns: its folder part.
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

extension FilePaths {
    /// The path without trailing slashes ("/" stays "/").
    private static func trimmingTrailingSlashes(_ path: String) -> Substring {
        var end = path.endIndex
        while end > path.startIndex, path[path.index(before: end)] == "/" { end = path.index(before: end) }
        if end == path.startIndex, !path.isEmpty { return "/" }
        return path[..<end]
    }

    /// The last component, as `NSString.lastPathComponent`: "a/b.wav" → "b.wav", "a/b/" → "b",
    /// "/" → "/", "" → "".
    /// - Parameter path: a path.
    /// - Returns: its last component.
    public static func lastComponent(_ path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The path without its last component, as `NSString.deletingLastPathComponent`:
    /// "a/b/c" → "a/b", "a" → "", "/a" → "/", "/" → "/". Both "" and "/" are their own
    /// result, so a loop that walks up a path must stop at either.
    /// - Parameter path: a path.
    /// - Returns: the path without its last component.
    public static func deletingLastComponent(_ path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        return String(trimmingTrailingSlashes(String(trimmed[..<slash])))
    }

    /// True for a path that names something below whatever folder it is appended to, judged
    /// by its text alone: not empty, not absolute, and every `/`-separated component a name
    /// (not empty, not `.` or `..`, no NUL). "a/b.ahap" passes; "", "/a", "a//b", "./a",
    /// "a/../b" and "../a" do not. For paths read from files a user or a tool may have edited.
    /// - Parameter path: a path read from a file.
    /// - Returns: true when it may be followed.
    public static func isPlainRelative(_ path: String) -> Bool {
        path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
            !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("\0")
        }
    }

    /// The path that leads from `folder` to `target`, both absolute and without `.`, `..` or
    /// links: "/a/b/s.json" from "/a/c" → "../b/s.json", from "/a/b" → "s.json".
    /// - Parameters:
    ///   - target: the absolute path reached.
    ///   - folder: the absolute folder it is reached from.
    /// - Returns: the relative path.
    public static func relative(_ target: String, from folder: String) -> String {
        let to = target.split(separator: "/"), from = folder.split(separator: "/")
        var common = 0
        while common < min(to.count, from.count), to[common] == from[common] { common += 1 }
        return (Array(repeating: "..", count: from.count - common) + to[common...].map(String.init)).joined(separator: "/")
    }

    /// A file name without its extension, as `NSString.deletingPathExtension` on a name:
    /// "soft.json" → "soft", "a.b.json" → "a.b", ".hidden" → ".hidden".
    /// - Parameter name: a file name (no folder).
    /// - Returns: the name without its last extension.
    public static func deletingExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex,
              name[name.index(before: dot)] != "/", !name[dot...].contains("/") else { return name }
        return String(name[..<dot])
    }
}

extension String {
    /// `NSString.padding(toLength:withPad: " ", startingAt: 0)`: spaces added, or the text cut,
    /// to `length` UTF-16 units.
    package func padded(toLength length: Int) -> String {
        let units = utf16.count
        if units >= length { return String(utf16.prefix(length)) ?? String(self.prefix(length)) }
        return self + String(repeating: " ", count: length - units)
    }
}
