import TactusCore
import TactusFiles
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--include` / `--exclude` shell globs (`*`, `?`, `[…]`), matched against paths relative
/// to the batch's input folder.
///
/// A pattern without `/` matches a name at any depth (`*.wav`, `drafts`); a pattern with `/`
/// matches the whole relative path, and there `*` also crosses folders (`ui/*` is everything
/// under `ui`). Excludes apply to folders too (an excluded folder is not entered) and win over
/// includes; includes apply to files only, so `--include '*.wav'` still walks every folder.
public struct PathFilter: Sendable {
    /// Globs a file must match (any of them); empty includes every file.
    public var include: [String]
    /// Globs that leave out a file or folder (any of them).
    public var exclude: [String]

    /// - Parameters:
    ///   - include: `--include` globs.
    ///   - exclude: `--exclude` globs.
    public init(include: [String] = [], exclude: [String] = []) {
        self.include = include
        self.exclude = exclude
    }

    /// - Parameter relativePath: a file's path relative to the input folder.
    /// - Returns: true when no exclude and, if there are includes, some include matches it.
    public func includesFile(_ relativePath: String) -> Bool {
        if exclude.contains(where: { Self.matches($0, relativePath) }) { return false }
        return include.isEmpty || include.contains(where: { Self.matches($0, relativePath) })
    }

    /// - Parameter relativePath: a folder's path relative to the input folder.
    /// - Returns: true when no exclude matches it.
    public func entersFolder(_ relativePath: String) -> Bool {
        !exclude.contains(where: { Self.matches($0, relativePath) })
    }

    static func matches(_ pattern: String, _ relativePath: String) -> Bool {
        let subject = pattern.contains("/") ? relativePath : FilePaths.lastComponent(relativePath)
        return fnmatch(pattern, subject, 0) == 0
    }
}
