import Foundation
@testable import TactusAHAP

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
