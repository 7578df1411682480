/// Who may talk to a `tactus tune` server: only a page it served, on the address it serves.
///
/// - The `Host` must be exactly `127.0.0.1:<port>`: a page of another site whose name was made
///   to resolve to 127.0.0.1 (DNS rebinding) sends its own name and is refused.
/// - An `Origin`, when sent (browsers send it with every script request but plain GETs), must
///   be exactly `http://127.0.0.1:<port>`: another page's script is refused even on loopback.
/// - Every request carries the run's random token, in the `token` query item (the printed URL,
///   the page's own assets) or the `X-Tactus-Token` header (the page's requests).
public struct TuneAccess: Sendable {
    /// The request header that may carry the token (the page sends it there).
    public static let tokenHeader = "X-Tactus-Token"
    /// The run's token; a request without it is refused.
    public let token: String

    /// - Parameter token: the run's token (`makeToken()`).
    public init(token: String) {
        self.token = token
    }

    /// A fresh token: 32 random bytes from the system's generator, as hex.
    /// - Returns: 64 lowercase hex digits.
    public static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte >> 4, radix: 16) + String(byte & 15, radix: 16)
        }.joined()
    }

    /// Why a request is refused, or nil when it may be served.
    /// - Parameters:
    ///   - host: the `Host` header (nil when missing).
    ///   - origin: the `Origin` header (nil when missing).
    ///   - given: the token the request carries (query item or header; nil when none).
    ///   - port: the port being served.
    /// - Returns: the reason for a 403 answer, or nil.
    public func refusal(host: String?, origin: String?, token given: String?, port: Int) -> String? {
        let authority = "127.0.0.1:\(port)"
        guard host == authority else { return "Host must be \(authority)" }
        if let origin, origin != "http://" + authority { return "Origin must be http://\(authority)" }
        guard let given, Self.same(given, token) else { return "a valid token is required" }
        return nil
    }

    /// Compares in time that depends only on the lengths.
    private static func same(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
