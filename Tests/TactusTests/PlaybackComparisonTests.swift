import Foundation
import Tactus
import TactusAHAP
import TactusCore
import TactusFiles
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

/// The continuous sharpness comparison and the edge mask, on what a Corpus sound's AHAP plays.
final class PlaybackComparisonSharpnessTests: XCTestCase {
    /// What Corpus's engine loop (a sustained body) plays through its AHAP (shipped preset); it
    /// has a region still felt (above 0.05) 3 ms before its end.
    private func corpusTrack() throws -> HapticTrack {
        let folder = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Converter(preset: try shippedPreset(), formats: [AHAPFormat()], log: CommittedFiles())
            .convert(Corpus.root.appendingPathComponent("clean/engine_loop.wav"), to: folder)
        let track = try AHAPFormat().read(Data(contentsOf: result.output(AHAPFormat.id)!)).track
        XCTAssertTrue(track.regions.contains { Polyline.value(of: $0.intensity, at: $0.end - 0.003) > 0.05 })
        return track
    }

    func testSharpnessDifferenceIsMeasuredWhereBothPlay() throws {
        let track = try corpusTrack()
        let same = PlaybackComparison(reference: track, candidate: track)
        XCTAssertEqual(same.sharpnessWorst, 0)
        XCTAssertEqual(same.sharpnessSamples, same.envelopeSamples)
        XCTAssertEqual(same.referenceRegions, track.regions.count)
        var duller = track
        for r in duller.regions.indices {
            duller.regions[r].sharpness = duller.regions[r].sharpness.map { .init(time: $0.time, value: $0.value - 0.1) }
        }
        let compared = PlaybackComparison(reference: track, candidate: duller)
        XCTAssertEqual(compared.sharpnessWorst, 0.1, accuracy: 1e-9)
        XCTAssertEqual(compared.envelopeWorst, 0)
        // Without regions in the candidate: no instant where both play, every region lost.
        var bare = track
        bare.regions = []
        let withoutBody = PlaybackComparison(reference: track, candidate: bare)
        XCTAssertEqual(withoutBody.sharpnessSamples, 0)
        XCTAssertEqual(withoutBody.candidateRegions, 0)
        XCTAssertGreaterThan(withoutBody.envelopeWorst, 0.01)
    }

    func testEdgeMaskLeavesOutOnlyTheRegionsEnds() throws {
        let track = try corpusTrack()
        // Every region still felt 3 ms before its end ending 3 ms early: differs at the ends only.
        var shorter = track
        for r in shorter.regions.indices where Polyline.value(of: track.regions[r].intensity, at: track.regions[r].end - 0.003) > 0.05 {
            shorter.regions[r].end -= 0.003
            shorter.regions[r].intensity = HapticTrack.clipped(shorter.regions[r].intensity, from: shorter.regions[r].start, to: shorter.regions[r].end)
            shorter.regions[r].sharpness = HapticTrack.clipped(shorter.regions[r].sharpness, from: shorter.regions[r].start, to: shorter.regions[r].end)
        }
        let unmasked = PlaybackComparison(reference: track, candidate: shorter)
        XCTAssertGreaterThan(unmasked.envelopeWorst, 0.01, "the ends play in the reference only")
        let masked = PlaybackComparison(reference: track, candidate: shorter, edgeMask: 0.004)
        XCTAssertEqual(masked.envelopeWorst, 0, accuracy: 1e-12)
        XCTAssertEqual(masked.sharpnessWorst, 0, accuracy: 1e-12)
        XCTAssertLessThan(masked.envelopeSamples, unmasked.envelopeSamples)
        // A mask too narrow for the shift still sees it.
        XCTAssertGreaterThan(PlaybackComparison(reference: track, candidate: shorter, edgeMask: 0.0005).envelopeWorst, 0.01)
    }
}
