/// Path arithmetic on plain strings. Foundation's URL and NSString versions cost tens of
/// thousands of instructions a call on Linux, which showed per file in a batch.
public enum FilePaths {
    /// The folder part of an absolute, standardized path ("/" for a file at the root).
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
