import Foundation
import XCTest
import Tactus
import TactusAHAP
import TactusTestSupport
import TactusCore
import TactusFiles

/// The same input and preset give the same bytes: across runs (separate processes),
/// across `--jobs` values, and — for the haptics — across lossless containers holding
/// the same samples. Outputs are build artefacts checked into apps; a rerun that changes
/// them without reason is noise in every diff.
final class DeterminismTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = AudioFixture.temporaryDirectory(name)
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// A sound with hits of different strengths over a noise bed: transients, curves and
    /// continuous events all get exercised.
    private func sound(seed: UInt64 = 1, seconds: Double = 2, sampleRate: Double = 44_100) -> [Float] {
        Signals.mix(Signals.clicks(at: [0.12, 0.5, 0.9, 1.45], seconds: seconds, sampleRate: sampleRate, seed: seed),
                    Signals.noise(seconds: seconds, sampleRate: sampleRate, amplitude: 0.05, seed: seed + 100))
    }

    private func run(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let outcome = try CLIRunner.run(arguments, in: folder)
        XCTAssertEqual(outcome.status, 0, "\(outcome)", file: file, line: line)
    }

    func testSameInputAndPresetGiveIdenticalBytesAcrossRuns() throws {
        let wav = try AudioFixture.write(sound(seed: 1), to: folder.appendingPathComponent("copied.wav"),
                                         sampleRate: 44_100, format: .wav24)
        let flac = try AudioFixture.write(sound(seed: 2), to: folder.appendingPathComponent("decoded.flac"),
                                          sampleRate: 44_100, format: .flac16)
        for preset in ["default", "impacts"] {
            let first = folder.appendingPathComponent("first-\(preset)"), second = folder.appendingPathComponent("second-\(preset)")
            for out in [first, second] {
                try run(["convert", wav.path, flac.path, "-o", out.path, "--preset", preset, "--quiet"])
            }
            let a = try FileTree.contents(below: first), b = try FileTree.contents(below: second)
            XCTAssertEqual(a.keys.sorted(), ["copied.ahap", "copied.wav", "decoded.ahap", "decoded.wav"])
            XCTAssertEqual(a, b, "\(preset): a second run wrote different bytes")
        }
    }

    func testBatchOutputsDoNotDependOnTheNumberOfJobs() throws {
        let inputs = folder.appendingPathComponent("sfx", isDirectory: true)
        let formats: [AudioFixture.Format] = [.wav16, .flac16, .oggVorbis, .aiff16, .wavFloat, .caf16]
        for (i, format) in formats.enumerated() {
            let sub = inputs.appendingPathComponent(i % 2 == 0 ? "hits" : "beds", isDirectory: true)
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            try AudioFixture.write(sound(seed: UInt64(i + 1), seconds: 1 + Double(i) * 0.25, sampleRate: 22_050),
                                   to: sub.appendingPathComponent("s\(i).\(format.fileExtension)"), sampleRate: 22_050,
                                   format: format)
        }
        var outputs: [Int: [String: Data]] = [:]
        for jobs in [1, 2, 4] {
            let out = folder.appendingPathComponent("out-\(jobs)")
            try run(["batch", inputs.path, "-o", out.path, "--jobs", "\(jobs)", "--quiet"])
            outputs[jobs] = try FileTree.contents(below: out)
        }
        XCTAssertEqual(outputs[1]?.count, formats.count * 2 + 1, "an AHAP and its audio per sound, and the manifest")
        XCTAssertEqual(outputs[1], outputs[2])
        XCTAssertEqual(outputs[1], outputs[4])
    }

    /// The same 16-bit samples in five lossless containers: identical HapticTracks, and AHAPs
    /// that differ only where they name their source and its audio.
    func testSameSamplesInAnyLosslessContainerGiveTheSameHaptics() throws {
        let samples = sound(seed: 3)
        let formats: [AudioFixture.Format] = [.wav16, .flac16, .aiff16, .caf16, .w64]
        let converter = Converter(preset: try shippedPreset(), log: CommittedFiles())
        var results: [(ConversionResult, AHAPDocument)] = []
        for format in formats {
            let source = try AudioFixture.write(samples, to: folder.appendingPathComponent("hit.\(format.fileExtension)"),
                                                sampleRate: 44_100, format: format)
            let result = try converter.convert(source, to: folder.appendingPathComponent(format.fileExtension))
            results.append((result, try AHAPDecoder().decode(Data(contentsOf: result.output(AHAPFormat.id)!))))
        }
        let (reference, referenceDocument) = results[0]
        XCTAssertFalse(reference.track.transients.isEmpty)
        XCTAssertFalse(reference.track.regions.isEmpty)
        for (result, document) in results.dropFirst() {
            let name = result.source.lastPathComponent
            XCTAssertEqual(result.track, reference.track, "\(name): different haptics from the same samples")
            XCTAssertEqual(Self.withoutSourceNames(document), Self.withoutSourceNames(referenceDocument), name)
        }
    }

    /// The document with the source's name removed from metadata and the audio's path blanked.
    private static func withoutSourceNames(_ document: AHAPDocument) -> AHAPDocument {
        var copy = document
        copy.metadata.removeAll { $0.key == "Source" || $0.key == "Description" }
        copy.pattern = copy.pattern.map { element in
            guard case .event(var event) = element, event.type == .audioCustom else { return element }
            event.waveformPath = ""
            return .event(event)
        }
        return copy
    }
}
