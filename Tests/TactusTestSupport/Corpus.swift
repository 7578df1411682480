import Foundation

/// The repository's bundled Corpus (audio with `<name>.json` ground truth beside it).
public enum Corpus {
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpus", isDirectory: true)

    /// The repository's shipped presets (`Presets/`, beside the Corpus).
    public static let presetsFolder = root.deletingLastPathComponent().appendingPathComponent("Presets", isDirectory: true)
}
