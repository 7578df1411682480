import Foundation
import TactusTestSupport
import XCTest
@testable import TactusAHAP
import TactusCore

final class AHAPEncoderTests: XCTestCase {
    private let sample = AHAPDocument(
        metadata: [.init(key: "Project", value: "Tactus"), .init(key: "Source", value: "bäng \"1\"\n.wav")],
        pattern: [
            .event(AHAPEvent(time: 0, type: .audioCustom, waveformPath: "sfx/bäng 💥.wav", useVolumeEnvelope: false,
                             parameters: [.init(id: "AudioVolume", value: 1)])),
            .curve(AHAPParameterCurve(parameterID: "HapticIntensityControl", time: 0.1, controlPoints: [
                .init(time: 0, value: 0.5), .init(time: 0.123456, value: 0.333333),
            ])),
            .event(AHAPEvent(time: 0.25, type: .hapticTransient,
                             parameters: [.init(id: "HapticIntensity", value: 0.8), .init(id: "HapticSharpness", value: 0.5)])),
            .event(AHAPEvent(time: 0.3, type: .hapticContinuous, duration: 1.5, parameters: [])),
            .parameter(AHAPDynamicParameter(parameterID: "HapticSharpnessControl", time: 0.3, value: -0.25)),
        ])

    func testExactBytesOfASmallPattern() {
        let expected = """
        {
          "Version": 1.0,
          "Metadata": {
            "Project": "Tactus",
            "Source": "bäng \\"1\\"\\n.wav"
          },
          "Pattern": [
            {
              "Event": {
                "Time": 0,
                "EventType": "AudioCustom",
                "EventWaveformPath": "sfx/bäng 💥.wav",
                "EventWaveformUseVolumeEnvelope": false,
                "EventParameters": [
                  { "ParameterID": "AudioVolume", "ParameterValue": 1 }
                ]
              }
            },
            {
              "ParameterCurve": {
                "ParameterID": "HapticIntensityControl",
                "Time": 0.1,
                "ParameterCurveControlPoints": [
                  { "Time": 0, "ParameterValue": 0.5 },
                  { "Time": 0.12346, "ParameterValue": 0.3333 }
                ]
              }
            },
            {
              "Event": {
                "Time": 0.25,
                "EventType": "HapticTransient",
                "EventParameters": [
                  { "ParameterID": "HapticIntensity", "ParameterValue": 0.8 },
                  { "ParameterID": "HapticSharpness", "ParameterValue": 0.5 }
                ]
              }
            },
            {
              "Event": {
                "Time": 0.3,
                "EventType": "HapticContinuous",
                "EventDuration": 1.5,
                "EventParameters": []
              }
            },
            {
              "Parameter": {
                "ParameterID": "HapticSharpnessControl",
                "Time": 0.3,
                "ParameterValue": -0.25
              }
            }
          ]
        }

        """
        XCTAssertEqual(AHAPEncoder().encodeToString(sample), expected)
        XCTAssertEqual(AHAPEncoder().encode(sample), Data(expected.utf8))
    }

    /// A long pattern is handed on in pieces of about 64 KB, never as one text, and the pieces
    /// are exactly the whole document.
    func testALongPatternIsWrittenInPieces() {
        let events = (0..<20_000).map { i in
            AHAPElement.event(AHAPEvent(time: Double(i) * 0.01, type: .hapticTransient,
                                        parameters: [.init(id: "HapticIntensity", value: Double(i % 100) / 100)]))
        }
        let document = AHAPDocument(pattern: events)
        var pieces: [String] = []
        AHAPEncoder().write(document) { pieces.append($0) }
        let whole = AHAPEncoder().encodeToString(document)
        XCTAssertGreaterThan(whole.utf8.count, 2_000_000)
        XCTAssertGreaterThan(pieces.count, 20)
        XCTAssertLessThan(pieces.map(\.utf8.count).max() ?? 0, 70_000, "no piece much past 64 KB")
        XCTAssertEqual(pieces.joined(), whole)
    }

    func testEncodingIsDeterministic() {
        let first = AHAPEncoder().encode(sample)
        for _ in 0..<5 { XCTAssertEqual(AHAPEncoder().encode(sample), first) }
    }

    func testEmptyDocument() {
        XCTAssertEqual(AHAPEncoder().encodeToString(AHAPDocument()), "{\n  \"Version\": 1.0,\n  \"Pattern\": []\n}\n")
    }

    func testRoundingMatchesWhatTheFileReadsBack() throws {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<2_000 {
            let time = Double.random(in: -100...1_000, using: &random)
            let value = Double.random(in: -1...1, using: &random)
            let document = AHAPDocument(pattern: [.parameter(AHAPDynamicParameter(parameterID: "X", time: time, value: value))])
            let decoded = try AHAPDecoder().decode(AHAPEncoder().encode(document))
            guard case .parameter(let parameter) = decoded.pattern.first else { return XCTFail("no parameter") }
            XCTAssertEqual(parameter.time, AHAPEncoder.roundedTime(time))
            XCTAssertEqual(parameter.value, AHAPEncoder.roundedValue(value))
        }
        XCTAssertEqual(AHAPEncoder.roundedValue(-0.00001).sign, .plus, "never -0")
    }

    func testStringEscaping() {
        XCTAssertEqual(JSONText.quote("a\"b\\c/d"), #""a\"b\\c/d""#)
        XCTAssertEqual(JSONText.quote("\u{01}\t\r\u{08}\u{0C}\u{1F}"), #""\u0001\t\r\b\f\u001f""#)
        XCTAssertEqual(JSONText.quote("日本語 é 🎵"), "\"日本語 é 🎵\"")
    }

    func testRoundTrip() throws {
        let encoded = AHAPEncoder().encode(sample)
        let decoded = try AHAPDecoder().decode(encoded)
        var expected = sample
        expected.pattern[1] = .curve(AHAPParameterCurve(parameterID: "HapticIntensityControl", time: 0.1, controlPoints: [
            .init(time: 0, value: 0.5), .init(time: 0.12346, value: 0.3333),
        ]))
        XCTAssertEqual(decoded, expected)
        XCTAssertEqual(AHAPEncoder().encode(decoded), encoded, "re-encoding is a fixed point")
    }
}
