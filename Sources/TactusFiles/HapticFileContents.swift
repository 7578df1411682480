import TactusCore
import TactusPlatform
/// The one place a haptic file is read from disk for a readable format: within one size limit,
/// with a one-line error. The format itself (TactusCore) reads bytes and never opens files.

extension HapticReadableFormat {
    /// The file at `url` read in this format: its bytes (for `validate`) and what it plays.
    /// - Throws: `FileError` naming the file: not a regular file, larger than `maxFileBytes`,
    ///   or not valid in this format (with the place).
    /// - Parameter url: the haptic file.
    /// - Returns: its bytes and what it plays.
    public func contents(of url: URL) throws -> (data: Data, haptics: ImportedHaptics) {
        let data = try InputFile.contents(of: url, maxBytes: Self.maxFileBytes)
        do { return (data, try read(data)) } catch {
            throw FileError(file: url.path, reason: "is not a valid \(Self.fileExtension) file: \(error)",
                            hint: "check it with tactus validate")
        }
    }
}
