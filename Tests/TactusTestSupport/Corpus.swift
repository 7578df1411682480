import Foundation

/// The repository's bundled Corpus (audio with `<name>.json` ground truth beside it).
public enum Corpus {
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpus", isDirectory: true)
}
