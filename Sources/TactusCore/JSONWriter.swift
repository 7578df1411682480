import TactusPlatform

/// How a JSON container lays out its members or items, chosen when it opens.
public enum JSONLayout: Equatable, Sendable {
    /// One member or item per line, two spaces of indentation per enclosing container,
    /// `"key": value`; an empty container is `{}` or `[]`.
    case lines
    /// On one line, `{"a": 1, "b": 2}`, `[1, 2]`.
    case inline
    /// On one line with a space inside the braces, `{ "a": 1, "b": 2 }`, `[ 1, 2 ]`.
    case padded
    /// On one line without any space, `{"a":1,"b":2}`, `[1,2]` (text between programs).
    case compact
    /// Items `perLine` to a line, `[1, 2, 3,` then each further line indented as `lines` indents
    /// members, the bracket closing after the last item (long number series). `perLine` ≥ 1.
    case wrapped(perLine: Int)
    /// Items one per line, the first right after the opening bracket and each further one at
    /// the indentation of the line the container opens on; the bracket closes right after the
    /// last item, and the container adds no indentation to the containers in it:
    /// `"enum": ["a",` / `"b"]`, `"pairs": [{` … `}]` (the preset schema).
    case hanging
}

/// How a number becomes text (`JSONText` makes the digits).
public enum JSONNumberFormat: Equatable, Sendable {
    /// The shortest text that reads back as the same double (`JSONText.shortest`).
    case shortest
    /// Rounded to `digits` decimals (0…9), trailing zeros dropped, never `-0` nor an exponent
    /// (`JSONText.fixed`).
    case fixed(digits: Int)
    /// As `fixed`, but a whole number keeps a decimal point: `1.0` (AHAP's `Version`).
    case fixedWithPoint(digits: Int)
}

/// Writes JSON text: the one place that decides Tactus's JSON punctuation, indentation,
/// separators, line layout and number text.
///
/// The caller states the structure (`beginObject`, `key`, `number`, …, `endObject`) and the
/// `JSONLayout` of each container as it opens; numbers are written in a stated
/// `JSONNumberFormat`. A document written with `stream(to:pieceBytes:_:)` is handed to its sink in
/// pieces of about `pieceBytes` UTF-8 bytes as it grows, so a long document never exists as one
/// text; `text(endingWithNewline:_:)` gathers one string. The output depends only on the calls
/// made: the same on every platform and locale.
///
/// Misuse (a value where a key is due, an end that does not match its begin, a non-finite
/// number) is a programming error and stops the program with a `precondition`.
public struct JSONWriter {
    /// Bytes gathered before a streamed writer hands a piece to its sink.
    public static let defaultPieceBytes = 1 << 16

    /// An open container.
    private struct Container {
        var isObject: Bool
        var layout: JSONLayout
        var count = 0
    }

    /// The text not yet handed on, as UTF-8 (appending bytes costs a fraction of appending
    /// to a `String`).
    private var buffer: [UInt8] = []
    private var open: [Container] = []
    /// How many of the open containers are `hanging` (they add no indentation).
    private var openHanging = 0
    /// A key has been written and its value is due.
    private var keyPending = false
    /// The document's one value has been started.
    private var wroteDocument = false
    private let pieceBytes: Int
    private let sink: ((String) throws -> Void)?
    /// The first error the sink threw; nothing is handed on after it.
    private var sinkError: (any Error)?

    private init(pieceBytes: Int, sink: ((String) throws -> Void)?) {
        self.pieceBytes = pieceBytes
        self.sink = sink
        if sink != nil { buffer.reserveCapacity(pieceBytes + pieceBytes / 4) }
    }

    /// Writes one document and hands it to `emit` in pieces, ending with a newline.
    /// - Parameters:
    ///   - emit: receives the pieces in order; their concatenation is the document. Once it
    ///     throws it is not called again, and its error is rethrown after `write` returns.
    ///   - pieceBytes: UTF-8 bytes gathered before a piece is handed on (≥ 1).
    ///   - write: writes exactly one value (usually an object) into the writer it is given.
    /// - Throws: the first error `emit` threw.
    public static func stream<Failure: Error>(to emit: (String) throws(Failure) -> Void,
                                              pieceBytes: Int = defaultPieceBytes,
                                              _ write: (inout JSONWriter) -> Void) throws(Failure) {
        precondition(pieceBytes >= 1, "pieces need at least one byte")
        let failure: (any Error)? = withoutActuallyEscaping(emit) { emit in
            var writer = JSONWriter(pieceBytes: pieceBytes, sink: { try emit($0) })
            write(&writer)
            writer.finishDocument(endingWithNewline: true)
            writer.flush()
            return writer.sinkError
        }
        // `emit` throws only `Failure`, so that is what the writer caught.
        if let failure { throw failure as! Failure }
    }

    /// Writes one value and returns its text.
    /// - Parameters:
    ///   - endingWithNewline: whether a newline follows the value (a file's or a command's
    ///     output) or not (a message, a fragment).
    ///   - write: writes exactly one value into the writer it is given.
    /// - Returns: the text.
    public static func text(endingWithNewline: Bool = true, _ write: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter(pieceBytes: .max, sink: nil)
        write(&writer)
        writer.finishDocument(endingWithNewline: endingWithNewline)
        return String(decoding: writer.buffer, as: UTF8.self)
    }

    // MARK: - Structure

    /// Opens an object as a member's value, an array's item or the document.
    /// - Parameter layout: how its members are laid out.
    public mutating func beginObject(_ layout: JSONLayout = .lines) {
        begin(isObject: true, layout: layout)
    }

    /// Closes the innermost container, which must be an object with no key waiting for a value.
    public mutating func endObject() {
        end(isObject: true)
    }

    /// Opens an array as a member's value, an array's item or the document.
    /// - Parameter layout: how its items are laid out.
    public mutating func beginArray(_ layout: JSONLayout = .lines) {
        begin(isObject: false, layout: layout)
    }

    /// Closes the innermost container, which must be an array.
    public mutating func endArray() {
        end(isObject: false)
    }

    /// Starts a member of the innermost container, an object: its separator and key; the
    /// member's value is written next.
    /// - Parameter name: the key, any text (escaped as JSON requires).
    public mutating func key(_ name: String) {
        precondition(!keyPending && open.last?.isObject == true, "a key outside an object, or two keys in a row")
        startItem()
        let colon = open[open.count - 1].layout == .compact ? "\":" : "\": "
        if JSONText.needsEscape(name) {
            JSONText.appendQuoted(name, to: &buffer)
            write(colon.dropFirst())
        } else {
            // The common case in one append less: `"`, the name, `": `.
            buffer.append(UInt8(ascii: "\""))
            write(name)
            write(colon)
        }
        keyPending = true
    }

    /// Writes a string value.
    /// - Parameter value: any text (escaped as JSON requires).
    public mutating func string(_ value: String) {
        startValue()
        JSONText.appendQuoted(value, to: &buffer)
        flushIfFull()
    }

    /// Writes a number value.
    /// - Parameters:
    ///   - value: a finite number (JSON has no NaN or infinity).
    ///   - format: how it becomes text.
    public mutating func number(_ value: Double, _ format: JSONNumberFormat) {
        precondition(value.isFinite, "JSON has no NaN or infinity, got \(value)")
        startValue()
        switch format {
        case .shortest:
            write(JSONText.shortest(value))
        case .fixed(let digits):
            JSONText.appendFixed(value, digits: digits, to: &buffer)
        case .fixedWithPoint(let digits):
            let start = buffer.count
            JSONText.appendFixed(value, digits: digits, to: &buffer)
            if !buffer[start...].contains(UInt8(ascii: ".")) { write(".0") }
        }
        flushIfFull()
    }

    /// Writes a whole number value, in plain digits.
    /// - Parameter value: the number.
    public mutating func number(_ value: Int) {
        startValue()
        write(String(value))
        flushIfFull()
    }

    /// Writes `true` or `false`.
    /// - Parameter value: the flag.
    public mutating func bool(_ value: Bool) {
        startValue()
        write(value ? "true" : "false")
        flushIfFull()
    }

    /// Writes `null`.
    public mutating func null() {
        startValue()
        write("null")
        flushIfFull()
    }

    /// Writes a whole value, every container in it laid out alike; object members in their
    /// stored order, numbers as `format` writes them.
    /// - Parameters:
    ///   - value: a value whose numbers are all finite.
    ///   - layout: the layout of every container in `value`.
    ///   - format: how its numbers become text.
    public mutating func value(_ value: JSONValue, layout: JSONLayout = .lines, numbers format: JSONNumberFormat = .shortest) {
        self.value(value, objects: layout, arrays: layout, numbers: format)
    }

    /// Writes a whole value, its objects laid out one way and its arrays another; object
    /// members in their stored order, numbers as `format` writes them.
    /// - Parameters:
    ///   - value: a value whose numbers are all finite.
    ///   - objects: the layout of every object in `value`.
    ///   - arrays: the layout of every array in `value`.
    ///   - format: how its numbers become text.
    public mutating func value(_ value: JSONValue, objects: JSONLayout, arrays: JSONLayout,
                               numbers format: JSONNumberFormat = .shortest) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let number): self.number(number, format)
        case .string(let text): string(text)
        case .array(let items):
            beginArray(arrays)
            for item in items { self.value(item, objects: objects, arrays: arrays, numbers: format) }
            endArray()
        case .object(let members):
            beginObject(objects)
            for member in members {
                key(member.key)
                self.value(member.value, objects: objects, arrays: arrays, numbers: format)
            }
            endObject()
        }
    }

    /// Writes a member with a string value: `key(name)`, then `string(value)`.
    /// - Parameters:
    ///   - name: the key.
    ///   - value: any text.
    public mutating func member(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    /// Writes a member with a number value: `key(name)`, then `number(value, format)`.
    /// - Parameters:
    ///   - name: the key.
    ///   - value: a finite number.
    ///   - format: how it becomes text.
    public mutating func member(_ name: String, _ value: Double, _ format: JSONNumberFormat) {
        key(name)
        number(value, format)
    }

    /// Writes a member with a whole number value: `key(name)`, then `number(value)`.
    /// - Parameters:
    ///   - name: the key.
    ///   - value: the number.
    public mutating func member(_ name: String, _ value: Int) {
        key(name)
        number(value)
    }

    /// Writes a member with a `true` or `false` value: `key(name)`, then `bool(value)`.
    /// - Parameters:
    ///   - name: the key.
    ///   - value: the flag.
    public mutating func member(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    /// Writes a member with a whole value: `key(name)`, then `value(value, layout:numbers:)`.
    /// - Parameters:
    ///   - name: the key.
    ///   - value: a value whose numbers are all finite.
    ///   - layout: the layout of every container in `value`.
    ///   - format: how its numbers become text.
    public mutating func member(_ name: String, _ value: JSONValue, layout: JSONLayout = .lines,
                                numbers format: JSONNumberFormat = .shortest) {
        key(name)
        self.value(value, layout: layout, numbers: format)
    }

    /// Writes an array of numbers.
    /// - Parameters:
    ///   - values: finite numbers.
    ///   - format: how each becomes text.
    ///   - layout: the array's layout.
    public mutating func numbers(_ values: [Double], _ format: JSONNumberFormat, layout: JSONLayout) {
        beginArray(layout)
        for value in values { number(value, format) }
        endArray()
    }

    /// Writes an array of whole numbers.
    /// - Parameters:
    ///   - values: the numbers.
    ///   - layout: the array's layout.
    public mutating func numbers(_ values: [Int], layout: JSONLayout) {
        beginArray(layout)
        for value in values { number(value) }
        endArray()
    }

    // MARK: - Layout

    private mutating func begin(isObject: Bool, layout: JSONLayout) {
        if case .wrapped(let perLine) = layout { precondition(perLine >= 1, "wrap at least one item per line") }
        startValue()
        buffer.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        open.append(Container(isObject: isObject, layout: layout))
        if layout == .hanging { openHanging += 1 }
    }

    private mutating func end(isObject: Bool) {
        precondition(!keyPending && open.last?.isObject == isObject, "an end that does not match its begin")
        let container = open.removeLast()
        if container.layout == .hanging { openHanging -= 1 }
        if container.count > 0 {
            switch container.layout {
            case .lines: newline(depth: indentDepth)
            case .padded: buffer.append(UInt8(ascii: " "))
            case .inline, .compact, .wrapped, .hanging: break
            }
        }
        buffer.append(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        flushIfFull()
    }

    /// Before a value: nothing after a key, otherwise the separator of an array item (or
    /// nothing for the document itself).
    private mutating func startValue() {
        if keyPending {
            keyPending = false
            return
        }
        guard let container = open.last else {
            precondition(!wroteDocument, "a document holds one value")
            wroteDocument = true
            return
        }
        precondition(!container.isObject, "a value in an object needs a key first")
        startItem()
    }

    /// The separator and line break before the innermost container's next member or item.
    private mutating func startItem() {
        let index = open.count - 1
        let container = open[index]
        open[index].count += 1
        let first = container.count == 0
        switch container.layout {
        case .lines:
            newline(depth: indentDepth, afterComma: !first)
        case .inline: if !first { write(", ") }
        case .padded: write(first ? " " : ", ")
        case .compact: if !first { buffer.append(UInt8(ascii: ",")) }
        case .wrapped(let perLine):
            if first { break }
            if container.count % perLine == 0 {
                newline(depth: indentDepth, afterComma: true)
            } else {
                write(", ")
            }
        case .hanging:
            if !first { newline(depth: indentDepth, afterComma: true) }
        }
    }

    /// Containers that indent the lines inside them (every open one but `hanging`).
    private var indentDepth: Int { open.count - openHanging }

    /// A line break (after a comma when `afterComma`), then two spaces per container `depth`
    /// deep, in one append for depths up to 15.
    private mutating func newline(depth: Int, afterComma: Bool = false) {
        if depth < Self.lineStarts.count {
            buffer.append(contentsOf: afterComma ? Self.commaLineStarts[depth] : Self.lineStarts[depth])
        } else {
            write((afterComma ? ",\n" : "\n") + String(repeating: "  ", count: depth))
        }
    }

    /// A line break and the indentation of each depth up to 15 (deeper ones are made when needed).
    private static let lineStarts = (0..<16).map { Array(("\n" + String(repeating: "  ", count: $0)).utf8) }
    /// `lineStarts`, each after a comma.
    private static let commaLineStarts = lineStarts.map { [UInt8(ascii: ",")] + $0 }

    /// Appends `text` as UTF-8.
    private mutating func write(_ text: some StringProtocol) {
        buffer.append(contentsOf: text.utf8)
    }

    private mutating func finishDocument(endingWithNewline: Bool) {
        precondition(open.isEmpty && !keyPending, "a document ended inside a container")
        if endingWithNewline { buffer.append(UInt8(ascii: "\n")) }
    }

    // MARK: - Pieces

    private mutating func flushIfFull() {
        if buffer.count >= pieceBytes { flush() }
    }

    /// Hands the gathered text to the sink, unless it has failed.
    private mutating func flush() {
        guard let sink, !buffer.isEmpty else { return }
        if sinkError == nil {
            do { try sink(String(decoding: buffer, as: UTF8.self)) } catch { sinkError = error }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

extension JSONValue {
    /// The value as pretty-printed JSON text (`JSONLayout.lines`: two-space indentation, one
    /// member or item per line, `"key": value`), object members in their stored order, numbers
    /// as `JSONText.shortest` writes them, and a final newline. Deterministic on every platform.
    /// - Precondition: every number is finite (JSON has no NaN or infinity).
    /// - Returns: the text, ending with a newline.
    public func prettyText() -> String {
        JSONWriter.text { $0.value(self) }
    }

    /// The value as JSON text on one line, without spaces (`JSONLayout.compact`, for messages
    /// between programs, such as `tactus tune`'s page and server); numbers and order as
    /// `prettyText` writes them.
    /// - Precondition: every number is finite.
    /// - Returns: the text, without a newline.
    public func compactText() -> String {
        JSONWriter.text(endingWithNewline: false) { $0.value(self, layout: .compact) }
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
