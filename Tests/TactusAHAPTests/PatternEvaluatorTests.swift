import XCTest
@testable import TactusAHAP

final class PatternEvaluatorTests: XCTestCase {
    private let intensityID = AHAPParameterID.hapticIntensityControl
    private let sharpnessID = AHAPParameterID.hapticSharpnessControl

    private func curve(_ id: String, at time: Double, _ points: [(Double, Double)]) -> AHAPElement {
        .curve(AHAPParameterCurve(parameterID: id, time: time, controlPoints: points.map { .init(time: $0.0, value: $0.1) }))
    }

    private func parameter(_ id: String, at time: Double, _ value: Double) -> AHAPElement {
        .parameter(AHAPDynamicParameter(parameterID: id, time: time, value: value))
    }

    private func transient(at time: Double, _ intensity: Double, _ sharpness: Double) -> AHAPElement {
        .event(AHAPEvent(time: time, type: .hapticTransient,
                         parameters: [.init(id: "HapticIntensity", value: intensity), .init(id: "HapticSharpness", value: sharpness)]))
    }

    private func continuous(at time: Double, _ duration: Double, _ intensity: Double, _ sharpness: Double) -> AHAPElement {
        .event(AHAPEvent(time: time, type: .hapticContinuous, duration: duration,
                         parameters: [.init(id: "HapticIntensity", value: intensity), .init(id: "HapticSharpness", value: sharpness)]))
    }

    func testInterpolationRelativeTimesAndPersistence() {
        let evaluator = PatternEvaluator(AHAPDocument(pattern: [
            curve(intensityID, at: 1, [(0.5, 0.2), (1.5, 0.6), (2.5, 0.1)]),
        ]))
        let expected: [(Double, Double)] = [
            (0, 1), (0.999, 1),   // neutral before the curve starts
            (1, 0.2), (1.4, 0.2), // first value holds until the first point (at 1 + 0.5)
            (1.5, 0.2), (2, 0.4), (2.5, 0.6), (3, 0.35), (3.5, 0.1),
            (10, 0.1),            // the last value persists
        ]
        for (t, value) in expected {
            XCTAssertEqual(evaluator.controlValue(intensityID, at: t), value, accuracy: 1e-12, "at \(t)")
        }
        XCTAssertEqual(evaluator.controlValue(sharpnessID, at: 2), 0, "untouched controls stay neutral")
    }

    func testLaterCurveOverridesFromItsStart() {
        let evaluator = PatternEvaluator(AHAPDocument(pattern: [
            curve(intensityID, at: 0, [(0, 0.2), (4, 1)]),
            curve(intensityID, at: 2, [(0, 0.5), (1, 0.9)]),
        ]))
        XCTAssertEqual(evaluator.controlValue(intensityID, at: 1), 0.4, accuracy: 1e-12)
        XCTAssertEqual(evaluator.controlValue(intensityID, at: 2), 0.5, accuracy: 1e-12)
        XCTAssertEqual(evaluator.controlValue(intensityID, at: 2.5), 0.7, accuracy: 1e-12)
        XCTAssertEqual(evaluator.controlValue(intensityID, at: 3.5), 0.9, accuracy: 1e-12, "not the first curve's 0.9")
    }

    func testParameterStepsAndTies() {
        let evaluator = PatternEvaluator(AHAPDocument(pattern: [
            parameter(sharpnessID, at: 1, 0.3),
            curve(sharpnessID, at: 0, [(0, -0.5), (2, 0.5)]),
            parameter(sharpnessID, at: 2, 0.7),
            curve(sharpnessID, at: 3, [(0, 0.1)]),
            parameter(sharpnessID, at: 3, -0.2), // same start as the curve: later in Pattern wins
        ]))
        let expected: [(Double, Double)] = [(0.5, -0.25), (1, 0.3), (1.9, 0.3), (2, 0.7), (2.99, 0.7), (3, -0.2), (9, -0.2)]
        for (t, value) in expected {
            XCTAssertEqual(evaluator.controlValue(sharpnessID, at: t), value, accuracy: 1e-12, "at \(t)")
        }
    }

    func testControlValuesAreClampedToTheirRange() {
        let evaluator = PatternEvaluator(AHAPDocument(pattern: [
            parameter(intensityID, at: 0, 1.7), parameter(sharpnessID, at: 0, -3), parameter("Custom", at: 0, 5),
        ]))
        XCTAssertEqual(evaluator.controlValue(intensityID, at: 1), 1)
        XCTAssertEqual(evaluator.controlValue(sharpnessID, at: 1), -1)
        XCTAssertEqual(evaluator.controlValue("Custom", at: 1), 5, "unknown IDs are not clamped")
    }

    func testContinuousEventsScaledShiftedAndOverlapping() {
        let evaluator = PatternEvaluator(AHAPDocument(pattern: [
            continuous(at: 0, 2, 0.5, 0.2),
            continuous(at: 1, 2, 0.8, 0.6),
            parameter(intensityID, at: 0, 0.5),
            parameter(sharpnessID, at: 0, 0.5),
        ]))
        XCTAssertEqual(evaluator.continuousIntensity(at: 0.5), 0.25, accuracy: 1e-12)
        XCTAssertEqual(evaluator.continuousIntensity(at: 1.5), 0.4, accuracy: 1e-12, "overlap: the stronger event")
        XCTAssertEqual(evaluator.continuousSharpness(at: 1.5)!, 1, accuracy: 1e-12, "0.6 + 0.5 clamped")
        XCTAssertEqual(evaluator.continuousSharpness(at: 0.5)!, 0.7, accuracy: 1e-12)
        XCTAssertEqual(evaluator.continuousIntensity(at: 3), 0, "ends are exclusive")
        XCTAssertNil(evaluator.continuousSharpness(at: 3))
        XCTAssertNil(evaluator.continuousSharpness(at: -1))
        XCTAssertEqual(evaluator.hapticEndTime, 3)
    }

    func testTransientsUnderBothSharpnessReadings() {
        let evaluator = PatternEvaluator(AHAPDocument(pattern: [
            transient(at: 2, 0.9, 0.1),
            curve(intensityID, at: 0, [(0, 1), (2, 0)]),
            curve(sharpnessID, at: 0, [(0, 0), (2, 0.4)]),
            transient(at: 1, 0.8, 0.3),
            .event(AHAPEvent(time: 3, type: .hapticTransient)),
        ]))
        XCTAssertEqual(evaluator.transients.map(\.patternIndex), [3, 0, 4], "in time order")
        let first = evaluator.transients[0]
        XCTAssertEqual(first.effectiveIntensity, 0.4, accuracy: 1e-12)
        XCTAssertEqual(first.effectiveSharpness(.continuousOnly), 0.3, accuracy: 1e-12)
        XCTAssertEqual(first.effectiveSharpness(.allHapticEvents), 0.5, accuracy: 1e-12)
        XCTAssertEqual(evaluator.transients[1].effectiveIntensity, 0, "silenced by a curve ending at 0")
        let defaults = evaluator.transients[2]
        XCTAssertEqual(defaults.eventIntensity, PatternEvaluator.assumedIntensity)
        XCTAssertEqual(defaults.eventSharpness, PatternEvaluator.assumedSharpness)
    }

    func testSamplingOnARegularGrid() {
        let evaluator = PatternEvaluator(AHAPDocument(pattern: [
            continuous(at: 0, 1, 1, 0.5),
            curve(intensityID, at: 0, [(0, 0), (1, 1)]),
        ]))
        let samples = evaluator.samples(step: 0.25)
        XCTAssertEqual(samples.map(\.time), [0, 0.25, 0.5, 0.75, 1])
        XCTAssertEqual(samples.map(\.continuousIntensity), [0, 0.25, 0.5, 0.75, 0])
        XCTAssertEqual(samples.map(\.intensityControl), [0, 0.25, 0.5, 0.75, 1])
        XCTAssertEqual(samples.last?.continuousSharpness, nil)
        XCTAssertEqual(evaluator.samples(step: 0.1, from: 2, through: 2.3).count, 4)
        XCTAssertTrue(evaluator.samples(step: 0).isEmpty)
        XCTAssertTrue(evaluator.samples(step: .nan).isEmpty)
    }

    func testMalformedCurvesStillEvaluateToFiniteValues() {
        let evaluator = PatternEvaluator(AHAPDocument(pattern: [
            curve(intensityID, at: 0, [(1, 0.2), (0.5, 0.8), (0.5, 0.4), (2, 0.6)]),
            curve(sharpnessID, at: 0, []),
        ]))
        for t in stride(from: -1.0, through: 3, by: 0.05) {
            XCTAssertTrue(evaluator.controlValue(intensityID, at: t).isFinite)
        }
        XCTAssertEqual(evaluator.controlValue(sharpnessID, at: 1), 0, "an empty curve changes nothing")
    }
}
