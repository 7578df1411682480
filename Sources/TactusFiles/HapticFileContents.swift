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
        do { return (data, try read(data)) } catch { throw invalid(url, error) }
    }

    /// The one-line error for a file at `url` this format cannot read, with the reader's `error`.
    private func invalid(_ url: URL, _ error: Error) -> FileError {
        FileError(file: url.path, reason: "is not a valid \(Self.fileExtension) file: \(error)", hint: "check it with tactus validate")
    }

    /// How much of a file's start `metadata(of:)` reads first: far more than any metadata
    /// Tactus writes, far less than a long pattern.
    static var metadataStartBytes: Int { 1 << 16 }

    /// The metadata of the file at `url` (`metadata(fromStart:)`): from its first
    /// `metadataStartBytes` when they hold it, else from the whole file, so a long pattern an
    /// output folder already holds is recognised without being read whole.
    /// - Throws: `FileError` naming the file: as `contents(of:)`, or its metadata cannot be read.
    /// - Parameter url: the haptic file.
    /// - Returns: its metadata, in file order.
    public func metadata(of url: URL) throws -> [MetadataEntry] {
        let (start, whole) = try InputFile.start(of: url, count: Self.metadataStartBytes)
        // A start that is not the whole file may end before the metadata does: then the whole.
        if !whole, let entries = try? metadata(fromStart: start) { return entries }
        let data = whole ? start : try InputFile.contents(of: url, maxBytes: Self.maxFileBytes)
        do { return try metadata(fromStart: data) } catch { throw invalid(url, error) }
    }
}
