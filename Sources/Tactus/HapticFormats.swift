import TactusAHAP
import TactusAndroid
import TactusAudio
import TactusCore
import TactusFiles
import TactusPresets
import TactusHaptic
import TactusPlatform

/// The registry of haptic formats: the ones `--format` and presets select by id, and the
/// readable ones whose files `convert` translates and `validate`/`preview` check — a static
/// table of the built-in ones plus any a library user registers (no dynamic loading).
public enum HapticFormats {
    /// The built-in formats (`BuiltInFormats.all`: a new built-in format is one line there),
    /// with libsndfile's Ogg Vorbis codec installed first for `android-ogg`, which reaches every
    /// caller that selects or reads formats through this registry.
    private static let registry: PartRegistry<any HapticFormat.Type> = {
        OggVorbis.install(SndFileOggCodec.self)
        return PartRegistry(builtIn: BuiltInFormats.all, id: { $0.id })
    }()

    /// The formats Tactus ships (`BuiltInFormats.all`), in `--format` order.
    public static var builtIn: [any HapticFormat.Type] { registry.builtIn }

    /// The formats a preset asks for when the command names none (`output.formats`).
    /// - Throws: `FormatSelectionError` for an unknown id.
    /// - Parameter preset: the resolved preset.
    /// - Returns: the formats, each with the preset's `format.<id>` values.
    public static func select(for preset: ResolvedPreset) throws -> [any HapticFormat] {
        try select([preset.parameters(OutputSettings.id).choice(OutputSettings.formats)])
    }

    /// `format` made anew with `preset`'s section for it (`format.<id>`), as every `Converter`
    /// makes its formats: presets and `--set format.android.stepMs=5` tune the built-in formats.
    /// Formats without a section (no parameters, or registered by a library user) are kept.
    /// - Parameters:
    ///   - format: a format, as selected.
    ///   - preset: the preset whose `format.<id>` section tunes it.
    /// - Returns: the same format made with the preset's values for it, or `format` itself.
    public static func configured(_ format: any HapticFormat, for preset: ResolvedPreset) -> any HapticFormat {
        let type = Swift.type(of: format)
        guard let parameters = preset.sections[BuiltInFormats.sectionPath(type)] else { return format }
        return type.init(parameters: parameters)
    }

    /// Every selectable format: built-in first, then registered ones.
    public static var all: [any HapticFormat.Type] { registry.all }

    /// Every readable format (files `convert` translates, `validate`, `compare` and `preview`
    /// read): built-in first, then registered ones.
    public static var readable: [any HapticReadableFormat.Type] { all.compactMap { $0 as? any HapticReadableFormat.Type } }

    /// How each readable format is read as it plays, as help texts list it ("a .ahap through
    /// the pattern evaluator …, a .haptic …").
    public static var readingSummaries: String {
        readable.map { "a .\($0.fileExtension) \($0.readingSummary)" }.joined(separator: ", ")
    }

    /// The file endings of `formats` as help texts list them.
    /// - Parameter formats: formats, in the order listed.
    /// - Returns: each ending with its dot, comma-separated (".ahap, .haptic").
    public static func endings(of formats: [any HapticFormat.Type]) -> String {
        formats.map { "." + $0.fileExtension }.joined(separator: ", ")
    }

    /// Makes a format of your own selectable by id; replaces one registered with the same id.
    /// - Parameter format: the format's type; `--format` and presets name it by its `id`.
    public static func register(_ format: any HapticFormat.Type) { registry.register(format) }

    /// Removes a format registered with `register` (built-in formats stay).
    /// - Parameter id: the registered format's id.
    public static func unregister(_ id: String) { registry.unregister(id) }

    /// - Parameter id: a format id, as `--format` names it.
    /// - Returns: the built-in or registered format with that id, or nil.
    public static func named(_ id: String) -> (any HapticFormat.Type)? { registry.named(id) }

    /// The readable format whose files end in `url`'s extension (case-insensitive), if any:
    /// the one that reads `url`.
    /// - Parameter url: a file; only its name is looked at.
    /// - Returns: the format, made with its default parameters, or nil.
    public static func reader(for url: URL) -> (any HapticReadableFormat)? {
        let name = url.lastPathComponent.lowercased()
        // Extensions first, so only formats a name could match are cast: each cast of a type
        // to a protocol searches the binary's conformance table once per process (about
        // 0.3 M instructions), and a sound file matches none.
        let readable = all.filter { name.hasSuffix("." + $0.fileExtension.lowercased()) }
            .compactMap { $0 as? any HapticReadableFormat.Type }
        // The longest matching extension wins ("android.json" before "json").
        return readable.max { $0.fileExtension.count < $1.fileExtension.count }
            .map { $0.init() }
    }

    /// What the haptic file at `url` plays, read by the readable format its extension names
    /// (`reader(for:)`).
    /// - Throws: `FileError` naming the file: no readable format for its extension, not a
    ///   regular file, too large, or not valid in its format (with the place).
    /// - Parameter url: a haptic file in a readable format.
    /// - Returns: the track it plays, its paired audio, metadata and the reader's warnings.
    public static func read(_ url: URL) throws -> ImportedHaptics {
        guard let reader = reader(for: url) else {
            throw FileError(file: url.path, reason: "is not a haptic file Tactus reads",
                            hint: "one of " + endings(of: readable))
        }
        return try reader.contents(of: url).haptics
    }

    /// Formats with default parameters for a list of ids such as `["ahap", "haptic"]` (or
    /// `["ahap,haptic"]`), in the order given, without repeats.
    /// - Throws: `FormatSelectionError` for an unknown id, with the known ones.
    /// - Parameter ids: format ids, each entry possibly comma-separated.
    /// - Returns: the formats, with their default parameters.
    public static func select(_ ids: [String]) throws -> [any HapticFormat] {
        var seen: Set<String> = []
        var formats: [any HapticFormat] = []
        for id in ids.flatMap({ $0.split(separator: ",") }).map({ $0.trimmingWhitespaces().lowercased() }) {
            guard let format = named(id) else {
                throw FormatSelectionError(id: id, known: all.map { $0.id })
            }
            if seen.insert(id).inserted { formats.append(format.init()) }
        }
        guard !formats.isEmpty else { throw FormatSelectionError(id: "", known: all.map { $0.id }) }
        return formats
    }
}

/// An unknown (or empty) format id.
public struct FormatSelectionError: Error, Equatable, CustomStringConvertible {
    /// The id asked for.
    public let id: String
    /// The ids that exist, in `--format` order.
    public let known: [String]

    /// The unknown id and the known ones, on one line.
    public var description: String {
        (id.isEmpty ? "no output format given" : "unknown format \"\(id)\"")
            + " (one of \(known.joined(separator: ", "))"
            + (closestName(to: id, in: known).map { "; did you mean \"\($0)\"?" } ?? "") + ")"
    }
}
