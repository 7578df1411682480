import Foundation

/// The repository's bundled Corpus (audio with `<name>.json` ground truth beside it).
public enum Corpus {
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpus", isDirectory: true)

    /// The repository's shipped presets (`Presets/`, beside the Corpus).
    public static let presetsFolder = root.deletingLastPathComponent().appendingPathComponent("Presets", isDirectory: true)
}

/// Haptic files published by others, a development set kept outside the repository (see its
/// README): `$TACTUS_EXTERNAL_HAPTICS` when set, else `../shared/external-haptics` beside the
/// repository. Tests that read it skip, saying where they looked, when it is absent.
public enum ExternalHaptics {
    public static let folder: URL = {
        if let path = ProcessInfo.processInfo.environment["TACTUS_EXTERNAL_HAPTICS"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return Corpus.root.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/external-haptics", isDirectory: true)
    }()

    /// Why a test that needs `path` (inside `folder`) skips.
    public static func absent(_ path: String) -> String {
        "no \(path) (the development set is neither at $TACTUS_EXTERNAL_HAPTICS nor beside the repository)"
    }
}
