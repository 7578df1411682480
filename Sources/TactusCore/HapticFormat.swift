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
    /// - Parameter parameters: values of `parameters`, validated.
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
    /// - Parameters:
    ///   - track: the track (values 0…1, times in seconds).
    ///   - context: paired audio, metadata and the sound.
    ///   - emit: receives the text in order; an error it throws stops writing and is rethrown.
    func write(_ track: HapticTrack, context: HapticWriteContext, to emit: (String) throws -> Void) throws

    /// Writes the file ending in `ending` (one of `fileEndings`) as bytes, handed to `emit`
    /// piece by piece: what conversions call. For text formats it is the UTF-8 of
    /// `write(_:context:to:)`; binary formats and formats writing several files implement it.
    /// - Throws: as `write(_:context:to:)`.
    /// - Parameters:
    ///   - track: the track (values 0…1, times in seconds).
    ///   - context: paired audio, metadata and the sound.
    ///   - ending: which file, one of `fileEndings`.
    ///   - emit: receives the bytes in order (valid only during the call).
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
    /// - Parameter body: receives the bytes, valid only during the call.
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
    /// - Returns: what the file plays, its paired audio, metadata and the reader's warnings.
    func read(_ data: Data) throws -> ImportedHaptics

    /// Checks a file against the format's own rules (what its players accept and how they
    /// play it), without stopping at the first problem.
    /// - Parameters:
    ///   - data: the file's bytes, untrusted; consumed, so a checker may let them go once it has
    ///     parsed them (a long AHAP's bytes are a third of what checking it holds).
    ///   - baseDirectory: the folder relative file references are resolved against; nil skips
    ///     checks that need the file system.
    /// - Returns: every finding, in file order; no error means the file is valid.
    func validate(_ data: consuming Data, baseDirectory: URL?) -> [FormatDiagnostic]

    /// How a file is read as it plays, completing "a .<fileExtension> …" in the help of
    /// `compare` and `preview` (e.g. "through the square-root law between amplitude and felt
    /// intensity"). One clause, no final period.
    static var readingSummary: String { get }

    /// What `validate` checks a file against, completing ".<fileExtension> files against …" in
    /// its help (errors and warnings in brief, with where the rules are written). One clause,
    /// no final period.
    static var rulesSummary: String { get }

    /// Whether the files hold metadata that can say who made them (`ImportedHaptics.metadata`):
    /// true unless a format says otherwise (a rendered WAV holds samples only). A file at an
    /// output's name in a format without it is replaced as a file nothing tells the maker of.
    static var recordsMaker: Bool { get }

    /// The metadata of a file (`ImportedHaptics.metadata`, which says who made it) from its
    /// first bytes, so that the old files of an output folder are recognised without reading
    /// them whole. A format whose metadata lies in a header reads only that; the default reads
    /// the file (`read(_:)`).
    /// - Parameter start: the file's first bytes, or all of them; untrusted.
    /// - Throws: when the metadata cannot be read from `start` (which may end before it does).
    /// - Returns: the entries, in file order.
    func metadata(fromStart start: Data) throws -> [MetadataEntry]
}

extension HapticReadableFormat {
    public static var recordsMaker: Bool { true }

    public func metadata(fromStart start: Data) throws -> [MetadataEntry] { try read(start).metadata }

    /// Largest haptic file Tactus reads, in bytes: far beyond any real pattern (a million AHAP
    /// events is about 200 MB), small enough that a hostile file cannot exhaust memory.
    public static var maxFileBytes: Int { 256 << 20 }
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

    /// - Parameters:
    ///   - pairedAudio: the audio the file names, or nil.
    ///   - metadata: provenance entries, in order.
    ///   - sound: the sound itself, for formats that carry it.
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
    /// - Parameter body: receives each block of interleaved samples.
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

    /// - Parameters:
    ///   - fileName: the audio's path relative to the haptic file.
    ///   - volume: playback volume, 0…1.
    ///   - useVolumeEnvelope: whether the player may shape the audio's volume.
    public init(fileName: String, volume: Double = 1, useVolumeEnvelope: Bool = false) {
        self.fileName = fileName
        self.volume = volume
        self.useVolumeEnvelope = useVolumeEnvelope
    }
}

/// One key–value entry of a file's metadata, kept in order (files are read by people too).
public struct MetadataEntry: Equatable, Sendable {
    /// The entry's name, e.g. `Preset`.
    public var key: String
    /// The entry's value, as text.
    public var value: String

    /// - Parameters:
    ///   - key: the entry's name.
    ///   - value: its value.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

extension MetadataEntry {
    /// `entries` as a JSON object of strings, in order (`{}` when empty): the metadata of AHAP
    /// and of Tactus's own JSON formats, which write it one entry a line.
    /// - Parameter entries: the entries, in order.
    /// - Returns: the object.
    public static func jsonObject(_ entries: [MetadataEntry]) -> JSONValue {
        .object(entries.map { (key: $0.key, value: .string($0.value)) })
    }

    /// The metadata a JSON document keeps in the object `member` of its top level, read from
    /// the document's first bytes up to that member (`JSONReader.firstMember`): its string
    /// members, in order, as every reader of such a format keeps them (other values, which
    /// some readers keep as text and some refuse, are left out).
    /// - Parameters:
    ///   - member: the top-level member holding the metadata (AHAP's `Metadata`).
    ///   - start: the document's first bytes, or all of them; untrusted.
    /// - Throws: a `JSONSyntaxError` where `start` is not the start of an object up to the
    ///   member's end, including bytes that end before it.
    /// - Returns: the entries; none when the document has no such object.
    public static func jsonHeader(_ member: String, in start: Data) throws -> [MetadataEntry] {
        guard case .object(let members)? = try JSONReader.firstMember(member, in: start) else { return [] }
        return members.compactMap { key, value in
            guard case .string(let text) = value else { return nil }
            return MetadataEntry(key: key, value: text)
        }
    }
}

extension JSONWriter {
    /// Opens the document of one of Tactus's own JSON formats (`tactus-android`,
    /// `tactus-rumble`, …): an object one member a line, starting with `format`, `version` and
    /// `metadata` (one entry a line). The format's own members follow; `endObject()` closes it.
    /// - Parameters:
    ///   - format: the format's name, e.g. `tactus-rumble`.
    ///   - version: the format's version.
    ///   - metadata: the file's metadata, in order.
    public mutating func beginTactusDocument(format: String, version: Int, metadata: [MetadataEntry]) {
        beginObject(.lines)
        member("format", format)
        member("version", version)
        member("metadata", MetadataEntry.jsonObject(metadata), layout: .lines)
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

    /// - Parameters:
    ///   - track: what the file plays.
    ///   - pairedAudio: the audio it names, or nil.
    ///   - metadata: its metadata, in order.
    ///   - warnings: what may not have been read as meant.
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
    /// How serious a finding is.
    public enum Severity: String, Sendable {
        /// The file will not load, or will not play as written.
        case error
        /// The file plays, but probably not as its author meant.
        case warning
    }

    /// Error or warning.
    public var severity: Severity
    /// A stable name of what was found, for tools and tests (messages may be reworded).
    public var kind: String
    /// Where in the file, as a JSON path such as `Pattern[3].Event.Time`; empty for the
    /// whole file.
    public var location: String
    /// What is wrong, in words.
    public var message: String

    /// - Parameters:
    ///   - severity: error or warning.
    ///   - kind: the finding's stable name.
    ///   - location: the JSON path, or empty for the whole file.
    ///   - message: what is wrong, in words.
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
    /// What stopped the reader, in words.
    public var message: String

    /// - Parameters:
    ///   - location: where reading stopped (JSON path or line:column), or empty.
    ///   - message: what stopped it.
    public init(location: String, message: String) {
        self.location = location
        self.message = message
    }

    /// `location: message`, on one line.
    public var description: String { location.isEmpty ? message : "\(location): \(message)" }
}

/// A track a format cannot express, with where.
public struct FormatWriteError: Error, Equatable, CustomStringConvertible {
    /// What cannot be expressed, and where.
    public let description: String
    /// - Parameter description: what cannot be expressed, and where.
    public init(_ description: String) { self.description = description }
}
