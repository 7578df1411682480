import Foundation
import Tactus
import TactusAHAP
import TactusCore
import TactusFiles
import TactusTestSupport
import XCTest

/// The one-file AHAP on Corpus sounds with transients over a body: each transient plays its
/// own intensity, and the body within ±10 ms of it plays as the track says wherever the
/// transient is weaker than the body's control there, and otherwise rises only as far as the
/// transient needs (at most to its region's peak × the transient's intensity), never to the peak.
final class BodyAroundTransientsTests: XCTestCase {
    func testTheBodyStaysTrueAroundTransients() throws {
        let folder = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: folder) }
        var unlifted = 0, lifted = 0
        for name in ["ambience/hits_fire_snr20.wav", "ambience/hits_rain_snr20.wav", "clipped/kicks_clipped.wav", "multi/glass_break.wav"] {
            let result = try Converter(preset: try shippedPreset(), formats: [AHAPFormat()], log: CommittedFiles())
                .convert(Corpus.root.appendingPathComponent(name), to: folder)
            let track = result.track
            let document = try AHAPDecoder().decode(Data(contentsOf: result.outputs[0].url))
            let played = PatternEvaluator(document)
            // Where the writer splits a region, the control ramps over one 10 µs grid step,
            // during which the body dips (never rises) between the two segments' ratios.
            let continuous = document.pattern.compactMap { element -> AHAPEvent? in
                if case .event(let event) = element, event.type == .hapticContinuous { return event }
                return nil
            }
            let splits = continuous.map(\.time).filter { start in continuous.contains { abs($0.time + $0.duration! - start) < 1e-9 } }
            func nearSplit(_ t: Double) -> Bool { splits.contains { abs($0 - t) <= AHAPEncoder.timeResolution } }
            XCTAssertEqual(played.transients.count, track.transients.count, name)
            for (transient, wanted) in zip(played.transients, track.transients) {
                XCTAssertEqual(transient.effectiveIntensity, wanted.intensity, accuracy: 0.01, "\(name) at \(wanted.time)")
            }
            for wanted in track.transients {
                guard let region = track.region(at: wanted.time), track.region(at: wanted.time - 0.01)?.start == region.start,
                      track.region(at: wanted.time + 0.01)?.start == region.start else { continue }
                let peak = region.intensity.map(\.value).max()!
                let needsLift = wanted.intensity > track.continuousIntensity(at: wanted.time) / peak + 0.005
                if needsLift { lifted += 1 } else { unlifted += 1 }
                for t in stride(from: wanted.time - 0.01, through: wanted.time + 0.01, by: 0.0005) {
                    let body = track.continuousIntensity(at: t)
                    let context = "\(name): transient at \(wanted.time), t = \(t)"
                    if needsLift {
                        XCTAssertLessThanOrEqual(played.continuousIntensity(at: t), max(body, peak * wanted.intensity) + 0.01, context)
                        if !nearSplit(t) { XCTAssertGreaterThanOrEqual(played.continuousIntensity(at: t), body - 0.01, context) }
                    } else if track.transients.allSatisfy({ $0.time == wanted.time || abs($0.time - t) > 0.006 }), !nearSplit(t) {
                        XCTAssertEqual(played.continuousIntensity(at: t), body, accuracy: 0.01, context)
                    }
                }
            }
        }
        XCTAssertGreaterThan(unlifted, 0, "transients weaker than the body's control")
        XCTAssertGreaterThan(lifted, 0, "transients stronger than it")
    }
}
