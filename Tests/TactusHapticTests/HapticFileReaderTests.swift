import Foundation
@testable import TactusHaptic
import TactusCore
import TactusTestSupport
import XCTest

/// The `.haptic` reader and validator against the rules of Meta's and Lofelt's readers: every
/// rule with a file that breaks it (and the kind and place reported), what both readers accept,
/// and what the file plays read back under the √ law.
final class HapticFileReaderTests: XCTestCase {
    /// A valid file with `amplitude` breakpoints (JSON fragments) and optional `frequency` ones.
    private func file(amplitude: String = #"{"time": 0, "amplitude": 0}, {"time": 0.5, "amplitude": 0.25, "emphasis": {"amplitude": 0.64, "frequency": 0.9}}, {"time": 1, "amplitude": 0}"#,
                      frequency: String? = #"{"time": 0, "frequency": 0.2}, {"time": 1, "frequency": 0.6}"#,
                      version: String = #"{"major": 1, "minor": 0, "patch": 0}"#, metadata: String = #"{"editor": "test"}"#) -> Data {
        let frequencyPart = frequency.map { #", "frequency": ["# + $0 + "]" } ?? ""
        return Data(#"{"version": \#(version), "metadata": \#(metadata), "signals": {"continuous": {"envelopes": {"amplitude": [\#(amplitude)]\#(frequencyPart)}}}}"#.utf8)
    }

    private func diagnostics(_ data: Data) -> [FormatDiagnostic] { HapticFileFormat().validate(data, baseDirectory: nil) }

    func testAValidFileHasNoFindingsAndReadsAsItPlays() throws {
        XCTAssertEqual(diagnostics(file()), [])
        let imported = try HapticFileFormat().read(file())
        XCTAssertEqual(imported.metadata, [MetadataEntry(key: "editor", value: "test")])
        let track = imported.track
        XCTAssertEqual(track.duration, 1)
        XCTAssertEqual(track.transients.count, 1)
        XCTAssertEqual(track.transients[0].time, 0.5)
        XCTAssertEqual(track.transients[0].intensity, 0.8, accuracy: 1e-12, "√ of the emphasis amplitude")
        XCTAssertEqual(track.transients[0].sharpness, 0.9)
        XCTAssertEqual(track.regions.count, 1)
        XCTAssertEqual(track.regions[0].start, 0)
        XCTAssertEqual(track.regions[0].end, 1)
        XCTAssertEqual(Polyline.value(of: track.regions[0].intensity, at: 0.5), 0.5, accuracy: 1e-12, "√0.25")
        XCTAssertEqual(Polyline.value(of: track.regions[0].sharpness, at: 0.5), 0.4, accuracy: 1e-12, "frequency interpolated")
    }

    func testEveryRuleOfTheReadersIsAnErrorAtItsPlace() {
        let cases: [(String, Data, String, String)] = [
            ("not JSON", Data("{\"version\":".utf8), "invalidJSON", ""),
            ("top level", Data("[1]".utf8), "wrongType", ""),
            ("version 2", file(version: #"{"major": 2, "minor": 0, "patch": 0}"#), "unsupportedVersion", "version.major"),
            ("negative minor", file(version: #"{"major": 1, "minor": -1, "patch": 0}"#), "wrongType", "version.minor"),
            ("no major", file(version: #"{"minor": 0, "patch": 0}"#), "missingKey", "version.major"),
            ("major 1.5", file(version: #"{"major": 1.5}"#), "wrongType", "version.major"),
            ("editor a number", file(metadata: #"{"editor": 3}"#), "wrongType", "metadata.editor"),
            ("tags a string", file(metadata: #"{"tags": "a"}"#), "wrongType", "metadata.tags"),
            ("amplitude 1.5", file(amplitude: #"{"time": 0, "amplitude": 0}, {"time": 1, "amplitude": 1.5}"#),
             "valueOutOfRange", "signals.continuous.envelopes.amplitude[1].amplitude"),
            ("emphasis 1.2", file(amplitude: #"{"time": 0, "amplitude": 0, "emphasis": {"amplitude": 1.2, "frequency": 0.5}}, {"time": 1, "amplitude": 0}"#),
             "valueOutOfRange", "signals.continuous.envelopes.amplitude[0].emphasis.amplitude"),
            ("emphasis below", file(amplitude: #"{"time": 0, "amplitude": 0.5, "emphasis": {"amplitude": 0.4, "frequency": 0.5}}, {"time": 1, "amplitude": 0}"#),
             "emphasisBelowAmplitude", "signals.continuous.envelopes.amplitude[0].emphasis.amplitude"),
            ("out of order", file(amplitude: #"{"time": 0.5, "amplitude": 0}, {"time": 0.2, "amplitude": 0}, {"time": 1, "amplitude": 0}"#),
             "timeOutOfOrder", "signals.continuous.envelopes.amplitude[1].time"),
            ("negative time", file(amplitude: #"{"time": -0.1, "amplitude": 0}, {"time": 1, "amplitude": 0}"#),
             "timeOutOfOrder", "signals.continuous.envelopes.amplitude[0].time"),
            ("one breakpoint", file(amplitude: #"{"time": 0, "amplitude": 0.5}"#, frequency: nil), "tooFewBreakpoints", "signals.continuous.envelopes.amplitude"),
            ("no span", file(amplitude: #"{"time": 0.3, "amplitude": 0}, {"time": 0.3, "amplitude": 0.5}"#, frequency: nil),
             "zeroDuration", "signals.continuous.envelopes.amplitude"),
            ("frequency 2", file(frequency: #"{"time": 0, "frequency": 2}"#), "valueOutOfRange", "signals.continuous.envelopes.frequency[0].frequency"),
            ("frequency order", file(frequency: #"{"time": 0.6, "frequency": 0.1}, {"time": 0.4, "frequency": 0.1}"#),
             "timeOutOfOrder", "signals.continuous.envelopes.frequency[1].time"),
            ("beyond float", file(amplitude: #"{"time": 1e39, "amplitude": 0}, {"time": 1e40, "amplitude": 0}"#), "numberOutOfRange",
             "signals.continuous.envelopes.amplitude[0].time"),
            ("time a string", file(amplitude: #"{"time": "0", "amplitude": 0}, {"time": 1, "amplitude": 0}"#), "wrongType",
             "signals.continuous.envelopes.amplitude[0].time"),
            ("no envelopes", Data(#"{"version": {"major": 1, "minor": 0, "patch": 0}, "signals": {"continuous": {}}}"#.utf8), "missingKey",
             "signals.continuous.envelopes"),
        ]
        for (name, data, kind, location) in cases {
            let errors = diagnostics(data).filter { $0.severity == .error }
            XCTAssertTrue(errors.contains { $0.kind == kind && $0.location == location }, "\(name): \(errors)")
            XCTAssertThrowsError(try HapticFileFormat().read(data), name)
        }
    }

    func testWhatTheReadersAcceptIsNoError() throws {
        // Equal consecutive times (Lofelt Studio's steps), unknown keys anywhere, no frequency
        // envelope, null emphasis, and unknown metadata of any type.
        let data = file(amplitude: #"{"time": 0, "amplitude": 0, "x": 1}, {"time": 0.2, "amplitude": 0}, {"time": 0.2, "amplitude": 0.5, "emphasis": null}, {"time": 1, "amplitude": 0}"#,
                        frequency: nil, metadata: #"{"author": "a", "tags": ["x", "y"], "custom": {"n": 1}}"#)
        XCTAssertEqual(diagnostics(data), [])
        let imported = try HapticFileFormat().read(data)
        XCTAssertEqual(imported.metadata.map(\.value), ["a", "x, y"])
        XCTAssertEqual(imported.track.regions.count, 1)
        XCTAssertEqual(imported.track.regions[0].start, 0.2, "the region starts where the envelope leaves 0")
        XCTAssertEqual(Polyline.value(of: imported.track.regions[0].sharpness, at: 0.5), HapticFileImport.defaultSharpness)
    }

    /// Meta's reader takes a missing `minor` or `patch` as 0; its own test files have only `major`.
    func testAVersionWithOnlyMajorIsRead() throws {
        for version in [#"{"major": 1}"#, #"{"major": 1, "minor": 2}"#] {
            XCTAssertEqual(diagnostics(file(version: version)), [], version)
            XCTAssertEqual(try HapticFileFormat().read(file(version: version)).track.transients.count, 1, version)
        }
    }

    func testAFrequencyBreakpointOutsideTheAmplitudeSpanIsAWarningOnly() throws {
        let data = file(frequency: #"{"time": 0, "frequency": 0.2}, {"time": 1.2, "frequency": 0.6}"#)
        XCTAssertEqual(diagnostics(data).map(\.kind), ["frequencyOutsideAmplitude"])
        XCTAssertEqual(diagnostics(data).map(\.severity), [.warning])
        XCTAssertNoThrow(try HapticFileFormat().read(data), "read as Haptics Studio's legacy mode reads it")
    }

    /// A ramp of amplitude 0 → 1 plays √ of a line; the track's linear intensity between its
    /// points must stay within `SquareLaw.tolerance` of that everywhere.
    func testTheSquareRootOfARampIsFollowedWithinTolerance() throws {
        let data = file(amplitude: #"{"time": 0, "amplitude": 0}, {"time": 1, "amplitude": 1}, {"time": 2, "amplitude": 0.04}"#, frequency: nil)
        let region = try XCTUnwrap(HapticFileFormat().read(data).track.regions.first)
        var worst = 0.0
        for step in 0...2000 {
            let t = Double(step) / 1000
            let played = (t <= 1 ? t : 1 + (0.04 - 1) * (t - 1)).squareRoot()
            worst = max(worst, abs(Polyline.value(of: region.intensity, at: t) - played))
        }
        XCTAssertLessThanOrEqual(worst, SquareLaw.tolerance + 1e-9)
        XCTAssertGreaterThan(region.intensity.count, 3, "points were added where √ bends the ramp")
        XCTAssertLessThan(region.intensity.count, 40)
    }

    /// Tracks written as `.haptic` and read back keep every transient and the felt envelope.
    func testWrittenTracksReadBackAsDesigned() throws {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<50 {
            let duration = 0.5 + generator.unit() * 3
            let transients = (0..<Int(generator.unit() * 6)).map { _ in
                HapticTrack.Transient(time: generator.unit() * duration, intensity: 0.1 + 0.9 * generator.unit(), sharpness: generator.unit())
            }.sorted { $0.time < $1.time }
            let start = generator.unit() * duration / 2, end = start + generator.unit() * duration / 2 + 0.05
            let times = (0...8).map { start + (end - start) * Double($0) / 8 }
            let region = HapticTrack.ContinuousRegion(start: start, end: end,
                                                      intensity: times.map { HapticTrack.Point(time: $0, value: generator.unit()) },
                                                      sharpness: times.map { HapticTrack.Point(time: $0, value: generator.unit()) })
            let track = HapticTrack(duration: max(duration, end), transients: transients, regions: [region])
            var text = ""
            try HapticFileFormat().write(track, context: HapticWriteContext(), to: { text += $0 })
            XCTAssertEqual(diagnostics(Data(text.utf8)), [], text)
            let back = try HapticFileFormat().read(Data(text.utf8)).track
            XCTAssertEqual(back.transients.count, track.transients.count)
            for (a, b) in zip(track.transients, back.transients) {
                XCTAssertEqual(a.time, b.time, accuracy: 1e-5)
                XCTAssertEqual(a.intensity, b.intensity, accuracy: 0.002)
                XCTAssertEqual(a.sharpness, b.sharpness, accuracy: 0.0001)
            }
            // The continuous intensity felt, away from transients (where the envelope is lowered
            // to the emphasis if above it).
            for step in 0...400 {
                let t = start + (end - start) * Double(step) / 400
                if transients.contains(where: { abs($0.time - t) < 0.002 }) { continue }
                if min(abs(t - start), abs(t - end)) < 2e-5 { continue }  // the region's edges, rounded to 10 µs
                let designed = Polyline.value(of: region.intensity, at: t)
                let read = back.regions.first { $0.start <= t && t <= $0.end }.map { Polyline.value(of: $0.intensity, at: t) } ?? 0
                XCTAssertEqual(designed, read, accuracy: 0.015, "t = \(t)")
            }
        }
    }
}
