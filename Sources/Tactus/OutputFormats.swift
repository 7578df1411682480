import Foundation
import TactusAHAP
import TactusCore
import TactusHaptic

/// The registry of output formats `--format` and presets can select by id: a static table of
/// the built-in ones plus any a library user registers (no dynamic loading).
public enum OutputFormats {
    /// The built-in formats. A new built-in format is one line here.
    private static let registry = PartRegistry<any HapticFormat.Type>(
        builtIn: [
            AHAPFormat.self,
            HapticFileFormat.self,
        ],
        id: { $0.id })

    public static var builtIn: [any HapticFormat.Type] { registry.builtIn }

    /// What `tactus convert` writes when no format is named.
    public static let defaultIDs = [AHAPFormat.id]

    /// Every selectable format: built-in first, then registered ones.
    public static var all: [any HapticFormat.Type] { registry.all }

    /// Makes a format of your own selectable by id; replaces one registered with the same id.
    public static func register(_ format: any HapticFormat.Type) { registry.register(format) }

    /// Removes a format registered with `register` (built-in formats stay).
    public static func unregister(_ id: String) { registry.unregister(id) }

    public static func named(_ id: String) -> (any HapticFormat.Type)? { registry.named(id) }

    /// Formats with default parameters for a list of ids such as `["ahap", "haptic"]` (or
    /// `["ahap,haptic"]`), in the order given, without repeats.
    /// - Throws: `FormatSelectionError` for an unknown id, with the known ones.
    public static func select(_ ids: [String]) throws -> [any HapticFormat] {
        var seen: Set<String> = []
        var formats: [any HapticFormat] = []
        for id in ids.flatMap({ $0.split(separator: ",") }).map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
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
    public let id: String
    public let known: [String]

    public var description: String {
        (id.isEmpty ? "no output format given" : "unknown format \"\(id)\"")
            + " (one of \(known.joined(separator: ", "))"
            + (closestName(to: id, in: known).map { "; did you mean \"\($0)\"?" } ?? "") + ")"
    }
}
