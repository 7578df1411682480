import TactusAnalysis
import TactusCore
import TactusFiles
import TactusMapping

/// A preset with its inheritance chain and overrides applied, every value validated, and
/// the origin of each value recorded. Built once per run; read-only afterwards.
public struct ResolvedPreset {
    /// The preset's name (the leaf file's).
    public let name: String
    /// The preset's description (the leaf file's).
    public let description: String
    /// Files of the chain, the preset itself first, then its parents.
    public let chain: [String]
    /// The onset method `onset.method` selects (SuperFlux by default).
    public let onsetMethod: any OnsetMethod.Type
    /// Validated parameters by section path, as the preset chain and overrides declare them
    /// (what `presets init` writes back and a saved preset holds).
    public let declaredSections: [String: ParameterSet]
    /// The values the parts run with, by section path: `declaredSections` with the `feel`
    /// controls applied (`FeelSettings.effective`); equal to them while `feel` is at 0.
    public let sections: [String: ParameterSet]
    /// Where each value came from, by `section.key`: "default", "method superflux", a file, or "--set".
    public let origins: [String: String]
    /// The command-line overrides applied, as sorted `section.key=value` (recorded in AHAP
    /// metadata so `--preset-from` can repeat them).
    public let overrides: [String]
    /// A short, stable fingerprint of the resolved values (FNV-1a 64 of `canonicalLines`,
    /// 16 hex digits), made once with the preset: a batch reads it for every file.
    public let hash: String

    /// Resolves `files` (root ancestor first, the preset itself, then command-line overrides
    /// last) in order: parameter default → method default → each file → overrides.
    /// - Parameter files: the chain, root first, overrides last.
    /// - Throws: a `PresetError` naming the file and `section.key` of a value unknown, of the
    ///   wrong type, out of range or inverted against its pair; or when no preset is given.
    public init(resolving files: [PresetFile]) throws {
        guard let leaf = files.last(where: { $0.source != PresetFile.overrideSource }) else {
            throw PresetError(file: "preset", "no preset given")
        }
        name = leaf.name
        description = leaf.description
        chain = files.filter { $0.source != PresetFile.overrideSource }.reversed().map(\.source)
        overrides = files.filter { $0.source == PresetFile.overrideSource }.flatMap { file in
            file.values.flatMap { section, values in values.map { "\(section).\($0.key)=\($0.value.plainText)" } }
        }.sorted()

        // The onset method first: it decides which onset parameters exist. Onset parameters
        // belong to a method: those set before the file that last switched to another method
        // were meant for the old one and do not carry over.
        var methodId = SuperFlux.id
        var methodSource = "default"
        var firstOnsetFile = 0
        for (index, file) in files.enumerated() {
            if let value = file.values[PresetSections.onset]?[PresetSections.methodKey] {
                guard case .choice(let id) = value, OnsetMethods.named(id) != nil else {
                    let ids = OnsetMethods.all.map { $0.id }
                    throw PresetError(file: file.displayName,
                                      "onset.method = \(value) is not a known onset method (one of \(ids.joined(separator: ", ")))"
                                          + PresetFile.suggestion("\(value)".trimmingQuotes(), ids))
                }
                if id != methodId { firstOnsetFile = index }
                methodId = id
                methodSource = file.displayName
            }
        }
        let method = OnsetMethods.named(methodId)!
        onsetMethod = method

        var sections: [String: ParameterSet] = [:]
        var origins: [String: String] = ["onset.method": methodSource]
        // Index in `files` of the file that set each `section.key` last (absent: a default).
        var setBy: [String: Int] = [:]
        for section in PresetSections.all {
            let descriptors = section.descriptors(method)
            var given: [String: ParameterValue] = [:]
            for d in descriptors { origins["\(section.path).\(d.name)"] = "default" }
            if section.path == PeakPicker.id {
                for setting in method.peakPickingDefaults {
                    given[setting.descriptor.name] = setting.value
                    origins["\(section.path).\(setting.descriptor.name)"] = "method \(method.id)"
                }
            }
            let isOnset = section.path == PresetSections.onset
            for (index, file) in files.enumerated() where !isOnset || index >= firstOnsetFile {
                guard var values = file.values[section.path] else { continue }
                if isOnset { values[PresetSections.methodKey] = nil }
                for key in values.keys.sorted() {
                    let value = values[key]!
                    guard let d = descriptors.first(where: { $0.name == key }) else {
                        throw PresetError(file: file.displayName,
                                          "unknown key \"\(section.path).\(key)\""
                                              + PresetFile.suggestion(key, descriptors.map(\.name)))
                    }
                    if let problem = d.check(value) {
                        throw PresetError(file: file.displayName, "\(section.path).\(key) = \(problem)")
                    }
                    given[key] = value
                    origins["\(section.path).\(key)"] = file.displayName
                    setBy["\(section.path).\(key)"] = index
                }
            }
            let set = try ParameterSet(descriptors, given)
            for pair in section.orderedPairs(method) where !pair.holds(in: set) {
                let lower = "\(section.path).\(pair.lower.name)", upper = "\(section.path).\(pair.upper.name)"
                // The later of the two settings is the one that broke the order.
                let blamed = [setBy[lower], setBy[upper]].compactMap { $0 }.max().map { files[$0].displayName } ?? leaf.displayName
                throw PresetError(file: blamed, "\(lower) = \(set.values[pair.lower.name]!) must be \(pair.relation) "
                                  + "\(upper) = \(set.values[pair.upper.name]!)")
            }
            sections[section.path] = set
        }
        declaredSections = sections
        self.sections = FeelSettings.effective(sections)
        self.origins = origins
        hash = Self.fingerprint(Self.canonicalLines(method, self.sections))
    }

    /// The values `section`'s part runs with (after the `feel` controls).
    /// - Parameter section: a path from `PresetSections.all`; any other is a programming error.
    /// - Returns: the values.
    public func parameters(_ section: String) -> ParameterSet {
        guard let set = sections[section] else { preconditionFailure("no preset section \(section)") }
        return set
    }

    /// `section`'s values as the preset declares them (before the `feel` controls).
    /// - Parameter section: a path from `PresetSections.all`; any other is a programming error.
    /// - Returns: the values.
    public func declaredParameters(_ section: String) -> ParameterSet {
        guard let set = declaredSections[section] else { preconditionFailure("no preset section \(section)") }
        return set
    }

    /// The analysis sections as the analysis takes them.
    /// - Returns: window, onset method, peaks, attack and centroid settings.
    public func analysisConfiguration() -> AnalysisConfiguration {
        AnalysisConfiguration(frame: parameters(FrameSettings.id), onsetMethod: onsetMethod,
                              onset: parameters(PresetSections.onset), peaks: parameters(PeakPicker.id),
                              attack: parameters(AttackLocator.id), centroid: parameters(CentroidAnalyzer.id))
    }

    /// The mapping sections as a mapper.
    /// - Returns: a mapper with the loudness, transient, intensity and sharpness values.
    public func mapper() -> HapticMapper {
        HapticMapper(loudness: parameters(LoudnessSettings.id), transients: parameters(TransientSettings.id),
                     intensity: parameters(IntensitySettings.id), sharpness: parameters(SharpnessSettings.id))
    }

    /// Every value the parts run with as `section.key = value`, sorted: the canonical text
    /// that the hash covers, so two runs agree on "same preset" exactly when every value
    /// agrees. The `feel` controls count through the values they move (they are not listed
    /// themselves), so presets that play alike hash alike and `feel` at 0 changes no hash.
    public var canonicalLines: [String] { Self.canonicalLines(onsetMethod, sections) }

    /// `canonicalLines` of these values.
    private static func canonicalLines(_ onsetMethod: any OnsetMethod.Type, _ sections: [String: ParameterSet]) -> [String] {
        var lines = ["onset.method = \"\(onsetMethod.id)\""]
        for section in PresetSections.all where section.path != FeelSettings.id {
            guard let set = sections[section.path] else { preconditionFailure("no preset section \(section.path)") }
            for key in set.values.keys.sorted() { lines.append("\(section.path).\(key) = \(set.values[key]!)") }
        }
        return lines
    }

    /// The fingerprint of `lines` joined by newlines: FNV-1a 64 as 16 hex digits.
    private static func fingerprint(_ lines: [String]) -> String {
        // As `String(printf: "%016llx")` wrote it, without its variadic arguments (whose
        // conformance look-ups cost more at start-up than the rest of the fingerprint).
        let hex = String(fnv1a64(lines.joined(separator: "\n")), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

extension PresetFile {
    /// The pseudo-source of command-line `--set` overrides.
    public static let overrideSource = "--set"

    /// The name used in messages: the file's name, or `--set`.
    public var displayName: String {
        source == Self.overrideSource ? source : FilePaths.lastComponent(source)
    }

    /// Builds the override layer from `section.key=value` strings (`--set`, repeatable).
    /// - Parameter assignments: `section.key=value` strings; `true`/`false` are flags, numbers
    ///   numbers, anything else a choice (checked when the preset is resolved).
    /// - Returns: a file with source `--set`, resolved after every file.
    /// - Throws: a `PresetError` for an assignment that is not `section.key=value` or names
    ///   an unknown section.
    public static func overrides(_ assignments: [String]) throws -> PresetFile {
        var file = PresetFile(source: overrideSource, name: overrideSource)
        for assignment in assignments {
            guard let eq = assignment.firstIndex(of: "="), let dot = assignment[..<eq].lastIndex(of: ".") else {
                throw PresetError(file: overrideSource, "\"\(assignment)\" is not section.key=value")
            }
            let section = String(assignment[..<dot])
            let key = String(assignment[assignment.index(after: dot)..<eq])
            let text = String(assignment[assignment.index(after: eq)...])
            guard PresetSections.named(section) != nil else {
                throw PresetError(file: overrideSource, "unknown section \"\(section)\""
                                  + suggestion(section, PresetSections.all.map(\.path)))
            }
            let value: ParameterValue
            if text == "true" || text == "false" { value = .flag(text == "true") }
            else if let n = Double(text) { value = .number(n) }
            else { value = .choice(text) }
            file.values[section, default: [:]][key] = value
        }
        return file
    }
}
