import Foundation
import TactusCore
import TactusMapping
import TactusTestSupport
import XCTest

/// The mapping's small parts against their definitions.
final class MappingPartsTests: XCTestCase {
    func testDecibelScale() {
        let scale = DecibelScale(floorDb: -60, ceilingDb: 0, gamma: 1)
        XCTAssertEqual(scale(-60), 0)
        XCTAssertEqual(scale(-90), 0, "clamped below the floor")
        XCTAssertEqual(scale(0), 1)
        XCTAssertEqual(scale(6), 1, "clamped above the ceiling")
        XCTAssertEqual(scale(-30), 0.5, accuracy: 1e-12)
        XCTAssertEqual(DecibelScale(floorDb: -60, ceilingDb: 0, gamma: 2)(-30), 0.25, accuracy: 1e-12)
        XCTAssertEqual(DecibelScale(floorDb: -60, ceilingDb: 0, gamma: 0.5)(-30), 0.5.squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(DecibelScale(floorDb: -10, ceilingDb: -20, gamma: 1).ceilingDb, -9.9, accuracy: 1e-12,
                       "a ceiling at or below the floor is moved just above it")
    }

    func testLogFrequencyScale() {
        let scale = LogFrequencyScale(lowHz: 150, highHz: 6_000)
        XCTAssertEqual(scale(150), 0)
        XCTAssertEqual(scale(6_000), 1)
        XCTAssertEqual(scale(0), 0)
        XCTAssertEqual(scale(30_000), 1)
        XCTAssertEqual(scale((150 * 6_000.0).squareRoot()), 0.5, accuracy: 1e-12, "the geometric middle is halfway")
    }

    /// A step rises with the attack time constant and falls with the release one.
    func testEnvelopeFollowerTimeConstants() {
        let follower = EnvelopeFollower(attackMs: 10, releaseMs: 50, stepSeconds: 0.001)
        var rise = [Float](repeating: 0, count: 1) + [Float](repeating: 1, count: 100)
        follower.smooth(&rise)
        XCTAssertEqual(Double(rise[10]), 1 - exp(-1), accuracy: 0.01, "63 % after one attack time")
        var fall = [Float](repeating: 1, count: 1) + [Float](repeating: 0, count: 200)
        follower.smooth(&fall)
        XCTAssertEqual(Double(fall[50]), exp(-1), accuracy: 0.01, "37 % left after one release time")
        var still = [Float](repeating: 0.3, count: 20)
        follower.smoothWithoutLag(&still)
        XCTAssertEqual(still, [Float](repeating: 0.3, count: 20), "a constant stays itself")
        var unsmoothed: [Float] = [0, 1, 0, 1]
        EnvelopeFollower(attackMs: 0, releaseMs: 0, stepSeconds: 0.01).smooth(&unsmoothed)
        XCTAssertEqual(unsmoothed, [0, 1, 0, 1])
    }
}
