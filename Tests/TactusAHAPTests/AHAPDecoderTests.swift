import Foundation
import TactusTestSupport
import XCTest
@testable import TactusAHAP
import TactusCore

final class AHAPDecoderTests: XCTestCase {
    private func decodingError(_ json: String) -> AHAPDecodingError? {
        do {
            _ = try AHAPDecoder().decode(data(json))
            return nil
        } catch {
            return error as? AHAPDecodingError
        }
    }

    func testReadsAnotherToolsFile() throws {
        // Shape as other converters write it: Version 1, unknown keys, absolute-looking times.
        let document = try AHAPDecoder().decode(data("""
        {"Version": 1, "Metadata": {"Project": "x", "Build": 3, "Extra": {"a": 1}},
         "Pattern": [
          {"Event": {"Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 2.0,
                     "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1.0}], "Vendor": true}},
          {"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 1.0,
                              "ParameterCurveControlPoints": [{"Time": 1.0, "ParameterValue": 0.5}]}},
          {"Event": {"Time": 0.5, "EventType": "Rumble"}}
         ]}
        """))
        XCTAssertEqual(document.metadata, [.init(key: "Project", value: "x"), .init(key: "Build", value: "3.0")])
        XCTAssertEqual(document.events.count, 2)
        XCTAssertEqual(document.events[1].type.rawValue, "Rumble", "unknown types survive for the validator")
        XCTAssertEqual(document.events[1].parameters, [])
        XCTAssertEqual(document.curves.first?.controlPoints.first?.time, 1.0)
    }

    func testUnicodeEscapesAndDuplicateKeys() throws {
        let document = try AHAPDecoder().decode(data(#"""
        {"Version": 1, "Pattern": [{"Event": {"Time": 1, "Time": 2, "EventType": "AudioCustom",
          "EventWaveformPath": "\u00e9\ud83d\udca5\/x.wav"}}]}
        """#))
        XCTAssertEqual(document.events.first?.waveformPath, "é💥/x.wav")
        XCTAssertEqual(document.events.first?.time, 2, "the last duplicate wins, as in a dictionary")
    }

    func testErrorsNameTheirPath() {
        XCTAssertEqual(decodingError(#"{"Version": 1}"#)?.description, #"missing required key "Pattern""#)
        XCTAssertEqual(decodingError(#"{"Pattern": [{"Event": {"Time": "0", "EventType": "HapticTransient"}}]}"#)?.path,
                       "Pattern[0].Event.Time")
        XCTAssertEqual(decodingError(#"{"Pattern": [1]}"#)?.description, "Pattern[0]: expected an object, found a number")
        XCTAssertEqual(decodingError(#"{"Pattern": [{}]}"#)?.path, "Pattern[0]")
        XCTAssertEqual(decodingError(#"{"Pattern": [{"Parameter": {}, "Event": {}}]}"#)?.path, "Pattern[0]")
        XCTAssertEqual(decodingError(#"""
            {"Pattern": [{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0,
              "ParameterCurveControlPoints": [{"Time": 0}]}}]}
            """#)?.path, "Pattern[0].ParameterCurve.ParameterCurveControlPoints[0]")
        XCTAssertEqual(decodingError(#"{"Pattern": [{"Parameter": {"ParameterID": "X", "Time": 1e999, "ParameterValue": 0}}]}"#)?.path,
                       "Pattern[0].Parameter.Time")
        XCTAssertEqual(decodingError("[]")?.description, "expected an object, found an array")
    }

    func testSyntaxErrorsGiveLineAndColumn() {
        XCTAssertEqual(decodingError("{\n  \"Pattern\": [,]\n}")?.description,
                       "invalid JSON at line 2, column 15: unexpected character")
        for bad in ["", "{", "{\"a\" 1}", "[1,]", "01", "1.", "-", "1e", "\"\\x\"", "\"\u{01}\"", "nul", "{} {}",
                    "\"\\ud800\"", "\"\\u12\"", "NaN", "Infinity", "[1 2]"] {
            XCTAssertNotNil(decodingError(bad), "should reject \(bad.debugDescription)")
        }
    }

    func testNeverCrashesOnTruncatedOrGarbageInput() {
        let writer = AHAPWriter(options: .init(pairedAudio: PairedAudio(fileName: "a.wav"), metadata: [.init(key: "Project", value: "é")]))
        let track = HapticTrack(duration: 2, transients: [.init(time: 0.5, intensity: 0.8, sharpness: 0.4)],
                                regions: [.init(start: 0.2, end: 1.5, intensity: [.init(time: 0.2, value: 0.3), .init(time: 1.5, value: 0.9)],
                                                sharpness: [.init(time: 0.2, value: 0.1), .init(time: 1.5, value: 0.7)])])
        let valid = try! writer.data(for: track)
        XCTAssertNoThrow(try AHAPDecoder().decode(valid))
        // Every prefix short of the closing brace is incomplete (the last byte is the newline).
        for length in 0..<(valid.count - 1) {
            let prefix = valid.prefix(length)
            XCTAssertThrowsError(try AHAPDecoder().decode(prefix), "prefix of \(length) bytes")
            _ = AHAPValidator().validate(prefix)
        }
        var random = SeededGenerator(seed: 42)
        let alphabet = Array(#"{}[]":,.-+eE0123456789 truefalsnul\"#.utf8) + [0xC3, 0xA9, 0xFF, 0x00, 0x0A]
        for round in 0..<3_000 {
            let count = Int.random(in: 0...64, using: &random)
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            } else {
                bytes = (0..<count).map { _ in alphabet.randomElement(using: &random)! }
            }
            // Also mutate the valid file in place.
            var mutated = Array(valid)
            for _ in 0..<3 { mutated[Int.random(in: 0..<mutated.count, using: &random)] = UInt8.random(in: 0...255, using: &random) }
            for input in [Data(bytes), Data(mutated)] {
                _ = try? AHAPDecoder().decode(input)
                _ = AHAPValidator().validate(input)
            }
        }
    }

    func testExtremeNumbersDecodeValidateAndReencode() throws {
        let extreme = data(#"""
        {"Version": 1e308, "Pattern": [
          {"Event": {"Time": 1e308, "EventType": "HapticContinuous", "EventDuration": 1.7e308,
                     "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": -1e-320}]}},
          {"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 1e308,
                              "ParameterCurveControlPoints": [{"Time": 1e308, "ParameterValue": -1e308}]}},
          {"Event": {"Time": 5e-324, "EventType": "HapticTransient"}}]}
        """#)
        let document = try AHAPDecoder().decode(extreme)
        let reencoded = AHAPEncoder().encode(document)
        let text = String(decoding: reencoded, as: UTF8.self)
        XCTAssertNil(text.range(of: "[0-9][eE]", options: .regularExpression), "no exponent notation:\n\(text)")
        XCTAssertEqual(try AHAPDecoder().decode(reencoded).pattern.count, 3)
        XCTAssertGreaterThan(AHAPValidator().validate(extreme).errorCount, 0)
        _ = PatternEvaluator(document).samples(step: 0.5, through: 2)
    }

    func testDeepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertTrue(decodingError(deep)?.message.contains("nesting deeper") ?? false)
        let object = String(repeating: "{\"a\":", count: 50_000) + "1" + String(repeating: "}", count: 50_000)
        XCTAssertNotNil(decodingError(object))
    }
}
