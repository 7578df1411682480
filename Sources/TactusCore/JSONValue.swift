import TactusPlatform

/// A parsed JSON value that keeps object keys in file order, duplicates included.
/// Shared by the AHAP reader and the preset reader (both are fuzzed).
///
/// The decoder and validator parse with this small reader instead of `JSONSerialization`
/// because they must (1) never crash on arbitrary bytes — nesting depth is bounded, so
/// "[[[[…" cannot exhaust the stack; (2) report positions and paths; (3) keep metadata
/// order; (4) see overflowing numbers such as `1e999` (kept as ±infinity so the caller can
/// name them) and duplicate keys, which Foundation hides or handles differently per platform.
public enum JSONValue: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number; one too large for a Double is ±infinity.
    case number(Double)
    /// A string, escapes resolved. Boxed, so that a value takes 16 bytes rather than 24 (an
    /// object's member 32 rather than 40): a long AHAP's tree is mostly numbers, and its strings
    /// are few.
    indirect case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object's members in file order, duplicates kept.
    case object([(key: String, value: JSONValue)])

    /// The last value stored under `key`, as a dictionary-based reader (Core Haptics) keeps it.
    /// - Parameter key: a member name.
    /// - Returns: the value, or nil when the value is not an object or has no such member.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.key == key })?.value
    }

    /// True for an object or an array: a value that holds others.
    public var isContainer: Bool {
        switch self {
        case .object, .array: return true
        default: return false
        }
    }

    /// A short name of the value's kind, for messages ("expected a number, found a string").
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A JSON syntax error, with the line and column (1-based, in bytes) where it was found.
public struct JSONSyntaxError: Error, Sendable, CustomStringConvertible {
    /// What is wrong there.
    public var message: String
    /// Line, from 1.
    public var line: Int
    /// Column in bytes, from 1.
    public var column: Int

    /// The error with its place, on one line.
    public var description: String { "invalid JSON at line \(line), column \(column): \(message)" }
}

/// A strict RFC 8259 reader over UTF-8 bytes (a leading byte-order mark is skipped).
public struct JSONReader {
    /// Far deeper than any AHAP (which nests six levels), far shallower than the stack allows.
    static let maxDepth = 256

    /// The document's bytes, read in place (a copy would double the memory a large file takes).
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    /// Parses a whole document in bounded time and memory: beside `data` (read in place), only
    /// the tree it returns.
    /// - Parameter data: UTF-8 bytes, untrusted.
    /// - Returns: the value.
    /// - Throws: a `JSONSyntaxError` with the line and column of the first error, including nesting
    ///   deeper than 256 levels and anything after the value.
    public static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { raw in
            var reader = JSONReader(raw.bindMemory(to: UInt8.self))
            reader.skipWhitespace()
            let value = try reader.value(depth: 0)
            reader.skipWhitespace()
            guard reader.index == reader.bytes.count else { throw reader.error("unexpected text after the JSON value") }
            return value
        }
    }

    /// The first member named `key` of the document's top-level object, read without what
    /// follows it: a header (a format's metadata) from a file's first bytes.
    ///
    /// It takes the first of duplicated members, not the last as `JSONValue`'s subscript does,
    /// since it reads no further; the members before it are parsed as `parse` parses them.
    /// - Parameters:
    ///   - key: the member's name.
    ///   - data: UTF-8 bytes, untrusted; may be only the start of a document.
    /// - Returns: the member's value, or nil when the object ends without one.
    /// - Throws: a `JSONSyntaxError` where the bytes up to the member's end are not the start
    ///   of an object, including bytes that end before it does.
    public static func firstMember(_ key: String, in data: Data) throws -> JSONValue? {
        try data.withUnsafeBytes { raw in
            var reader = JSONReader(raw.bindMemory(to: UInt8.self))
            reader.skipWhitespace()
            guard reader.current == UInt8(ascii: "{") else { throw reader.error("expected an object at the top level") }
            return try reader.object(depth: 0, until: key)[key]
        }
    }

    private func error(_ message: String) -> JSONSyntaxError {
        let head = bytes[..<min(index, bytes.count)]
        let line = head.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let lineStart = head.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        return JSONSyntaxError(message: message, line: line, column: index - lineStart + 1)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func expect(_ literal: String, _ value: JSONValue) throws -> JSONValue {
        let utf8 = Array(literal.utf8)
        guard bytes[index...].starts(with: utf8) else { throw error("unknown literal") }
        index += utf8.count
        return value
    }

    private mutating func value(depth: Int) throws -> JSONValue {
        guard depth < Self.maxDepth else { throw error("nesting deeper than \(Self.maxDepth) levels") }
        guard let byte = current else { throw error("unexpected end of data") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected character")
        }
    }

    /// An object; with `wanted`, only its first member of that name, as soon as it is read.
    private mutating func object(depth: Int, until wanted: String? = nil) throws -> JSONValue {
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
            index += 1
            skipWhitespace()
            let member = try value(depth: depth + 1)
            if key == wanted { return .object([(key, member)]) }
            members.append((key, member))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw error("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func array(depth: Int) throws -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try value(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(items)
            default: throw error("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func digits() -> Int {
        let start = index
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    /// A number per the JSON grammar; overflow yields ±infinity for the caller to report.
    private mutating func number() throws -> Double {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            throw error("expected a digit")
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("expected a digit after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("expected a digit in the exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text) else { throw error("unreadable number") }
        return value
    }

    private mutating func string() throws -> String {
        index += 1
        var run = index  // start of the current run of unescaped bytes
        var text = ""
        while true {
            guard let byte = current else { throw error("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                let tail = try utf8(run..<index)
                index += 1
                return text.isEmpty ? tail : text + tail
            case UInt8(ascii: "\\"):
                text += try utf8(run..<index)
                index += 1
                text.unicodeScalars.append(try escape())
                run = index
            case 0..<0x20:
                throw error("control character in a string")
            default:
                index += 1
            }
        }
    }

    /// The bytes in `range` as text; invalid UTF-8 is an error, not replaced.
    private func utf8(_ range: Range<Int>) throws -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        // ASCII (nearly every key and value) needs no validation.
        if !slice.contains(where: { $0 >= 0x80 }) { return String(decoding: slice, as: UTF8.self) }
        guard let text = String(validating: slice, as: UTF8.self) else { throw error("invalid UTF-8 in a string") }
        return text
    }

    /// The character after a backslash (the backslash already consumed).
    private mutating func escape() throws -> Unicode.Scalar {
        guard let byte = current else { throw error("unterminated escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try hex4()
            if (0xD800..<0xDC00).contains(unit) {
                guard bytes[index...].starts(with: Array("\\u".utf8)) else { throw error("unpaired surrogate") }
                index += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate") }
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(unit) else { throw error("unpaired surrogate") }
            return scalar
        default:
            throw error("unknown escape")
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count,
              let unit = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
              bytes[index..<index + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
        else { throw error("expected four hex digits") }
        index += 4
        return unit
    }
}
