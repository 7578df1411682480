import TactusCore
import TactusFiles
import TactusPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Housekeeping in a batch's output folder.
enum OutputTree {
    /// Deletes the temporaries (`.<name>.<token>.tactus-tmp`) in `folders`: those a killed run
    /// left behind, or those of conversions being abandoned. Returns how many were removed.
    @discardableResult
    static func removeTemporaries(in folders: Set<URL>) -> Int {
        var removed = 0
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names where name.hasPrefix(".") && name.hasSuffix(StagedFile.temporarySuffix) {
                if unlink(folder.appendingPathComponent(name).path) == 0 { removed += 1 }
            }
        }
        return removed
    }

    /// Each folder on the way to the file `path` names, as appending it to a root reaches them:
    /// "a/b/c.ahap" → "a", "a/b". One step per component, so it ends whatever the text.
    static func folders(leadingTo path: String) -> [String] {
        var folders: [String] = []
        for name in path.split(separator: "/").dropLast() {
            folders.append(folders.last.map { $0 + "/" + name } ?? String(name))
        }
        return folders
    }

    /// Deletes files given relative to `root`, then every folder this leaves empty (never
    /// `root` itself), so a pruned tree looks as if the source had never been there.
    /// - Parameter relativePaths: plain relative paths (`FilePaths.isPlainRelative`), as
    ///   `BatchManifest` guarantees for the outputs it lists.
    static func remove(_ relativePaths: [String], under root: URL) {
        var folders = Set<String>()
        for path in relativePaths {
            unlink(root.appendingPathComponent(path).path)
            folders.formUnion(self.folders(leadingTo: path))
        }
        // Deepest first, so a parent is tried after its children; rmdir only removes empty folders.
        for folder in folders.sorted(by: { $0.count > $1.count }) {
            rmdir(root.appendingPathComponent(folder).path)
        }
    }
}
