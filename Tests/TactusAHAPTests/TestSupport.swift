import Foundation
@testable import TactusAHAP

/// SplitMix64: a tiny seeded generator, so "random" tests fail the same way every run.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension AHAPDocument {
    var events: [AHAPEvent] {
        pattern.compactMap { if case .event(let event) = $0 { return event } else { return nil } }
    }

    var curves: [AHAPParameterCurve] {
        pattern.compactMap { if case .curve(let curve) = $0 { return curve } else { return nil } }
    }
}

/// Parses JSON test fixtures written as Swift strings.
func data(_ json: String) -> Data { Data(json.utf8) }
