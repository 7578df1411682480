import TactusPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

package extension String {
    /// C's `printf` formatting (`%.2f`, `%5d`, `%016llx`, `%04X`) through the C library's
    /// `vsnprintf`, in the C locale — the text `String(format:)` gives for these conversions,
    /// without Foundation. No `%@`: pass strings by interpolation.
    init(printf format: String, _ arguments: CVarArg...) {
        var capacity = 128
        while true {
            var buffer = [CChar](repeating: 0, count: capacity)
            let length = withVaList(arguments) { list in
                buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, capacity, format, list) }
            }
            precondition(length >= 0, "invalid format \(format)")
            if Int(length) < capacity {
                self = String(decoding: buffer[..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return
            }
            capacity = Int(length) + 1
        }
    }

    /// The string without leading and trailing tabs and space separators (Unicode Zs): what
    /// Foundation's `trimmingCharacters(in: .whitespaces)` removes.
    func trimmingWhitespaces() -> String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
              let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(scalars[first...last])
    }
}

package extension String {
    /// The string without leading and trailing `"`: `trimmingCharacters(in: ["\""])`.
    func trimmingQuotes() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != "\"" }),
              let last = scalars.lastIndex(where: { $0 != "\"" }) else { return "" }
        return String(scalars[first...last])
    }
}

package extension Substring {
    /// See `String.trimmingWhitespaces()`.
    func trimmingWhitespaces() -> String { String(self).trimmingWhitespaces() }
}
