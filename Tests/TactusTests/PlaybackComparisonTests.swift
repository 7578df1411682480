import Tactus
import TactusCore
import TactusTestSupport
import XCTest

/// `PlaybackComparison` pairs transients as the plain rule says — each reference transient, in
/// time order, with the nearest unpaired candidate within `matchWindow`, the earlier one on a
/// tie — however it finds them.
final class PlaybackComparisonTests: XCTestCase {
    /// The rule written out directly (quadratic where transients crowd): the pairs' count and
    /// worst errors.
    private func plainPairing(_ reference: [HapticTrack.Transient], _ candidate: [HapticTrack.Transient])
        -> (Int, Double, Double, Double) {
        let candidates = candidate.sorted { $0.time < $1.time }
        var used = [Bool](repeating: false, count: candidates.count)
        var (pairs, time, intensity, sharpness) = (0, 0.0, 0.0, 0.0)
        for transient in reference.sorted(by: { $0.time < $1.time }) {
            let window = (transient.time - PlaybackComparison.matchWindow)...(transient.time + PlaybackComparison.matchWindow)
            let nearest = candidates.indices.filter { !used[$0] && window.contains(candidates[$0].time) }
                .min { abs(candidates[$0].time - transient.time) < abs(candidates[$1].time - transient.time) }
            guard let nearest else { continue }
            used[nearest] = true
            pairs += 1
            time = max(time, abs(candidates[nearest].time - transient.time))
            intensity = max(intensity, abs(candidates[nearest].intensity - transient.intensity))
            sharpness = max(sharpness, abs(candidates[nearest].sharpness - transient.sharpness))
        }
        return (pairs, time, intensity, sharpness)
    }

    func testTransientsPairAsThePlainRuleSaysWithCrowdsAndTies() {
        var random = SeededGenerator(seed: 11)
        for round in 0..<300 {
            // Times on a 10 ms grid over 0.3 s, so many coincide or lie exactly a window apart.
            func transients(_ count: Int) -> [HapticTrack.Transient] {
                (0..<count).map { _ in
                    HapticTrack.Transient(time: Double(random.next() % 30) / 100, intensity: random.unit(),
                                          sharpness: random.unit())
                }
            }
            let reference = transients(Int(random.next() % 40)), candidate = transients(Int(random.next() % 40))
            let compared = PlaybackComparison(reference: HapticTrack(duration: 1, transients: reference, regions: []),
                                              candidate: HapticTrack(duration: 1, transients: candidate, regions: []))
            let (pairs, time, intensity, sharpness) = plainPairing(reference, candidate)
            XCTAssertEqual(compared.pairedTransients, pairs, "round \(round)")
            XCTAssertEqual(compared.worstTimeError, time, "round \(round)")
            XCTAssertEqual(compared.worstIntensityError, intensity, "round \(round)")
            XCTAssertEqual(compared.worstSharpnessError, sharpness, "round \(round)")
        }
    }
}
