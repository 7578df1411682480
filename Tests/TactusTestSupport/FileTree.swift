import Foundation

/// The files of a folder tree, for tests that compare what two runs wrote.
public enum FileTree {
    /// Every regular file below `root`, by path relative to it, with its bytes.
    /// - Parameter root: the folder.
    /// - Throws: when a file cannot be read.
    /// - Returns: the files; empty for a missing folder.
    public static func contents(below root: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: root.path)?.allObjects ?? [] {
            let url = root.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = try Data(contentsOf: url)
            }
        }
        return files
    }
}
