import Foundation
import Tactus
import TactusAHAP
import TactusAndroid
import TactusCore
import TactusFiles
import TactusHaptic
import TactusTestSupport
import XCTest

/// Translations between formats keep what plays, measured with `PlaybackComparison` on what
/// each file plays (AHAPs through the pattern evaluator, `.haptic` through the √ law):
/// AHAP → `.haptic` → AHAP and `.haptic` → AHAP → `.haptic` keep every transient within 1 ms
/// and 0.02 of its intensity, and the continuous intensity within 0.03 RMS, on Corpus analyses
/// and on files published by others (`ExternalHaptics.folder`); the Android waveform,
/// read back on its millisecond grid, keeps the same within the bounds stated below.
final class RoundTripTests: XCTestCase {
    static let external = ExternalHaptics.folder

    /// The worst of a set of comparisons, printed once per direction for the record.
    private struct Worst: CustomStringConvertible {
        var files = 0, transients = 0, time = 0.0, intensity = 0.0, rms = 0.0, maskedRMS = 0.0
        mutating func add(_ c: Comparisons) {
            files += 1
            transients += c.full.referenceTransients
            (time, intensity) = (max(time, c.full.worstTimeError), max(intensity, c.full.worstIntensityError))
            (rms, maskedRMS) = (max(rms, c.full.envelopeRMS), max(maskedRMS, c.masked.envelopeRMS))
        }
        var description: String {
            "\(files) files, \(transients) transients: worst time \(JSONText.fixed(time * 1000, digits: 3)) ms, "
                + "intensity \(JSONText.fixed(intensity, digits: 4)), envelope RMS \(JSONText.fixed(rms, digits: 4)) "
                + "(\(JSONText.fixed(maskedRMS, digits: 4)) beyond \(Int(Self.maskMs)) ms of transients)"
        }
        static let maskMs = AHAPFormat().rampDuration * 1000
    }

    /// A comparison over the whole envelope, and one that leaves out the AHAP writer's ramps
    /// around transients (where it lifts the body so the transient plays unscaled).
    private struct Comparisons {
        var full, masked: PlaybackComparison
        init(_ reference: HapticTrack, _ candidate: HapticTrack) {
            full = PlaybackComparison(reference: reference, candidate: candidate)
            masked = PlaybackComparison(reference: reference, candidate: candidate, transientMask: Worst.maskMs / 1000)
        }
    }

    private func through(_ format: any HapticReadableFormat, _ track: HapticTrack) throws -> HapticTrack {
        var text = ""
        try format.write(track, context: HapticWriteContext(), to: { text += $0 })
        let data = Data(text.utf8)
        XCTAssertEqual(format.validate(data, baseDirectory: nil).filter { $0.severity == .error }, [])
        return try format.read(data).track
    }

    /// Every transient kept within 1 ms and 0.02, and the continuous intensity within 0.03 RMS:
    /// over the whole envelope where `wholeEnvelope`, else beyond the writer's ramps.
    private func assertKeeps(_ c: Comparisons, wholeEnvelope: Bool, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(c.full.keepsEveryTransient, "\(name): \(c.full)", file: file, line: line)
        XCTAssertLessThanOrEqual(c.full.worstTimeError, 0.001, name, file: file, line: line)
        XCTAssertLessThanOrEqual(c.full.worstIntensityError, 0.02, name, file: file, line: line)
        XCTAssertLessThanOrEqual((wholeEnvelope ? c.full : c.masked).envelopeRMS, 0.03, name, file: file, line: line)
    }

    /// What each Corpus sound's AHAP plays (default preset), by name.
    private func corpusTracks() throws -> [(String, HapticTrack)] {
        let folder = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: folder) }
        let converter = Converter(preset: try shippedPreset(), formats: [AHAPFormat()], log: CommittedFiles())
        let sounds = FileManager.default.enumerator(atPath: Corpus.root.path)!.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".wav") }.sorted()
        XCTAssertGreaterThanOrEqual(sounds.count, 40)
        return try sounds.map { name in
            let result = try converter.convert(Corpus.root.appendingPathComponent(name), to: folder,
                                               stem: name.replacingOccurrences(of: "/", with: "_"))
            return (name, try AHAPFormat().read(Data(contentsOf: result.output(AHAPFormat.id)!)).track)
        }
    }

    /// What each published file of `kind` ("ahap", "haptic") plays, by name; skips without them.
    private func publishedTracks(_ kind: String, _ format: any HapticReadableFormat) throws -> [(String, HapticTrack)] {
        let folder = Self.external.appendingPathComponent(kind)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix("." + kind) }.sorted()
        if names.isEmpty { throw XCTSkip(ExternalHaptics.absent("published .\(kind) files at \(folder.path)")) }
        return try names.map { ($0, try format.read(Data(contentsOf: folder.appendingPathComponent($0))).track) }
    }

    func testAHAPThroughHapticAndBackKeepsWhatPlays() throws {
        var corpus = Worst(), published = Worst()
        for (name, track) in try corpusTracks() {
            let back = try through(AHAPFormat(), try through(HapticFileFormat(), track))
            let comparison = Comparisons(track, back)
            assertKeeps(comparison, wholeEnvelope: true, name)
            corpus.add(comparison)
        }
        print("AHAP → .haptic → AHAP, Corpus: \(corpus)")
        let tracks = try publishedTracks("ahap", AHAPFormat())
        XCTAssertGreaterThanOrEqual(tracks.count, 20)
        for (name, track) in tracks {
            let back = try through(AHAPFormat(), try through(HapticFileFormat(), track))
            let comparison = Comparisons(track, back)
            assertKeeps(comparison, wholeEnvelope: false, name)
            published.add(comparison)
        }
        print("AHAP → .haptic → AHAP, published AHAPs: \(published)")
    }

    func testHapticThroughAHAPAndBackKeepsWhatPlays() throws {
        var toAHAP = Worst(), roundTrip = Worst()
        let tracks = try publishedTracks("haptic", HapticFileFormat())
        XCTAssertGreaterThanOrEqual(tracks.count, 5)
        for (name, track) in tracks {
            let ahap = try through(AHAPFormat(), track)
            let first = Comparisons(track, ahap)
            assertKeeps(first, wholeEnvelope: false, name + " → AHAP")
            toAHAP.add(first)
            let back = Comparisons(track, try through(HapticFileFormat(), ahap))
            assertKeeps(back, wholeEnvelope: false, name + " → AHAP → .haptic")
            roundTrip.add(back)
        }
        print(".haptic → AHAP, published .haptic files: \(toAHAP)")
        print(".haptic → AHAP → .haptic, published .haptic files: \(roundTrip)")
    }

    /// The Android waveform read back: per millisecond, felt intensity = √(amplitude / 255).
    /// Away from transient pulses it must follow the continuous intensity (held on the
    /// waveform's 10 ms grid, so within 0.05 RMS); each transient must start a pulse within
    /// 1 ms that plays at least its intensity (on the 0–255 scale).
    func testAndroidWaveformKeepsWhatPlays() throws {
        var (files, transients, worstRMS) = (0, 0, 0.0)
        let published = (try? publishedTracks("ahap", AHAPFormat())) ?? []
        for (name, track) in try corpusTracks() + published {
            var text = ""
            try AndroidFormat().write(track, context: HapticWriteContext(), to: { text += $0 })
            let json = try JSONReader.parse(Data(text.utf8))
            guard case .array(let timings)? = json["waveform"]?["timings"], case .array(let amplitudes)? = json["waveform"]?["amplitudes"] else {
                return XCTFail("\(name): no waveform")
            }
            var felt: [Double] = []
            for (ms, amplitude) in zip(timings.map { Int($0.number!) }, amplitudes.map { $0.number! }) {
                felt += Array(repeating: (amplitude / 255).squareRoot(), count: ms)
            }
            let pulseMs = 20  // AndroidFormat.transientMs's default
            func inPulse(_ ms: Int) -> Bool {
                track.transients.contains { let start = Int(($0.time * 1000).rounded()); return ms >= start - 1 && ms < start + pulseMs + 1 }
            }
            var (squares, count) = (0.0, 0)
            for ms in felt.indices where track.region(at: Double(ms) / 1000) != nil && !inPulse(ms) {
                let difference = felt[ms] - track.continuousIntensity(at: (Double(ms) + 0.5) / 1000)
                squares += difference * difference
                count += 1
            }
            let rms = count > 0 ? (squares / Double(count)).squareRoot() : 0
            XCTAssertLessThanOrEqual(rms, 0.05, name)
            worstRMS = max(worstRMS, rms)
            for transient in track.transients where transient.time * 1000 < Double(felt.count) - 1 {
                let start = max(0, Int((transient.time * 1000).rounded()))
                // At least its amplitude on the 0–255 scale (a transient below intensity 0.044 rounds to off).
                XCTAssertGreaterThanOrEqual((255 * felt[start] * felt[start]).rounded(), (255 * transient.intensity * transient.intensity).rounded(),
                                            "\(name) at \(transient.time)")
                XCTAssertLessThanOrEqual(abs(Double(start) / 1000 - transient.time), 0.0005 + 1e-9)
            }
            files += 1
            transients += track.transients.count
        }
        print("Android waveform, Corpus and published AHAPs: \(files) files, \(transients) transients: "
              + "every transient a pulse within 0.5 ms at its intensity; continuous intensity RMS worst \(JSONText.fixed(worstRMS, digits: 4))")
    }

    func testCompareCommandReportsARoundTripAndFailsOnALostTransient() throws {
        let folder = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sound = Corpus.root.appendingPathComponent("clean/coin_pickup.wav")
        XCTAssertEqual(try CLIRunner.run(["convert", sound.path, "-o", folder.path]).status, 0)
        let ahap = folder.appendingPathComponent("coin_pickup.ahap").path
        XCTAssertEqual(try CLIRunner.run(["convert", ahap, "-o", folder.appendingPathComponent("t").path, "--format", "haptic"]).status, 0)
        let translated = folder.appendingPathComponent("t/coin_pickup.haptic").path
        let result = try CLIRunner.run(["compare", ahap, translated])
        XCTAssertEqual(result.status, 0, result.description)
        XCTAssertTrue(result.stdout.hasPrefix("transients: "), result.stdout)
        XCTAssertFalse(result.stdout.contains(" paired of 0 "), "the coin has transients")
        // The JSON carries the sharpness and region counts; a negative edge mask is refused.
        let json = try CLIRunner.run(["compare", ahap, translated, "--format", "json", "--edge-mask-ms", "0.02"])
        XCTAssertEqual(json.status, 0, json.description)
        let numbers = try JSONReader.parse(Data(json.stdout.utf8))
        XCTAssertLessThanOrEqual(try XCTUnwrap(numbers["sharpness"]?["samples"]?.number), try XCTUnwrap(numbers["envelope"]?["samples"]?.number))
        XCTAssertNotNil(numbers["sharpness"]?["worst"]?.number)
        XCTAssertEqual(numbers["regions"]?["reference"]?.number, numbers["regions"]?["candidate"]?.number, "a round trip keeps the regions")
        XCTAssertEqual(try CLIRunner.run(["compare", ahap, translated, "--edge-mask-ms", "-1"]).status, 64)

        // The same file with its first emphasis removed: one transient lost, exit 1, one line.
        var text = try String(contentsOfFile: translated, encoding: .utf8)
        let emphasis = try XCTUnwrap(text.range(of: #", "emphasis": \{[^}]*\}"#, options: .regularExpression))
        text.removeSubrange(emphasis)
        let broken = folder.appendingPathComponent("broken.haptic")
        try text.write(to: broken, atomically: true, encoding: .utf8)
        let failed = try CLIRunner.run(["compare", ahap, broken.path])
        XCTAssertEqual(failed.status, 1)
        XCTAssertEqual(failed.stderr.split(separator: "\n").count, 1, failed.stderr)
        XCTAssertTrue(failed.stderr.contains("broken.haptic: plays differently"), failed.stderr)

        let unreadable = try CLIRunner.run(["compare", ahap, sound.path])
        XCTAssertEqual(unreadable.status, 1)
        XCTAssertTrue(unreadable.stderr.contains("coin_pickup.wav: is not a haptic file Tactus reads"), unreadable.stderr)
    }
}
