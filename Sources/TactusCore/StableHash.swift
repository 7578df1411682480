/// FNV-1a (64-bit) of a text's UTF-8 bytes: a small fingerprint that is the same on every
/// platform and run (Swift's `Hasher` is seeded per process), for names and provenance.
/// - Parameter text: any text.
/// - Returns: the 64-bit hash.
public func fnv1a64(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
}
