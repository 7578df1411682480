import Foundation
import TactusCore
import XCTest

final class JSONTextTests: XCTestCase {
    func testFixedDecimals() {
        let cases: [(Double, Int, String)] = [
            (0, 5, "0"), (-0.0, 5, "0"), (-0.000001, 5, "0"), (-0.000001, 4, "0"),
            (1, 4, "1"), (1.5, 4, "1.5"), (0.1, 5, "0.1"), (0.00001, 5, "0.00001"), (0.000015, 5, "0.00002"),
            (1e-9, 5, "0"), (123.456789, 5, "123.45679"), (-2.5, 4, "-2.5"), (0.99995, 4, "1"),
            (1e-7, 4, "0"), (42, 5, "42"), (1e20, 5, "100000000000000000000"), (-1.5e20, 4, "-150000000000000000000"),
            (1e13, 5, "10000000000000"), (92_000_000_000_000, 5, "92000000000000"),
            (0.1234567, 6, "0.123457"), (2.5, 0, "3"), (-2.5, 0, "-3"), (1.000001, 6, "1.000001"),
        ]
        for (value, decimals, text) in cases {
            XCTAssertEqual(JSONText.fixed(value, digits: decimals), text, "\(value) at \(decimals) decimals")
        }
        for text in cases.map(\.2) {
            XCTAssertFalse(text.contains("e") || text.contains("E") || text == "-0", text)
        }
    }

    /// What `fixed` writes reads back as exactly what `rounded` returns, for every digit count.
    func testRoundedIsWhatFixedReadsBackAs() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let value = Double.random(in: -1e6...1e6, using: &generator)
            for digits in 0...9 {
                XCTAssertEqual(Double(JSONText.fixed(value, digits: digits)), JSONText.rounded(value, digits: digits),
                               "\(value) at \(digits)")
            }
        }
    }

    func testShortestReadsBackExactly() {
        for value in [0, 3, -3, 2.7, 0.1 + 0.2, 1e-7, 123456.789, 1e15, 1e300, -5e-324] {
            XCTAssertEqual(Double(JSONText.shortest(value)), value)
        }
        XCTAssertEqual(JSONText.shortest(3), "3")
        XCTAssertEqual(JSONText.shortest(2.7), "2.7")
    }

    func testQuoteEscapesWhatJSONRequires() throws {
        let text = "a\"b\\c\nd\u{01}é😀</script>"
        XCTAssertEqual(JSONText.quote(text), "\"a\\\"b\\\\c\\nd\\u0001é😀</script>\"")
        XCTAssertEqual(try JSONReader.parse(Data(JSONText.quote(text).utf8)).string, text)
    }

    /// The writer's text parses back to the same value, members in order, and is laid out
    /// one value per line.
    func testPrettyTextRoundTripsAndIsStable() throws {
        let value = JSONValue.object([
            (key: "z", value: .array([.number(1), .number(2.5), .string("x"), .null, .bool(true)])),
            (key: "a", value: .object([(key: "empty", value: .array([])), (key: "none", value: .object([]))])),
        ])
        let text = value.prettyText()
        XCTAssertEqual(text, """
        {
          "z": [
            1,
            2.5,
            "x",
            null,
            true
          ],
          "a": {
            "empty": [],
            "none": {}
          }
        }

        """)
        XCTAssertEqual(try JSONReader.parse(Data(text.utf8)).prettyText(), text)
        XCTAssertEqual(JSONValue.sortedObject(["b": .null, "a": .null]).prettyText(), "{\n  \"a\": null,\n  \"b\": null\n}\n")
    }

    /// Every control character is escaped (short forms where JSON has them, `\u00XX` otherwise)
    /// and reads back; characters above U+001F, astral ones included, are written as they are.
    func testEveryControlCharacterIsEscapedAndReadsBack() throws {
        let short: [UInt32: String] = [0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r"]
        for code in UInt32(0)..<0x20 {
            let text = String(Character(Unicode.Scalar(code)!))
            let hex = String(code, radix: 16)
            let expected = short[code] ?? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            XCTAssertEqual(JSONText.quote(text), "\"" + expected + "\"", "U+\(hex)")
            XCTAssertEqual(try JSONReader.parse(Data(JSONValue.string(text).compactText().utf8)).string, text, "U+\(hex)")
        }
        XCTAssertEqual(JSONText.quote("\u{7F}ü\u{2028}𝄞"), "\"\u{7F}ü\u{2028}𝄞\"")
    }

    /// The one-line form: no spaces, members in their order, empty containers as `[]` and `{}`,
    /// numbers as `shortest` writes them; it reads back to the same value.
    func testCompactTextIsOneLineAndReadsBack() throws {
        let value = JSONValue.object([
            (key: "b", value: .array([.number(-0.0), .number(1e-7), .number(0.1 + 0.2), .number(1e21), .bool(false)])),
            (key: "a \"q\"", value: .object([(key: "e", value: .array([])), (key: "o", value: .object([]))])),
            (key: "n", value: .null),
        ])
        let text = value.compactText()
        XCTAssertEqual(text, #"{"b":[0,1e-07,0.30000000000000004,1e+21,false],"a \"q\"":{"e":[],"o":{}},"n":null}"#)
        XCTAssertEqual(try JSONReader.parse(Data(text.utf8)).compactText(), text)
    }

    /// Metadata entries become an object of strings, in order, escaped; Tactus's own formats
    /// open with their name, version and metadata.
    func testMetadataObject() {
        XCTAssertEqual(MetadataEntry.jsonObject([.init(key: "Source", value: "a\"b.wav"), .init(key: "A", value: "")]).compactText(),
                       #"{"Source":"a\"b.wav","A":""}"#)
        XCTAssertEqual(MetadataEntry.jsonObject([]).compactText(), "{}")
        let document = JSONWriter.text { json in
            json.beginTactusDocument(format: "tactus-x", version: 2, metadata: [.init(key: "A", value: "b")])
            json.member("n", 1)
            json.endObject()
        }
        XCTAssertEqual(document, "{\n  \"format\": \"tactus-x\",\n  \"version\": 2,\n  \"metadata\": {\n    \"A\": \"b\"\n  },\n  \"n\": 1\n}\n")
    }

    /// A document's metadata is read from its start: the first member of that name, the members
    /// before it parsed, nothing after it read (a long pattern cut short or broken there reads
    /// the same); a start that ends inside the member, or is not an object, is an error; an
    /// object without the member has none.
    func testAHeaderIsReadFromTheDocumentsStart() throws {
        let head = #"{"format": "x", "version": {"major": 1}, "metadata": {"Project": "Tactus", "n": 2, "T": true}, "#
        for tail in [#""signals": [1, 2, 3]}"#, #""signals": [1, 2"#, "]]]] not JSON", ""] {
            XCTAssertEqual(try MetadataEntry.jsonHeader("metadata", in: Data((head + tail).utf8)), [.init(key: "Project", value: "Tactus")],
                           "strings only, whatever follows: \(tail)")
        }
        let twice = #"{"M": {"A": "first"}, "M": {"A": "last"}}"#
        XCTAssertEqual(try MetadataEntry.jsonHeader("M", in: Data(twice.utf8)), [.init(key: "A", value: "first")])
        XCTAssertEqual(try JSONReader.parse(Data(twice.utf8))["M"]?["A"]?.compactText(), #""last""#, "the whole reader keeps the last")
        XCTAssertEqual(try MetadataEntry.jsonHeader("metadata", in: Data(#"{"a": 1, "metadata": "text"}"#.utf8)), [])
        XCTAssertEqual(try MetadataEntry.jsonHeader("metadata", in: Data(#"{"a": 1}"#.utf8)), [])
        XCTAssertNil(try JSONReader.firstMember("metadata", in: Data(#" {"a": {"metadata": {}}}"#.utf8)), "top level only")
        for broken in [#"{"metadata": {"Project": "Tac"#, #"{"a": [1, "metadata": {}}"#, #"["metadata"]"#, "", #"{"a": 1"#] {
            XCTAssertThrowsError(try MetadataEntry.jsonHeader("metadata", in: Data(broken.utf8)), broken) {
                XCTAssertTrue($0 is JSONSyntaxError, "\($0)")
            }
        }
    }

    /// Deep nesting is indented level by level and reads back.
    func testDeepNestingReadsBack() throws {
        var value = JSONValue.number(2.5)
        for depth in 0..<40 { value = depth.isMultiple(of: 2) ? .array([value]) : .object([(key: "d\(depth)", value: value)]) }
        let text = value.prettyText()
        XCTAssertEqual(try JSONReader.parse(Data(text.utf8)).prettyText(), text)
        XCTAssertTrue(text.contains("\n" + String(repeating: " ", count: 80) + "2.5\n"), "the innermost value 40 levels in")
    }
}
