import Foundation
import Tactus
import TactusCore
import TactusFiles
import TactusHaptic
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

    func testNonFiniteNumbersAreRefused() {
        let track = HapticTrack(duration: 1, transients: [.init(time: .nan, intensity: 1, sharpness: 0.5)])
        XCTAssertThrowsError(try HapticFileFormat().write(track, context: HapticWriteContext()) { _ in })
    }
}
