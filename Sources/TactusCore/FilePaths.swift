/// Path arithmetic on plain strings, for hot paths that handle many files (Foundation's URL
/// and NSString versions are slow on Linux).
public enum FilePaths {
    /// The folder part of an absolute, standardized path ("/" for a file at the root).
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
