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
    public var include: [String]
    public var exclude: [String]

    public init(include: [String] = [], exclude: [String] = []) {
        self.include = include
        self.exclude = exclude
    }

    public func includesFile(_ relativePath: String) -> Bool {
        if exclude.contains(where: { Self.matches($0, relativePath) }) { return false }
        return include.isEmpty || include.contains(where: { Self.matches($0, relativePath) })
    }

    public func entersFolder(_ relativePath: String) -> Bool {
        !exclude.contains(where: { Self.matches($0, relativePath) })
    }

    static func matches(_ pattern: String, _ relativePath: String) -> Bool {
        let subject = pattern.contains("/") ? relativePath : FilePaths.lastComponent(relativePath)
        return fnmatch(pattern, subject, 0) == 0
    }
}
