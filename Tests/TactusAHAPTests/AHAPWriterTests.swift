import Foundation
import TactusTestSupport
import XCTest
@testable import TactusAHAP
import TactusCore

final class AHAPWriterTests: XCTestCase {
    private typealias Point = HapticTrack.Point

    private func region(_ start: Double, _ end: Double, intensity: [Point]? = nil, sharpness: [Point]? = nil) -> HapticTrack.ContinuousRegion {
        .init(start: start, end: end,
              intensity: intensity ?? [Point(time: start, value: 0.3), Point(time: end, value: 0.7)],
              sharpness: sharpness ?? [Point(time: start, value: 0.2), Point(time: end, value: 0.8)])
    }

    /// Writes, encodes and decodes: what the tests evaluate is what a device would read.
    private func written(_ track: HapticTrack, _ options: AHAPWriter.Options = .init(),
                         file: StaticString = #filePath, line: UInt = #line) throws -> AHAPDocument {
        let document = try AHAPWriter(options: options).document(for: track)
        let encoded = AHAPEncoder().encode(document)
        let decoded = try AHAPDecoder().decode(encoded)
        XCTAssertEqual(decoded, document, "the writer's values are already on the written grid", file: file, line: line)
        let report = AHAPValidator().validate(encoded)
        XCTAssertEqual(report.errorCount, 0, "\(report)", file: file, line: line)
        return decoded
    }

    func testAudioEventAndMetadata() throws {
        let options = AHAPWriter.Options(pairedAudio: PairedAudio(fileName: "boom.wav", volume: 0.8),
                                         metadata: [.init(key: "Project", value: "Tactus")])
        let document = try written(HapticTrack(duration: 1), options)
        XCTAssertEqual(document.metadata, options.metadata)
        XCTAssertEqual(document.events, [AHAPEvent(time: 0, type: .audioCustom, waveformPath: "boom.wav", useVolumeEnvelope: false,
                                                   parameters: [.init(id: "AudioVolume", value: 0.8)])])
        XCTAssertTrue(try written(HapticTrack(duration: 1)).pattern.isEmpty, "no audio name, no audio event")
    }

    func testNoContinuousEventsWithoutRegions() throws {
        let track = HapticTrack(duration: 5, transients: (0..<10).map { .init(time: Double($0) * 0.4, intensity: 0.5, sharpness: 0.5) })
        let document = try written(track)
        XCTAssertFalse(document.events.contains { $0.type == .hapticContinuous })
        XCTAssertTrue(document.curves.isEmpty)
        XCTAssertEqual(document.events.map { $0.parameter("HapticIntensity") }, Array(repeating: 0.5, count: 10))
    }

    func testContinuousEventsCoverOnlyTheRegions() throws {
        let document = try written(HapticTrack(duration: 10, regions: [region(1, 2.5), region(4, 4.2)]))
        let spans = document.events.filter { $0.type == .hapticContinuous }.map { $0.time...($0.time + $0.duration!) }
        XCTAssertEqual(spans, [1...2.5, 4...4.2])
    }

    func testA70SecondRegionBecomesThreeEventsOfAtMost30Seconds() throws {
        let document = try written(HapticTrack(duration: 80, regions: [region(5, 75)]))
        let events = document.events.filter { $0.type == .hapticContinuous }
        XCTAssertEqual(events.count, 3)
        XCTAssertTrue(events.allSatisfy { $0.duration! <= AHAPLimits.maxContinuousDuration })
        XCTAssertEqual(events.first?.time, 5)
        for (a, b) in zip(events, events.dropFirst()) { XCTAssertEqual(a.time + a.duration!, b.time, accuracy: 1e-9) }
        XCTAssertEqual(events.last!.time + events.last!.duration!, 75, accuracy: 1e-9)
        XCTAssertEqual(try written(HapticTrack(duration: 61, regions: [region(0, 60)])).events.count, 2, "exactly 2 × 30 s")
    }

    func testASeventeenPointCurveSplitsIntoTwoThatJoin() throws {
        let points = (0..<17).map { Point(time: 1 + Double($0) * 0.1, value: $0 % 2 == 0 ? 0.2 : 0.9) }
        let document = try written(HapticTrack(duration: 3, regions: [region(1, 2.6, intensity: points, sharpness: [Point(time: 1, value: 0.5)])]))
        let curves = document.curves.filter { $0.parameterID == AHAPParameterID.hapticIntensityControl }
        // 17 region points plus the return to neutral: 18 knots, 16 + (1 repeated + 2).
        XCTAssertEqual(curves.map(\.controlPoints.count), [16, 3])
        let end = curves[0].controlPoints.last!, start = curves[1].controlPoints.first!
        XCTAssertEqual(curves[0].time + end.time, curves[1].time + start.time, accuracy: 1e-9, "joint at the same time")
        XCTAssertEqual(end.value, start.value, "and the same value: no step")
        XCTAssertEqual(start.time, 0)
        let evaluator = PatternEvaluator(document)
        for point in points where point.time < 2.6 {
            XCTAssertEqual(evaluator.continuousIntensity(at: point.time), point.value, accuracy: 1e-4)
        }
        XCTAssertTrue(document.curves.isEmpty == false && document.curves.allSatisfy { $0.parameterID != AHAPParameterID.hapticSharpnessControl },
                      "constant sharpness needs no sharpness curve")
    }

    func testCurveTimesAreRelativeToEachCurve() throws {
        // A region starting at 40 s, with enough points for several curves.
        let points = (0...60).map { Point(time: 40 + Double($0) * 0.05, value: 0.5 + 0.4 * sin(Double($0))) }
        let document = try written(HapticTrack(duration: 45, regions: [region(40, 43, intensity: points, sharpness: points)]))
        let curves = document.curves
        XCTAssertGreaterThan(curves.count, 4)
        for curve in curves {
            XCTAssertGreaterThanOrEqual(curve.time, 40)
            XCTAssertEqual(curve.controlPoints.first?.time, 0, "a curve starts at its own Time")
            XCTAssertLessThan(curve.controlPoints.last!.time, 1.5, "points near 0, not near 40: \(curve.controlPoints.map(\.time))")
            XCTAssertLessThanOrEqual(curve.controlPoints.count, AHAPLimits.maxControlPoints)
            XCTAssertEqual(curve.controlPoints.map(\.time), curve.controlPoints.map(\.time).sorted())
        }
        // The curves play on time: the evaluated intensity follows the designed points.
        let evaluator = PatternEvaluator(document)
        for point in points where point.time < 43 {
            XCTAssertEqual(evaluator.continuousIntensity(at: point.time), point.value, accuracy: 1e-4)
        }
    }

    func testControlsReturnToNeutralAfterEachRegion() throws {
        let regions = [region(1, 2, intensity: [Point(time: 1, value: 0.1)], sharpness: [Point(time: 1, value: 0.1), Point(time: 2, value: 0.9)]),
                       region(3, 4, intensity: [Point(time: 3, value: 0)])]
        let document = try written(HapticTrack(duration: 5, regions: regions))
        let evaluator = PatternEvaluator(document)
        for t in [2.011, 2.5, 2.999, 4.011, 10] {
            XCTAssertEqual(evaluator.controlValue(AHAPParameterID.hapticIntensityControl, at: t), 1, "at \(t)")
            XCTAssertEqual(evaluator.controlValue(AHAPParameterID.hapticSharpnessControl, at: t), 0, "at \(t)")
        }
        XCTAssertEqual(evaluator.continuousIntensity(at: 1.5), 0.1, accuracy: 1e-9)
        XCTAssertEqual(evaluator.continuousSharpness(at: 1.25)!, 0.3, accuracy: 1e-9)
        XCTAssertEqual(evaluator.continuousIntensity(at: 2.5), 0, "no buzz between regions")
        let report = AHAPValidator().validate(AHAPEncoder().encode(document))
        XCTAssertFalse(report.diagnostics.contains { $0.kind == .controlLeaksIntoLaterEvents || $0.kind == .controlLeftSetAfterLastEvent }, "\(report)")
    }

    /// Between two regions with no event in between nothing plays, so the first region's
    /// controls are not brought back to neutral there: the next region's curves take over at
    /// its start. After the last region, and where a transient lies between, they return.
    func testControlsReturnToNeutralOnlyWhereSomethingPlaysNext() throws {
        let first = region(1, 2, intensity: [Point(time: 1, value: 0.8), Point(time: 2, value: 0.2)],
                           sharpness: [Point(time: 1, value: 0.1), Point(time: 2, value: 0.9)])
        let second = region(3, 4, intensity: [Point(time: 3, value: 0.2), Point(time: 4, value: 0.8)],
                            sharpness: [Point(time: 3, value: 0.9), Point(time: 4, value: 0.1)])
        let quiet = try written(HapticTrack(duration: 5, regions: [first, second]))
        let knotTimes = quiet.curves.flatMap { curve in curve.controlPoints.map { curve.time + $0.time } }
        XCTAssertFalse(knotTimes.contains { $0 > 2 && $0 < 3 }, "no return between the regions: \(knotTimes)")
        let evaluator = PatternEvaluator(quiet)
        XCTAssertNotEqual(evaluator.controlValue(AHAPParameterID.hapticSharpnessControl, at: 2.5), 0, "left as the first region ends")
        for (t, intensity, sharpness) in [(1.5, 0.5, 0.5), (3.0, 0.2, 0.9), (3.5, 0.5, 0.5)] {
            XCTAssertEqual(evaluator.continuousIntensity(at: t), intensity, accuracy: 1e-4, "at \(t)")
            XCTAssertEqual(try XCTUnwrap(evaluator.continuousSharpness(at: t)), sharpness, accuracy: 1e-4, "at \(t)")
        }
        XCTAssertEqual(evaluator.controlValue(AHAPParameterID.hapticIntensityControl, at: 10), 1, "the pattern ends neutral")
        XCTAssertEqual(evaluator.controlValue(AHAPParameterID.hapticSharpnessControl, at: 10), 0)
        XCTAssertEqual(AHAPValidator().validate(AHAPEncoder().encode(quiet)).warningCount, 0)

        let between = HapticTrack(duration: 5, transients: [.init(time: 2.5, intensity: 0.6, sharpness: 0.3)], regions: [first, second])
        let document = try written(between)
        let transient = try XCTUnwrap(PatternEvaluator(document).transients.first)
        XCTAssertEqual(transient.intensityControl, 1)
        XCTAssertEqual(transient.sharpnessControl, 0)
        XCTAssertEqual(transient.effectiveIntensity, 0.6, accuracy: 1e-9)
        XCTAssertEqual(AHAPValidator().validate(AHAPEncoder().encode(document)).warningCount, 0)
    }

    /// The sharpness control is notched at a transient only where it lies more than
    /// `sharpnessSlack` from neutral. Within it the body keeps its sharpness and the
    /// transient's event absorbs half the control, so it plays within half the slack of its
    /// own sharpness under either reading; beyond it, the notch makes it exact.
    func testASmallSharpnessOffsetIsAbsorbedAndALargeOneNotched() throws {
        let slack = AHAPWriter.Options.sharpnessSlack
        for (sharpness, notched) in [([Point(time: 1, value: 0.5), Point(time: 2, value: 0.51)], false),
                                     ([Point(time: 1, value: 0.1), Point(time: 2, value: 0.9)], true)] {
            let track = HapticTrack(duration: 3, transients: [.init(time: 1.2, intensity: 0.5, sharpness: 0.7)],
                                    regions: [region(1, 2, intensity: [Point(time: 1, value: 0.8)], sharpness: sharpness)])
            let document = try written(track)
            let evaluator = PatternEvaluator(document)
            let transient = try XCTUnwrap(evaluator.transients.first)
            for reading in PatternEvaluator.SharpnessReading.allCases {
                XCTAssertEqual(transient.effectiveSharpness(reading), 0.7, accuracy: notched ? 1e-4 : slack / 2 + 1e-4, "\(reading)")
            }
            XCTAssertEqual(transient.sharpnessControl == 0, notched)
            // The track's body at 1.2 s: 0.502 or 0.26; notched, it plays its median (0.5) there.
            let body = try XCTUnwrap(evaluator.continuousSharpness(at: 1.2))
            XCTAssertEqual(body, notched ? 0.5 : 0.502, accuracy: 1e-4)
            XCTAssertEqual(AHAPValidator().validate(AHAPEncoder().encode(document)).warningCount, 0)
        }
    }

    /// A transient where the body starts from nothing: no split makes the control reach its
    /// intensity there, so the control is lifted to it and no further, and the region is
    /// split where the lift ends, so the body under the lift rises at most to its own peak
    /// over the lift × the transient's intensity (not to the region's peak × it).
    func testATransientInsideARegionPlaysAtItsOwnValues() throws {
        let track = HapticTrack(duration: 3, transients: [.init(time: 1, intensity: 0.9, sharpness: 0.8)],
                                regions: [region(1, 2, intensity: [Point(time: 1, value: 0), Point(time: 1.2, value: 0.4),
                                                                   Point(time: 2, value: 0.1)],
                                                 sharpness: [Point(time: 1, value: 0.2), Point(time: 2, value: 0.6)])])
        let document = try written(track)
        let evaluator = PatternEvaluator(document)
        let transient = try XCTUnwrap(evaluator.transients.first)
        XCTAssertEqual(transient.intensityControl, 0.9, accuracy: 1e-9, "intensity control lifted to the transient's intensity")
        XCTAssertEqual(transient.eventIntensity, 1, "the event absorbs the rest")
        XCTAssertEqual(transient.effectiveIntensity, 0.9, accuracy: 1e-9)
        XCTAssertEqual(transient.sharpnessControl, 0, accuracy: 1e-9, "sharpness notched to neutral")
        // The segment up to the lift's end (5 ms and a grid step) peaks at 0.4 × 0.00501 / 0.2.
        XCTAssertEqual(evaluator.continuousIntensity(at: 1), 0.01002 * 0.9, accuracy: 1e-4, "the body rises only to its peak over the lift × 0.9")
        // On the line from (1, 0) to (1.2, 0.4), away from the lift.
        XCTAssertEqual(evaluator.continuousIntensity(at: 1.02), 0.04, accuracy: 1e-3, "the body is untouched away from the lift")
        XCTAssertEqual(evaluator.continuousIntensity(at: 1.1), 0.2, accuracy: 1e-3)
        let report = AHAPValidator().validate(AHAPEncoder().encode(document))
        XCTAssertEqual(report.warningCount, 0, "\(report)")
    }

    /// A transient weaker than the body's control at its instant needs no lift: its event
    /// carries its intensity ÷ the control, and the body under it plays exactly as the track.
    func testATransientUnderTheBodysControlLeavesTheBodyAlone() throws {
        let intensity = [Point(time: 1, value: 0.1), Point(time: 1.2, value: 0.4), Point(time: 2, value: 0.1)]
        let track = HapticTrack(duration: 3, transients: [.init(time: 1.5, intensity: 0.2, sharpness: 0.8)],
                                regions: [region(1, 2, intensity: intensity, sharpness: [Point(time: 1, value: 0.2), Point(time: 2, value: 0.6)])])
        let document = try written(track)
        let evaluator = PatternEvaluator(document)
        let transient = try XCTUnwrap(evaluator.transients.first)
        XCTAssertEqual(transient.intensityControl, 0.2875 / 0.4, accuracy: 1e-4, "the body's own control")
        XCTAssertEqual(transient.eventIntensity, 0.2 / (0.2875 / 0.4), accuracy: 1e-4)
        XCTAssertEqual(transient.effectiveIntensity, 0.2, accuracy: 1e-4)
        let body = Polyline(intensity.map { Polyline.Knot(time: $0.time, value: $0.value) })
        for t in stride(from: 1.49, through: 1.51, by: 0.001) {
            XCTAssertEqual(evaluator.continuousIntensity(at: t), body.value(at: t), accuracy: 1e-3, "at \(t)")
        }
        let report = AHAPValidator().validate(AHAPEncoder().encode(document))
        XCTAssertEqual(report.warningCount, 0, "\(report)")
    }

    /// A body decaying from a loud attack, a transient on the attack and a weaker one later,
    /// louder than the decayed body ÷ the region's peak: the region splits at the later one,
    /// so neither needs a lift and the body within 10 ms of each plays as the track says.
    func testTheBodyStaysTrueAroundTransientsOnADecay() throws {
        let intensity = [Point(time: 1, value: 0.05), Point(time: 1.2, value: 0.05), Point(time: 1.21, value: 0.8),
                         Point(time: 2, value: 0.1)]
        let transients: [HapticTrack.Transient] = [.init(time: 1.21, intensity: 0.9, sharpness: 0.8),
                                                   .init(time: 1.6, intensity: 0.7, sharpness: 0.4)]
        let track = HapticTrack(duration: 3, transients: transients,
                                regions: [region(1, 2, intensity: intensity, sharpness: [Point(time: 1, value: 0.3), Point(time: 2, value: 0.5)])])
        let document = try written(track)
        let evaluator = PatternEvaluator(document)
        XCTAssertEqual(evaluator.transients.count, 2)
        for (played, wanted) in zip(evaluator.transients, transients) {
            XCTAssertEqual(played.effectiveIntensity, wanted.intensity, accuracy: 1e-3, "at \(wanted.time)")
        }
        let body = Polyline(intensity.map { Polyline.Knot(time: $0.time, value: $0.value) })
        for transient in transients {
            for step in -20...20 {
                let t = transient.time + Double(step) / 2000
                XCTAssertEqual(evaluator.continuousIntensity(at: t), body.value(at: t), accuracy: 0.01, "at \(t)")
            }
        }
        let report = AHAPValidator().validate(AHAPEncoder().encode(document))
        XCTAssertEqual(report.warningCount, 0, "\(report)")
    }

    /// Steps in a region's curve (two points at one time, as Lofelt's and Meta's files have, or
    /// closer than the 10 µs grid) play as steps: the old value up to the step, the new one
    /// after; a curve stepping down at its region's end plays its value up to the end.
    func testStepsInARegionPlayAsSteps() throws {
        let intensity = [Point(time: 0, value: 0.2), Point(time: 0.5, value: 0.2), Point(time: 0.5, value: 0.8),
                         Point(time: 0.700001, value: 0.8), Point(time: 0.700004, value: 0.4), Point(time: 2, value: 0.4),
                         Point(time: 2, value: 0)]
        let track = HapticTrack(duration: 2, regions: [region(0, 2, intensity: intensity)])
        let evaluator = PatternEvaluator(try written(track))
        for (t, expected) in [(0.25, 0.2), (0.49998, 0.2), (0.5, 0.8), (0.6, 0.8), (0.69, 0.8), (0.70002, 0.4), (1.5, 0.4), (1.9999, 0.4)] {
            XCTAssertEqual(evaluator.continuousIntensity(at: t), expected, accuracy: 1e-3, "t = \(t)")
        }
        XCTAssertEqual(evaluator.continuousIntensity(at: 2.001), 0, "nothing continuous after the region")
    }

    /// The core promise: whatever the track, each transient plays as designed.
    func testTransientsPlayAsDesignedForRandomTracks() throws {
        var random = SeededGenerator(seed: 2024)
        var checkedTransients = 0, points = 0, seconds = 0.0
        for round in 0..<300 {
            let track = randomTrack(&random, round: round)
            let document = try written(track)
            let evaluator = PatternEvaluator(document)
            let designed = track.transients.enumerated()
                .sorted { (AHAPEncoder.roundedTime($0.element.time), $0.offset) < (AHAPEncoder.roundedTime($1.element.time), $1.offset) }
                .map(\.element)
            XCTAssertEqual(evaluator.transients.count, designed.count)
            for (played, wanted) in zip(evaluator.transients, designed) {
                let context = "round \(round), transient at \(wanted.time)"
                XCTAssertEqual(played.time, AHAPEncoder.roundedTime(wanted.time), context)
                XCTAssertEqual(played.effectiveIntensity, wanted.intensity, accuracy: 0.01, context)
                for reading in PatternEvaluator.SharpnessReading.allCases {
                    XCTAssertEqual(played.effectiveSharpness(reading), wanted.sharpness, accuracy: 0.01, "\(context), \(reading)")
                }
                XCTAssertLessThanOrEqual(played.eventIntensity, 1, context)
            }
            checkedTransients += designed.count
            // Continuous haptics only inside regions; controls neutral after the last one.
            for event in document.events where event.type == .hapticContinuous {
                XCTAssertTrue(track.regions.contains { $0.start - 1e-5 <= event.time && event.time + event.duration! <= $0.end + 1e-5 })
            }
            if let lastEnd = track.regions.map(\.end).max() {
                XCTAssertEqual(evaluator.controlValue(AHAPParameterID.hapticIntensityControl, at: lastEnd + 0.0101), 1)
                XCTAssertEqual(evaluator.controlValue(AHAPParameterID.hapticSharpnessControl, at: lastEnd + 0.0101), 0)
            }
            points += document.curves.map(\.controlPoints.count).reduce(0, +)
            seconds += track.duration
        }
        XCTAssertGreaterThan(checkedTransients, 3_000)
        XCTAssertLessThan(Double(points) / seconds, 40, "control points per second of audio")
    }

    func testExtraControlPointsStayFew() throws {
        // 10 s region, curves at 10 points/s each, 3 transients/s that all need a lift and a notch.
        // (That is about 41 points/s in all: a mapper this dense leaves little budget.)
        let times = (0...100).map { Double($0) * 0.1 }
        let track = HapticTrack(
            duration: 10,
            transients: (0..<30).map { .init(time: 0.05 + Double($0) / 3, intensity: 0.9, sharpness: 0.5) },
            regions: [region(0, 10, intensity: times.map { Point(time: $0, value: 0.2) },
                             sharpness: times.map { Point(time: $0, value: 0.3 + 0.2 * sin($0)) })])
        let document = try written(track)
        let written = document.curves.map(\.controlPoints.count).reduce(0, +)
        let joints = document.curves.count - 2
        // Per transient: at most 3 points per control curve (two ramp ends and the peak).
        XCTAssertLessThanOrEqual(written - joints, 2 * times.count + 2 * 3 * 30 + 2)
    }

    func testRejectsInvalidInput() {
        let writer = AHAPWriter()
        XCTAssertThrowsError(try writer.document(for: HapticTrack(duration: 1, transients: [.init(time: .nan, intensity: 1, sharpness: 1)]))) {
            XCTAssertEqual($0 as? AHAPWriter.WriteError, .invalidNumber("transients[0]"))
        }
        XCTAssertThrowsError(try writer.document(for: HapticTrack(duration: 1, regions: [region(0, 1, intensity: [Point(time: 0.5, value: .infinity)])])))
        XCTAssertThrowsError(try writer.document(for: HapticTrack(duration: 1, regions: [region(0.5, 1), region(0, 0.6)]))) {
            XCTAssertEqual($0 as? AHAPWriter.WriteError, .overlappingRegions(1, 0))
        }
        XCTAssertThrowsError(try AHAPWriter(options: .init(rampDuration: 0)).document(for: HapticTrack(duration: 1)))
    }

    // MARK: - Random tracks

    /// Regions (some adjacent, some very quiet), and transients everywhere that matters:
    /// inside regions, exactly on their edges, in the return-to-neutral ramp, in silence,
    /// in tight clusters and at identical times.
    private func randomTrack(_ random: inout SeededGenerator, round: Int) -> HapticTrack {
        var regions: [HapticTrack.ContinuousRegion] = []
        var cursor = Double.random(in: 0...0.5, using: &random)
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            let start = Bool.random(using: &random) || regions.isEmpty ? cursor + Double.random(in: 0...1, using: &random) : cursor
            let end = start + Double.random(in: 0.02...3, using: &random)
            let quiet = Int.random(in: 0..<3, using: &random) == 0
            func curve(_ range: ClosedRange<Double>) -> [Point] {
                let count = Int.random(in: 1...Int(2 + (end - start) * 25), using: &random)
                return (0..<count).map { _ in Point(time: Double.random(in: start...end, using: &random),
                                                    value: Double.random(in: range, using: &random)) }
                    .sorted { $0.time < $1.time }
            }
            regions.append(.init(start: start, end: end, intensity: curve(quiet ? 0...0.08 : 0...1), sharpness: curve(0...1)))
            cursor = end
        }
        let duration = cursor + 1
        var times: [Double] = (0..<Int.random(in: 5...25, using: &random)).map { _ in Double.random(in: 0...duration, using: &random) }
        for region in regions {
            times += [region.start, region.end, region.end + 0.004, region.end + 0.01, region.start - 0.003,
                      Double.random(in: region.start...region.end, using: &random)]
        }
        if let first = times.first { times += [first, first + 0.003, first + 0.012] } // duplicate and cluster
        let transients = times.filter { $0 >= 0 }.map {
            HapticTrack.Transient(time: $0, intensity: Double.random(in: 0...1, using: &random), sharpness: Double.random(in: 0...1, using: &random))
        }.sorted { $0.time < $1.time }
        return HapticTrack(duration: duration, transients: transients, regions: regions)
    }
}
