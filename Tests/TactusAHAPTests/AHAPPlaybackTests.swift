import TactusCore
import XCTest
@testable import TactusAHAP

/// What an AHAP plays, read through `AHAPImport` into the track and played by the neutral
/// evaluator, agrees with `PatternEvaluator` (AHAP's own semantics): controls scale events
/// and curves interpolate the same way.
final class AHAPPlaybackTests: XCTestCase {
    func testControlsScaleAndCurvesInterpolateAsCoreHapticsPlays() {
        let intensity = AHAPParameterID.hapticIntensityControl, sharpness = AHAPParameterID.hapticSharpnessControl
        func event(_ type: AHAPEventType, _ time: Double, _ duration: Double?, _ i: Double, _ s: Double) -> AHAPElement {
            .event(AHAPEvent(time: time, type: type, duration: duration,
                             parameters: [.init(id: "HapticIntensity", value: i), .init(id: "HapticSharpness", value: s)]))
        }
        let document = AHAPDocument(pattern: [
            event(.hapticContinuous, 0.5, 2, 0.8, 0.4),
            .curve(AHAPParameterCurve(parameterID: intensity, time: 0.5,
                                      controlPoints: [.init(time: 0, value: 1), .init(time: 1, value: 0.25)])),
            .parameter(AHAPDynamicParameter(parameterID: sharpness, time: 1.0, value: 0.3)),
            event(.hapticTransient, 1.0, nil, 0.9, 0.6),
        ])
        let evaluator = PatternEvaluator(document)
        let playback = HapticPlayback(AHAPImport.imported(from: document).track)
        XCTAssertEqual(playback.transients.count, 1)
        XCTAssertEqual(playback.transients[0].intensity, 0.9 * 0.625, accuracy: 1e-12, "scaled by the control at 1 s")
        XCTAssertEqual(playback.transients[0].sharpness, 0.6, "the sharpness control acts on continuous haptics")
        for t in stride(from: 0.0, through: 3, by: 0.01) {
            XCTAssertEqual(playback.continuousIntensity(at: t), evaluator.continuousIntensity(at: t), accuracy: 1e-9, "at \(t)")
            XCTAssertEqual(playback.continuousSharpness(at: t) ?? -1, evaluator.continuousSharpness(at: t) ?? -1,
                           accuracy: 1e-9, "at \(t)")
        }
        XCTAssertEqual(playback.continuousIntensity(at: 1.25), 0.8 * (1 - 0.75 * 0.75), accuracy: 1e-12)
        XCTAssertEqual(playback.endTime, evaluator.hapticEndTime)
    }
}
