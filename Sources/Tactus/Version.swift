/// The tool's version, written into every AHAP's metadata so outputs can be traced and
/// rebuilt when it changes.
public enum TactusVersion {
    /// The version `--version` prints and every output's metadata records (semantic versioning).
    public static let current = "0.1.0"
}
