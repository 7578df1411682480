import Foundation
import TactusCore
import XCTest

final class JSONWriterTests: XCTestCase {
    /// The same small document (an object of a string, a number array and a nested object) in
    /// every layout, as text; each reads back as the same value.
    func testEveryLayout() throws {
        let cases: [(JSONLayout, String)] = [
            (.lines, "{\n  \"s\": \"x\",\n  \"n\": [\n    1,\n    2.5\n  ],\n  \"o\": {\n    \"k\": null\n  }\n}"),
            (.inline, #"{"s": "x", "n": [1, 2.5], "o": {"k": null}}"#),
            (.padded, #"{ "s": "x", "n": [ 1, 2.5 ], "o": { "k": null } }"#),
            (.compact, #"{"s":"x","n":[1,2.5],"o":{"k":null}}"#),
            (.wrapped(perLine: 2), "{\"s\": \"x\", \"n\": [1, 2.5],\n  \"o\": {\"k\": null}}"),
        ]
        let value = JSONValue.object([(key: "s", value: .string("x")), (key: "n", value: .array([.number(1), .number(2.5)])),
                                      (key: "o", value: .object([(key: "k", value: .null)]))])
        for (layout, expected) in cases {
            let text = JSONWriter.text(endingWithNewline: false) { $0.value(value, layout: layout) }
            XCTAssertEqual(text, expected, "\(layout)")
            XCTAssertEqual(try JSONReader.parse(Data(text.utf8)).compactText(), value.compactText(), "\(layout)")
        }
    }

    /// An empty container is `{}` or `[]` in every layout, wherever it sits.
    func testEmptyContainers() {
        for layout in [JSONLayout.lines, .inline, .padded, .compact, .wrapped(perLine: 3)] {
            let text = JSONWriter.text(endingWithNewline: false) { json in
                json.beginArray(.lines)
                json.beginObject(layout)
                json.endObject()
                json.beginArray(layout)
                json.endArray()
                json.endArray()
            }
            XCTAssertEqual(text, "[\n  {},\n  []\n]", "\(layout)")
        }
    }

    /// Containers of different layouts nest: a one-line object keeps one line inside an indented
    /// array, and lines inside lines indent two spaces per level.
    func testMixedLayoutsNest() {
        let text = JSONWriter.text { json in
            json.beginObject()
            json.key("version")
            json.value(.object([(key: "major", value: .number(1)), (key: "minor", value: .number(0))]), layout: .inline)
            json.key("items")
            json.beginArray(.lines)
            json.beginObject(.padded)
            json.key("Time")
            json.number(0.1, .fixed(digits: 5))
            json.key("Flags")
            json.beginArray(.inline)
            json.bool(true)
            json.bool(false)
            json.endArray()
            json.endObject()
            json.beginObject(.lines)
            json.key("deep")
            json.numbers([1, 2, 3], layout: .wrapped(perLine: 2))
            json.endObject()
            json.endArray()
            json.endObject()
        }
        XCTAssertEqual(text, """
        {
          "version": {"major": 1, "minor": 0},
          "items": [
            { "Time": 0.1, "Flags": [true, false] },
            {
              "deep": [1, 2,
                3]
            }
          ]
        }

        """)
    }

    /// A hanging array keeps its first item beside the bracket and stacks the rest under the
    /// line it opens on; containers inside it indent as if it were not there; empty it is `[]`.
    func testHangingLayout() throws {
        let text = JSONWriter.text { json in
            json.beginObject()
            json.key("enum")
            json.value(.array([.string("a"), .string("b"), .string("c")]), layout: .hanging)
            json.key("pairs")
            json.beginArray(.hanging)
            for lower in ["x", "y"] {
                json.beginObject()
                json.key("lower")
                json.string(lower)
                json.key("tags")
                json.beginArray(.hanging)
                json.endArray()
                json.endObject()
            }
            json.endArray()
            json.endObject()
        }
        XCTAssertEqual(text, """
        {
          "enum": ["a",
          "b",
          "c"],
          "pairs": [{
            "lower": "x",
            "tags": []
          },
          {
            "lower": "y",
            "tags": []
          }]
        }

        """)
        XCTAssertNoThrow(try JSONReader.parse(Data(text.utf8)))
    }

    /// A whole value can lay out its objects one way and its arrays another.
    func testValueWithObjectAndArrayLayouts() {
        let value = JSONValue.object([(key: "enum", value: .array([.string("a"), .string("b")])),
                                      (key: "o", value: .object([(key: "n", value: .array([.number(1), .number(2)]))]))])
        XCTAssertEqual(JSONWriter.text(endingWithNewline: false) { $0.value(value, objects: .lines, arrays: .hanging) },
                       "{\n  \"enum\": [\"a\",\n  \"b\"],\n  \"o\": {\n    \"n\": [1,\n    2]\n  }\n}")
        XCTAssertEqual(JSONWriter.text(endingWithNewline: false) { $0.value(value, objects: .inline, arrays: .compact) },
                       #"{"enum": ["a","b"], "o": {"n": [1,2]}}"#)
    }

    /// Keys and strings are escaped as JSON requires and read back.
    func testEscapes() throws {
        let awkward = "a\"b\\c\nd\t\u{01}é😀"
        let text = JSONWriter.text(endingWithNewline: false) { json in
            json.beginObject(.inline)
            json.key(awkward)
            json.string(awkward)
            json.endObject()
        }
        XCTAssertEqual(text, #"{"a\"b\\c\nd\t\u0001é😀": "a\"b\\c\nd\t\u0001é😀"}"#)
        guard case .object(let members) = try JSONReader.parse(Data(text.utf8)) else { return XCTFail(text) }
        XCTAssertEqual(members.first?.key, awkward)
        XCTAssertEqual(members.first?.value.string, awkward)
    }

    /// Numbers: fixed decimals (rounded, trailing zeros dropped, never `-0` nor an exponent),
    /// fixed with a kept point, shortest, and whole numbers.
    func testNumberFormats() {
        let cases: [(Double, JSONNumberFormat, String)] = [
            (0.123456, .fixed(digits: 5), "0.12346"), (-0.0, .fixed(digits: 4), "0"), (-0.00001, .fixed(digits: 4), "0"),
            (2, .fixed(digits: 3), "2"), (1e20, .fixed(digits: 5), "100000000000000000000"),
            (-1.5e20, .fixed(digits: 2), "-150000000000000000000"),
            (1, .fixedWithPoint(digits: 4), "1.0"), (1.25, .fixedWithPoint(digits: 4), "1.25"), (-0.0, .fixedWithPoint(digits: 4), "0.0"),
            (-0.0, .shortest, "0"), (2.5, .shortest, "2.5"), (0.1 + 0.2, .shortest, "0.30000000000000004"),
            (1e-7, .shortest, "1e-07"), (1e21, .shortest, "1e+21"), (123_456_789, .shortest, "123456789"),
        ]
        for (value, format, expected) in cases {
            XCTAssertEqual(JSONWriter.text(endingWithNewline: false) { $0.number(value, format) }, expected, "\(value) \(format)")
        }
        XCTAssertEqual(JSONWriter.text(endingWithNewline: false) { $0.numbers([-3, 0, Int.max], layout: .inline) },
                       "[-3, 0, 9223372036854775807]")
    }

    /// A whole value written inside a document takes the document's indentation; members of
    /// every kind of value are written as `key` and the value would write them.
    func testValueNestedInADocument() {
        let metadata = JSONValue.object([(key: "Source", value: .string("boom.wav")), (key: "Tags", value: .array([]))])
        let text = JSONWriter.text { json in
            json.beginObject()
            json.member("format", "x")
            json.member("version", 1)
            json.member("metadata", metadata)
            json.member("complete", true)
            json.member("gain", 0.25, .fixed(digits: 1))
            json.endObject()
        }
        XCTAssertEqual(text, """
        {
          "format": "x",
          "version": 1,
          "metadata": {
            "Source": "boom.wav",
            "Tags": []
          },
          "complete": true,
          "gain": 0.3
        }

        """)
    }

    /// A document larger than a piece is handed on in several pieces, each at least the piece
    /// size except the last, which together are exactly the whole text.
    func testStreamedPiecesMakeTheWholeText() throws {
        func write(_ json: inout JSONWriter) {
            json.beginObject()
            json.key("values")
            json.numbers((0..<5_000).map { Double($0) / 7 }, .fixed(digits: 4), layout: .wrapped(perLine: 16))
            json.key("objects")
            json.beginArray()
            for i in 0..<500 {
                json.beginObject(.padded)
                json.key("i")
                json.number(i)
                json.endObject()
            }
            json.endArray()
            json.endObject()
        }
        let whole = JSONWriter.text(write)
        var pieces: [String] = []
        JSONWriter.stream(to: { pieces.append($0) }, pieceBytes: 4_096, write)
        XCTAssertGreaterThan(pieces.count, 5)
        XCTAssertTrue(pieces.dropLast().allSatisfy { $0.utf8.count >= 4_096 })
        XCTAssertEqual(pieces.joined(), whole)
        XCTAssertTrue(whole.hasSuffix("}\n"))
        XCTAssertNoThrow(try JSONReader.parse(Data(whole.utf8)))
    }

    /// The sink's first error is thrown once writing ends, and the sink is not called after it.
    func testSinkErrorStopsThePieces() {
        struct Full: Error {}
        var calls = 0
        XCTAssertThrowsError(try JSONWriter.stream(to: { _ throws(Full) in
            calls += 1
            throw Full()
        }, pieceBytes: 16) { json in
            json.numbers(Array(0..<1_000), layout: .inline)
        }) { XCTAssertTrue($0 is Full) }
        XCTAssertEqual(calls, 1)
    }
}
