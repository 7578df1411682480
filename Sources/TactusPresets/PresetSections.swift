import TactusAnalysis
import TactusCore
import TactusMapping

/// The sections a preset may hold, each tuning one part, in the order they are written.
///
/// `onset` is special: its `method` key selects an onset method by id, and its other keys
/// are that method's parameters.
public enum PresetSections {
    /// One section: its path and the part's parameters.
    public struct Section {
        /// The section's key path, e.g. `mapping.intensity`.
        public let path: String
        /// What the part does, in a sentence (schema, `presets show`).
        public let summary: String
        /// Descriptors for this section; for `onset` they depend on the method.
        public let descriptors: (any OnsetMethod.Type) -> [ParameterDescriptor]
        /// Pairs of this section's parameters that must keep their order; for `onset` they
        /// depend on the method.
        public let orderedPairs: (any OnsetMethod.Type) -> [OrderedPair]
    }

    /// The onset section's path.
    public static let onset = "onset"
    /// The key in `onset` that selects the method by id.
    public static let methodKey = "method"

    /// Every section, in the order presets are written and listed; built-in formats with parameters last.
    public static let all: [Section] = [
        fixed(FeelSettings.self),
        fixed(FrameSettings.self),
        Section(path: onset, summary: "Onset detection method (selected by \"method\") and its parameters.",
                descriptors: { $0.parameters }, orderedPairs: { $0.orderedPairs }),
        fixed(PeakPicker.self),
        fixed(AttackLocator.self),
        fixed(CentroidAnalyzer.self),
        fixed(LoudnessSettings.self),
        fixed(TransientSettings.self),
        fixed(IntensitySettings.self),
        fixed(SharpnessSettings.self),
        fixed(OutputSettings.self),
    ] + BuiltInFormats.all.filter { !$0.parameters.isEmpty }.map { format in
        Section(path: BuiltInFormats.sectionPath(format), summary: format.summary, descriptors: { _ in format.parameters },
                orderedPairs: { _ in [] })
    }

    /// - Parameter path: a section path, e.g. `peaks`.
    /// - Returns: the section, or nil when none has that path.
    public static func named(_ path: String) -> Section? {
        all.first { $0.path == path }
    }

    private static func fixed(_ part: any TunablePart.Type) -> Section {
        Section(path: part.id, summary: part.summary, descriptors: { _ in part.parameters },
                orderedPairs: { _ in part.orderedPairs })
    }
}
