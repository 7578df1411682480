import Foundation
import Tactus
import TactusCore
import TactusFiles
@testable import TactusHaptic
import TactusTestSupport
import XCTest

/// `.haptic` files written from real analyses keep the rules Meta's Strict reader and Lofelt's
/// reader enforce, and carry the track: every transient as an emphasis at its time with
/// amplitude = intensity², the continuous envelope as intensity².
final class HapticFileFormatTests: XCTestCase {
    struct Point { var time: Double; var value: Double; var emphasis: (Double, Double)? }

    private func envelope(_ json: JSONValue, _ key: String) throws -> [Point] {
        guard case .array(let items)? = json["signals"]?["continuous"]?["envelopes"]?[key] else {
            throw XCTSkip("no \(key) envelope")
        }
        return items.map { item in
            Point(time: item["time"]!.number!, value: item[key]!.number!,
                  emphasis: item["emphasis"].map { ($0["amplitude"]!.number!, $0["frequency"]!.number!) })
        }
    }

    func testCorpusFilesFollowTheReadersRulesAndCarryTheTrack() throws {
        let folder = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: folder) }
        let converter = Converter(preset: try shippedPreset(), formats: try HapticFormats.select(["ahap", "haptic"]),
                                  log: CommittedFiles())
        let sources = ["clean/coin_pickup.wav", "clean/explosion.wav", "multi/door_open_close.wav", "ambience/hits_fire_snr20.wav",
                       "clean/whoosh.wav"].map { Corpus.root.appendingPathComponent($0) }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
        XCTAssertGreaterThanOrEqual(sources.count, 3)
        for source in sources {
            let result = try converter.convert(source, to: folder)
            let json = try JSONReader.parse(Data(contentsOf: result.output(HapticFileFormat.id)!))
            let name = source.lastPathComponent
            XCTAssertEqual(json["version"]?["major"]?.number, 1, name)
            let amplitude = try envelope(json, "amplitude"), frequency = try envelope(json, "frequency")
            // Meta: at least two amplitude breakpoints spanning more than zero time.
            XCTAssertGreaterThanOrEqual(amplitude.count, 2, name)
            XCTAssertGreaterThan(amplitude.last!.time, amplitude.first!.time, name)
            // Both: values in 0…1, times non-decreasing, emphasis never below its breakpoint.
            for envelope in [amplitude, frequency] {
                XCTAssertTrue(zip(envelope, envelope.dropFirst()).allSatisfy { $0.time <= $1.time }, name)
                XCTAssertTrue(envelope.allSatisfy { (0...1).contains($0.value) }, name)
            }
            for point in amplitude {
                guard let (strength, sharpness) = point.emphasis else { continue }
                XCTAssertGreaterThanOrEqual(strength, point.value, "\(name) at \(point.time)")
                XCTAssertTrue((0...1).contains(strength) && (0...1).contains(sharpness), name)
            }
            // Meta Strict: frequency breakpoints within the amplitude envelope's span.
            XCTAssertTrue(frequency.allSatisfy { $0.time >= amplitude.first!.time && $0.time <= amplitude.last!.time }, name)
            // The track: each transient as an emphasis within 1 ms, intensity = √amplitude within 0.02.
            let emphases = amplitude.filter { $0.emphasis != nil }
            XCTAssertEqual(emphases.count, result.track.transients.count, name)
            for (transient, point) in zip(result.track.transients, emphases) {
                XCTAssertEqual(point.time, transient.time, accuracy: 0.001, name)
                XCTAssertEqual(point.emphasis!.0.squareRoot(), transient.intensity, accuracy: 0.02, name)
                XCTAssertEqual(point.emphasis!.1, transient.sharpness, accuracy: 0.001, name)
            }
            for region in result.track.regions {
                for p in region.intensity where !amplitude.contains(where: { $0.emphasis != nil && $0.time == p.time }) {
                    let written = amplitude.last { abs($0.time - p.time) < 1e-5 && $0.emphasis == nil && $0.value > 0 }
                    if let written { XCTAssertEqual(written.value.squareRoot(), p.value, accuracy: 0.02, name) }
                }
            }
        }
    }

    /// A track with no haptics still gives a file the readers accept.
    func testAnEmptyTrackGivesAValidFile() throws {
        var text = ""
        try HapticFileFormat().write(HapticTrack(duration: 0.5), context: HapticWriteContext()) { text += $0 }
        let json = try JSONReader.parse(Data(text.utf8))
        let amplitude = try envelope(json, "amplitude")
        XCTAssertEqual(amplitude.map(\.time), [0, 0.5])
        XCTAssertEqual(try envelope(json, "frequency").count, 1)
    }

    /// The metadata of a Tactus-made file under Meta's six field names, in Haptics Studio's
    /// order, and Tactus's provenance beside them, all read back without a diagnostic.
    func testTactusProvenanceIsWrittenUnderMetasFieldNames() throws {
        let provenance = [("Project", "Tactus"), ("Description", "Haptics for boom.wav, made by Tactus"),
                          ("Source", "boom.wav"), ("Preset", "impacts"), ("PresetOverrides", "peaks.delta=2"),
                          ("PresetHash", "0123456789abcdef"), ("ToolVersion", "9.8.7")]
            .map { MetadataEntry(key: $0.0, value: $0.1) }
        var text = ""
        try HapticFileFormat().write(HapticTrack(duration: 0.5), context: HapticWriteContext(metadata: provenance)) { text += $0 }
        guard case .object(let members)? = try JSONReader.parse(Data(text.utf8))["metadata"] else {
            return XCTFail("no metadata object in \(text)")
        }
        XCTAssertEqual(members.map(\.key), ["editor", "author", "source", "project", "tags", "description",
                                            "Preset", "PresetOverrides", "PresetHash", "ToolVersion"])
        XCTAssertEqual(members.map { $0.value.compactText() },
                       [#""Tactus 9.8.7""#, #""""#, #""boom.wav""#, #""boom""#, "[]", #""Haptics for boom.wav, made by Tactus""#,
                        #""impacts""#, #""peaks.delta=2""#, #""0123456789abcdef""#, #""9.8.7""#])
        let read = try HapticFileFormat().read(Data(text.utf8))
        XCTAssertEqual(read.warnings, [])
        XCTAssertEqual(read.metadata.first { $0.key == "PresetHash" }?.value, "0123456789abcdef")
    }

    /// A translation keeps another tool's Meta fields, names Tactus as the editor, and turns
    /// AHAP's `Project` into Meta's `project` when no source names the sound.
    func testATranslationKeepsTheOriginalFieldsAndNamesTactusAsEditor() throws {
        let lofelt = [("editor", "Lofelt Studio"), ("author", "a@b.c"), ("source", "Laser.wav"), ("tags", "ui, short"),
                      ("TranslatedFrom", "Laser.haptic"), ("TranslatedBy", "Tactus 1.0")]
        let apple = [("Project", "Gravel"), ("Created", "2019"), ("TranslatedFrom", "Gravel.ahap"), ("TranslatedBy", "Tactus 1.0")]
        for (entries, expected) in [
            (lofelt, ["editor": "\"Tactus 1.0\"", "author": "\"a@b.c\"", "source": "\"Laser.wav\"", "project": "\"\"",
                      "tags": "[\"ui\",\"short\"]", "TranslatedFrom": "\"Laser.haptic\"", "TranslatedBy": "\"Tactus 1.0\""]),
            (apple, ["editor": "\"Tactus 1.0\"", "source": "\"\"", "project": "\"Gravel\"", "Created": "\"2019\""]),
        ] {
            let members = HapticFileFormat.metaMetadata(entries.map { MetadataEntry(key: $0.0, value: $0.1) })
            XCTAssertEqual(Array(members.prefix(6).map(\.key)), ["editor", "author", "source", "project", "tags", "description"])
            XCTAssertEqual(Set(members.map(\.key)).count, members.count, "no key twice: \(members)")
            XCTAssertFalse(members.contains { $0.key == "Project" || $0.value.string == "Lofelt Studio" }, "\(members)")
            for (key, value) in expected {
                XCTAssertEqual(members.first { $0.key == key }?.value.compactText(), value, key)
            }
        }
    }

    func testNonFiniteNumbersAreRefused() {
        let track = HapticTrack(duration: 1, transients: [.init(time: .nan, intensity: 1, sharpness: 0.5)])
        XCTAssertThrowsError(try HapticFileFormat().write(track, context: HapticWriteContext()) { _ in })
    }
}
