import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TactusAHAP
import TactusAudio
import TactusCore
import XCTest

/// Patterns, files and readers shared by the preview tests.
enum PreviewFixtures {
    static func transient(_ time: Double, intensity: Double, sharpness: Double) -> AHAPElement {
        .event(AHAPEvent(time: time, type: .hapticTransient, parameters: [
            .init(id: AHAPParameterID.hapticIntensity, value: intensity),
            .init(id: AHAPParameterID.hapticSharpness, value: sharpness),
        ]))
    }

    static func continuous(_ time: Double, duration: Double, intensity: Double, sharpness: Double) -> AHAPElement {
        .event(AHAPEvent(time: time, type: .hapticContinuous, duration: duration, parameters: [
            .init(id: AHAPParameterID.hapticIntensity, value: intensity),
            .init(id: AHAPParameterID.hapticSharpness, value: sharpness),
        ]))
    }

    static func audio(_ name: String, at time: Double = 0) -> AHAPElement {
        .event(AHAPEvent(time: time, type: .audioCustom, waveformPath: name, useVolumeEnvelope: false,
                         parameters: [.init(id: AHAPParameterID.audioVolume, value: 1)]))
    }

    /// Writes `pattern` as `<name>.ahap` into `folder`, with a `Preset` metadata entry.
    @discardableResult
    static func writeAHAP(_ pattern: [AHAPElement], named name: String, in folder: URL,
                          preset: String? = "unit-test") throws -> URL {
        let document = AHAPDocument(metadata: preset.map { [.init(key: "Preset", value: $0)] } ?? [], pattern: pattern)
        let url = folder.appendingPathComponent(name + ".ahap")
        try AHAPEncoder().encode(document).write(to: url)
        return url
    }

    /// Every frame of an audio file, interleaved, and its format.
    static func readAudio(_ url: URL) throws -> (samples: [Float], format: AudioFormat) {
        let reader = try AudioFileReader(url: url)
        var samples: [Float] = []
        var block = [Float](repeating: 0, count: 4096 * reader.format.channels)
        while true {
            let frames = try block.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
            if frames == 0 { break }
            samples += block[0..<(frames * reader.format.channels)]
        }
        return (samples, reader.format)
    }

    /// Every file name in `folder`, hidden ones included (a leftover temporary file shows up).
    static func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }
}

/// A strict XML parse of a page or plot: fails the test on any well-formedness error and
/// returns every element with its attributes and text, in document order.
struct ParsedMarkup {
    struct Element {
        var name: String
        var attributes: [String: String]
        /// All text inside the element, its descendants' included.
        var text = ""
    }

    struct NotWellFormed: Error {}

    private(set) var elements: [Element] = []

    init(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let collector = Collector()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = collector
        let parsed = parser.parse()
        XCTAssertTrue(parsed, "not well-formed: \(parser.parserError.map { "\($0)" } ?? "?") at line \(parser.lineNumber)",
                      file: file, line: line)
        guard parsed else { throw NotWellFormed() }
        elements = collector.elements
    }

    func all(_ name: String, class className: String? = nil) -> [Element] {
        elements.filter { element in
            element.name == name && (className.map { element.attributes["class"]?.split(separator: " ").contains(Substring($0)) ?? false } ?? true)
        }
    }

    /// Every `src`/`href` value and every CSS `url(...)` target in the document.
    func references(in text: String) -> [String] {
        let attributes = elements.flatMap { element in ["src", "href", "xlink:href"].compactMap { element.attributes[$0] } }
        let css = text.components(separatedBy: "url(").dropFirst().map { String($0.prefix { $0 != ")" }) }
        return attributes + css
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var elements: [Element] = []
        var open: [Int] = []

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            open.append(elements.count)
            elements.append(Element(name: name, attributes: attributes))
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            open.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            for index in open { elements[index].text += string }
        }
    }
}

/// Fails with the first differing index instead of printing two long sample arrays.
func assertSamplesEqual(_ actual: [Float], _ expected: [Float], _ message: String,
                        file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(actual.count, expected.count, "\(message): length", file: file, line: line)
    if let index = (0..<min(actual.count, expected.count)).first(where: { actual[$0] != expected[$0] }) {
        XCTFail("\(message): sample \(index) is \(actual[index]), expected \(expected[index])", file: file, line: line)
    }
}

/// Whether a reference stays on this machine, inside the page's own folder tree or beside it:
/// no scheme (`http:`, `data:`, `file:`), no protocol-relative or absolute path.
func isLocalRelative(_ reference: String) -> Bool {
    guard !reference.hasPrefix("#") else { return true }
    return !reference.contains(":") && !reference.hasPrefix("/") && !reference.isEmpty
}

/// What `document` plays, through the neutral model the preview evaluates (`AHAPImport`
/// resolves the controls, `HapticPlayback` plays the track).
func playbackOf(_ document: AHAPDocument) -> HapticPlayback {
    HapticPlayback(AHAPImport.imported(from: document).track)
}
