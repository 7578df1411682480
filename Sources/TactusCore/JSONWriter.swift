import TactusPlatform

extension JSONValue {
    /// The value as pretty-printed JSON text: two-space indentation, one member or item per
    /// line, `"key": value`, object members in their stored order, numbers as
    /// `JSONText.shortest` writes them, and a final newline. Deterministic on every platform.
    /// - Precondition: every number is finite (JSON has no NaN or infinity).
    /// - Returns: the text, ending with a newline.
    public func prettyText() -> String {
        var out = ""
        write(to: &out, indent: "")
        return out + "\n"
    }

    /// The value as `prettyText` lays it out, for a value that sits `level` containers deep in
    /// a larger text (a format's streamed file, whose bulk is written piece by piece around
    /// it): every line after the first indented by two more spaces per level, no final
    /// newline. `prettyText(nestedAt: 0)` is `prettyText()` without its final newline.
    /// - Parameter level: how many containers enclose the value (≥ 0).
    /// - Returns: the value's text, without a final newline.
    /// - Precondition: every number is finite.
    public func prettyText(nestedAt level: Int) -> String {
        var out = ""
        write(to: &out, indent: String(repeating: "  ", count: level))
        return out
    }

    /// The value as JSON text on one line, without spaces (for messages between programs,
    /// such as `tactus tune`'s page and server); numbers and order as `prettyText` writes them.
    /// - Precondition: every number is finite.
    /// - Returns: the text, without a newline.
    public func compactText() -> String {
        var out = ""
        write(to: &out, indent: nil)
        return out
    }

    /// Pretty-printed with `indent` before each nested line; on one line when `indent` is nil.
    private func write(to out: inout String, indent: String?) {
        let inner = indent.map { $0 + "  " }
        let (open, separator, close) = indent.map { ("\n" + $0 + "  ", ",\n" + $0 + "  ", "\n" + $0) } ?? ("", ",", "")
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let value):
            precondition(value.isFinite, "JSON has no NaN or infinity, got \(value)")
            out += JSONText.shortest(value)
        case .string(let value): JSONText.appendQuoted(value, to: &out)
        case .array(let items):
            guard !items.isEmpty else { out += "[]"; return }
            out += "[" + open
            for (index, item) in items.enumerated() {
                if index > 0 { out += separator }
                item.write(to: &out, indent: inner)
            }
            out += close + "]"
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            out += "{" + open
            for (index, member) in members.enumerated() {
                if index > 0 { out += separator }
                JSONText.appendQuoted(member.key, to: &out)
                out += indent == nil ? ":" : ": "
                member.value.write(to: &out, indent: inner)
            }
            out += close + "}"
        }
    }

    /// An object whose members are sorted by key (for outputs that must not depend on the
    /// order things were found in).
    /// - Parameter members: the members, by key.
    /// - Returns: the object, keys in ascending order.
    public static func sortedObject(_ members: [String: JSONValue]) -> JSONValue {
        .object(members.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })
    }

    /// `nil` as JSON null.
    /// - Parameters:
    ///   - value: a value, or nil.
    ///   - wrap: makes the JSON of a value.
    /// - Returns: `wrap(value)`, or `.null`.
    public static func optional<T>(_ value: T?, _ wrap: (T) -> JSONValue) -> JSONValue {
        value.map(wrap) ?? .null
    }

    /// The value as a string array, if it is one.
    public var stringArray: [String]? {
        guard case .array(let items) = self else { return nil }
        var strings: [String] = []
        for item in items {
            guard case .string(let text) = item else { return nil }
            strings.append(text)
        }
        return strings
    }

    /// The number, if the value is one.
    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The string, if the value is one.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}
