import ArgumentParser
import Tactus
import TactusCommandLine
import TactusCore
import TactusPlatform

struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare what two haptic files play (" + HapticFormats.endings(of: HapticFormats.readable) + "), e.g. a translation with its original.",
        discussion: """
        Both files are read as they play: \(HapticFormats.readingSummaries). Transients are paired with the nearest one within 50 ms; the continuous intensity is compared every millisecond (coarser beyond about 2.8 hours) where either file plays a continuous region (less the milliseconds around transients that --transient-mask-ms leaves out: Tactus's AHAPs lift the continuous body there so that each transient plays unscaled; and those around each region's start and end that --edge-mask-ms leaves out); the continuous sharpness on the same instants where both play a region.
        Exits 1 when a transient is lost or added, or an error exceeds its limit.

        Examples:
          tactus compare boom.ahap t/boom.haptic
          tactus compare design.haptic t/design.ahap --transient-mask-ms 10
          tactus compare boom.ahap t/boom.haptic --format json
        """)

    @Argument(help: "The original haptic file.")
    var reference: String

    @Argument(help: "The file compared with it (a translation, a round trip).")
    var candidate: String

    @Option(help: ArgumentHelp("Largest time error of a paired transient.", valueName: "ms"))
    var maxTimeMs = 1.0

    @Option(help: ArgumentHelp("Largest intensity error of a paired transient (0…1).", valueName: "x"))
    var maxIntensity = 0.02

    @Option(help: ArgumentHelp("Largest RMS error of the continuous intensity (0…1).", valueName: "x"))
    var maxEnvelopeRms = 0.03

    @Option(help: ArgumentHelp("Leave the continuous intensity this close to a transient out of the comparison.", valueName: "ms"))
    var transientMaskMs = 0.0

    @Option(help: ArgumentHelp("Leave the continuous intensity and sharpness this close to a region's start or end out of the comparison.", valueName: "ms"))
    var edgeMaskMs = 0.0

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(help: "text (three lines) or json (every number, for scripts).")
    var format: OutputFormat = .text

    func validate() throws {
        guard transientMaskMs >= 0, transientMaskMs.isFinite else {
            throw ValidationError("--transient-mask-ms must be 0 or more")
        }
        guard edgeMaskMs >= 0, edgeMaskMs.isFinite else {
            throw ValidationError("--edge-mask-ms must be 0 or more")
        }
    }

    func run() throws {
        let tracks: [HapticTrack]
        do {
            tracks = try [reference, candidate].map { try HapticFormats.read(URL(fileURLWithPath: $0)).track }
        } catch {
            report(error)
            throw ExitCode(1)
        }
        let comparison = PlaybackComparison(reference: tracks[0], candidate: tracks[1], transientMask: transientMaskMs / 1000, edgeMask: edgeMaskMs / 1000)
        let within = comparison.keepsEveryTransient
            && comparison.worstTimeError * 1000 <= maxTimeMs + 1e-9
            && comparison.worstIntensityError <= maxIntensity + 1e-9
            && comparison.envelopeRMS <= maxEnvelopeRms + 1e-9
        print(format == .json ? Self.json(comparison, within: within).prettyText() : Self.summary(comparison),
              terminator: format == .json ? "" : "\n")
        if !within {
            report("\(candidate): plays differently from \(reference) (limits: \(maxTimeMs) ms, intensity \(maxIntensity), envelope RMS \(maxEnvelopeRms))")
            throw ExitCode(1)
        }
    }

    static func json(_ c: PlaybackComparison, within: Bool) -> JSONValue {
        .object([("transients", .object([("reference", .number(Double(c.referenceTransients))),
                                         ("candidate", .number(Double(c.candidateTransients))),
                                         ("paired", .number(Double(c.pairedTransients))),
                                         ("worstTimeMs", .number(c.worstTimeError * 1000)),
                                         ("worstIntensity", .number(c.worstIntensityError)),
                                         ("worstSharpness", .number(c.worstSharpnessError))])),
                 ("envelope", .object([("samples", .number(Double(c.envelopeSamples))), ("stepMs", .number(c.envelopeStep * 1000)),
                                       ("rms", .number(c.envelopeRMS)), ("worst", .number(c.envelopeWorst))])),
                 ("sharpness", .object([("samples", .number(Double(c.sharpnessSamples))), ("worst", .number(c.sharpnessWorst))])),
                 ("regions", .object([("reference", .number(Double(c.referenceRegions))),
                                      ("candidate", .number(Double(c.candidateRegions)))])),
                 ("withinLimits", .bool(within))])
    }

    static func summary(_ c: PlaybackComparison) -> String {
        func fixed(_ x: Double, _ digits: Int) -> String { JSONText.fixed(x, digits: digits) }
        return """
        transients: \(c.pairedTransients) paired of \(c.referenceTransients) (reference) and \(c.candidateTransients) (candidate); \
        worst time \(fixed(c.worstTimeError * 1000, 3)) ms, intensity \(fixed(c.worstIntensityError, 4)), sharpness \(fixed(c.worstSharpnessError, 4))
        continuous intensity: RMS \(fixed(c.envelopeRMS, 4)), worst \(fixed(c.envelopeWorst, 4)) at \(c.envelopeSamples) instants \(JSONText.shortest(c.envelopeStep * 1000)) ms apart where either plays
        continuous sharpness: worst \(fixed(c.sharpnessWorst, 4)) at \(c.sharpnessSamples) instants where both play; regions: \(c.referenceRegions) (reference), \(c.candidateRegions) (candidate)
        """
    }
}
