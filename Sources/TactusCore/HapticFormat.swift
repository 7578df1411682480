import TactusPlatform

/// A haptic file format Tactus writes: one small type per format, selected by its `id`
/// (`tactus convert --format ahap,haptic`), the way onset methods are selected by theirs.
///
/// A format turns the format-free `HapticTrack` into its own bytes and nothing else: it never
/// re-analyses audio, and every format written from one analysis describes the same haptics.
/// Adding a format is one new type conforming to this protocol (or to
/// `HapticReadableFormat`, if files in it can be imported) plus one registration: a line in
/// `BuiltInFormats.all` (TactusPresets), or `HapticFormats.register`
/// from your own code.
///
/// Output must be deterministic: the same track and context give the same bytes.
public protocol HapticFormat: TunablePart, Sendable {
    /// The ending of file names in this format, without the leading dot ("ahap",
    /// "android.json"). Output files are named `<stem>.<fileExtension>`.
    static var fileExtension: String { get }

    /// Whether files in this format play the paired audio file (name it, as AHAP's
    /// `AudioCustom` event does): a conversion writes that file only when a selected format
    /// pairs audio. False unless a format says otherwise.
    static var pairsAudio: Bool { get }

    /// Whether the files are text (handed over as strings) or binary. Text unless a format
    /// says otherwise (`BinaryHapticFormat`).
    static var encoding: HapticFileEncoding { get }

    /// Makes a writer from validated parameter values (`parameters` describes them).
    init(parameters: ParameterSet)

    /// The endings (without the leading dot) of the files one conversion writes in this format
    /// with these parameters, each named `<stem>.<ending>`: `[Self.fileExtension]` unless a
    /// format writes several files (AHAP split in two, `format.ahap.split`). Every ending ends
    /// in `Self.fileExtension`, so each file reads back in this format.
    var fileEndings: [String] { get }

    /// Writes `track` in this format, handing the text to `emit` piece by piece (so a long
    /// pattern is never held whole in memory).
    /// - Throws: when the track cannot be expressed in the format (a non-finite number, a
    ///   broken invariant); the message names what and where.
    func write(_ track: HapticTrack, context: HapticWriteContext, to emit: (String) throws -> Void) throws

    /// Writes the file ending in `ending` (one of `fileEndings`) as bytes, handed to `emit`
    /// piece by piece: what conversions call. For text formats it is the UTF-8 of
    /// `write(_:context:to:)`; binary formats and formats writing several files implement it.
    /// - Throws: as `write(_:context:to:)`.
    func write(_ track: HapticTrack, context: HapticWriteContext, file ending: String,
               bytes emit: (UnsafeRawBufferPointer) throws -> Void) throws
}

/// What a format's files hold.
public enum HapticFileEncoding: String, Sendable {
    /// UTF-8 text (JSON).
    case text
    /// Bytes (a WAV).
    case binary
}

extension HapticFormat {
    public static var pairsAudio: Bool { false }
    public static var encoding: HapticFileEncoding { .text }
    public var fileEndings: [String] { [Self.fileExtension] }

    /// The UTF-8 of the text `write(_:context:to:)` hands over, whatever the ending.
    public func write(_ track: HapticTrack, context: HapticWriteContext, file ending: String,
                      bytes emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        try write(track, context: context) { try $0.withUTF8Bytes(emit) }
    }
}

extension String {
    /// Hands the string's UTF-8 bytes to `body` (a native string's own storage, not a copy).
    public func withUTF8Bytes(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var text = self
        try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    }
}

/// A format whose files are bytes, not text (a WAV of an actuator's drive signal): it writes
/// through `write(_:context:file:bytes:)` only.
public protocol BinaryHapticFormat: HapticFormat {}

extension BinaryHapticFormat {
    public static var encoding: HapticFileEncoding { .binary }

    /// Binary files have no text form.
    /// - Throws: always a `FormatWriteError` saying so.
    public func write(_ track: HapticTrack, context: HapticWriteContext, to emit: (String) throws -> Void) throws {
        throw FormatWriteError("\(Self.id) writes binary files, not text")
    }
}

/// A format whose files Tactus can also read back into the format-free model, so patterns
/// made by other tools can be validated, previewed and translated into other formats.
public protocol HapticReadableFormat: HapticFormat {
    /// Reads a file of this format.
    /// - Parameter data: the file's bytes, untrusted: any bytes must end in a value or a
    ///   thrown error in bounded time and memory.
    /// - Throws: `FormatReadError` naming the place when the file cannot be read at all.
    func read(_ data: Data) throws -> ImportedHaptics

    /// Checks a file against the format's own rules (what its players accept and how they
    /// play it), without stopping at the first problem.
    /// - Parameters:
    ///   - data: the file's bytes, untrusted.
    ///   - baseDirectory: the folder relative file references are resolved against; nil skips
    ///     checks that need the file system.
    func validate(_ data: Data, baseDirectory: URL?) -> [FormatDiagnostic]

    /// Whether the files hold metadata that can say who made them (`ImportedHaptics.metadata`):
    /// true unless a format says otherwise (a rendered WAV holds samples only). A file at an
    /// output's name in a format without it is replaced as a file nothing tells the maker of.
    static var recordsMaker: Bool { get }
}

extension HapticReadableFormat {
    public static var recordsMaker: Bool { true }

    /// Largest haptic file Tactus reads, in bytes: far beyond any real pattern (a million AHAP
    /// events is about 200 MB), small enough that a hostile file cannot exhaust memory.
    public static var maxFileBytes: Int { 256 << 20 }

    /// The file at `url` read in this format: its bytes (for `validate`) and what it plays.
    /// - Throws: `FileError` naming the file: not a regular file, larger than `maxFileBytes`,
    ///   or not valid in this format (with the place).
    public func contents(of url: URL) throws -> (data: Data, haptics: ImportedHaptics) {
        let data = try InputFile.contents(of: url, maxBytes: Self.maxFileBytes)
        do { return (data, try read(data)) } catch {
            throw FileError(file: url.path, reason: "is not a valid \(Self.fileExtension) file: \(error)",
                            hint: "check it with tactus validate")
        }
    }
}

extension HapticFormat {
    /// A format made with every parameter at its default.
    public init() {
        // Defaults always validate against their own descriptors.
        self.init(parameters: try! ParameterSet(Self.parameters))
    }
}

/// What a format writes beside the haptics themselves.
public struct HapticWriteContext: Sendable {
    /// The audio that plays with the haptics, if any. Formats that cannot carry audio ignore it.
    public var pairedAudio: PairedAudio?
    /// Provenance recorded in the file where the format has room for it (tool, preset,
    /// source), in order.
    public var metadata: [MetadataEntry]
    /// The sound the track was made from, decodable again, for formats that carry the sound
    /// itself (DualSense's four-channel WAV); nil for a translated haptic file.
    public var sound: (any SoundSource)?

    public init(pairedAudio: PairedAudio? = nil, metadata: [MetadataEntry] = [], sound: (any SoundSource)? = nil) {
        self.pairedAudio = pairedAudio
        self.metadata = metadata
        self.sound = sound
    }
}

/// A sound decoded on demand, from its start, block by block (memory is one block whatever its
/// length): what a format that carries the sound reads.
public protocol SoundSource: Sendable {
    /// Frames per second.
    var sampleRate: Double { get }
    /// Interleaved channels per frame (≥ 1).
    var channels: Int { get }
    /// Decodes the whole sound, handing `body` interleaved frames, each sample −1…1 (valid only
    /// during the call), in order.
    /// - Throws: a decoding error, or what `body` throws.
    func decode(_ body: (UnsafeBufferPointer<Float>) throws -> Void) throws
}

/// An audio file played in sync with the haptics, starting at the pattern's time 0.
public struct PairedAudio: Equatable, Sendable {
    /// The audio file's path relative to the haptic file (usually a bare file name, so the
    /// pair loads from an app bundle).
    public var fileName: String
    /// Playback volume, 0…1.
    public var volume: Double
    /// Whether the player may fade the audio in and out with its own volume envelope.
    public var useVolumeEnvelope: Bool

    public init(fileName: String, volume: Double = 1, useVolumeEnvelope: Bool = false) {
        self.fileName = fileName
        self.volume = volume
        self.useVolumeEnvelope = useVolumeEnvelope
    }
}

/// One key–value entry of a file's metadata, kept in order (files are read by people too).
public struct MetadataEntry: Equatable, Sendable {
    public var key: String
    public var value: String

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

extension MetadataEntry {
    /// `entries` as a JSON object two spaces in, one entry a line, in order (`{}` when empty):
    /// the metadata of Tactus's own JSON formats.
    public static func jsonObject(_ entries: [MetadataEntry]) -> String {
        entries.isEmpty ? "{}" : "{" + entries.map { "\n    \(JSONText.quote($0.key)): \(JSONText.quote($0.value))" }
            .joined(separator: ",") + "\n  }"
    }
}

/// A file of some format read into the format-free model.
public struct ImportedHaptics: Equatable, Sendable {
    /// What the file plays, as designed values (0…1) in seconds.
    public var track: HapticTrack
    /// The audio the file plays with the haptics, if it names one.
    public var pairedAudio: PairedAudio?
    /// The file's metadata, in order.
    public var metadata: [MetadataEntry]
    /// What may not have been read as its author meant (out-of-range values clamped, parts
    /// the model cannot hold), with places.
    public var warnings: [FormatDiagnostic]

    public init(track: HapticTrack, pairedAudio: PairedAudio? = nil, metadata: [MetadataEntry] = [],
                warnings: [FormatDiagnostic] = []) {
        self.track = track
        self.pairedAudio = pairedAudio
        self.metadata = metadata
        self.warnings = warnings
    }
}

/// One finding about a file in some format, printable on one line.
public struct FormatDiagnostic: Equatable, Sendable, CustomStringConvertible {
    public enum Severity: String, Sendable {
        /// The file will not load, or will not play as written.
        case error
        /// The file plays, but probably not as its author meant.
        case warning
    }

    public var severity: Severity
    /// A stable name of what was found, for tools and tests (messages may be reworded).
    public var kind: String
    /// Where in the file, as a JSON path such as `Pattern[3].Event.Time`; empty for the
    /// whole file.
    public var location: String
    public var message: String

    public init(severity: Severity, kind: String, location: String, message: String) {
        self.severity = severity
        self.kind = kind
        self.location = location
        self.message = message
    }

    /// `<severity>: <location>: <message>`, or `<severity>: <message>` for the whole file.
    public var description: String {
        location.isEmpty ? "\(severity.rawValue): \(message)" : "\(severity.rawValue): \(location): \(message)"
    }
}

/// A file that cannot be read as the format at all, with the place that stopped the reader.
public struct FormatReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// JSON path (or "line:column" for malformed text); empty for the whole file.
    public var location: String
    public var message: String

    public init(location: String, message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { location.isEmpty ? message : "\(location): \(message)" }
}

/// A track a format cannot express, with where.
public struct FormatWriteError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
