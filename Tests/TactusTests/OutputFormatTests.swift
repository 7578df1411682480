import Foundation
import Tactus
import TactusAHAP
import TactusCore
import TactusFiles
import TactusTestSupport
import XCTest

/// A format of a test's own, written the way the "Add an output format" article says: one
/// type, one registration. It lists the transients as text, one per line.
private struct TransientListFormat: HapticFormat {
    static let id = "transient-list"
    static let fileExtension = "transients.txt"
    static let summary = "Transient times and intensities, one per line (a test format)."
    static let decimals = ParameterDescriptor.integer("decimals", 0...6, default: 3, help: "Decimals of each time.")
    static let parameters = [decimals]

    let decimals: Int

    init(parameters: ParameterSet) {
        decimals = Int(parameters.number(Self.decimals))
    }

    func write(_ track: HapticTrack, context: HapticWriteContext, to emit: (String) throws -> Void) throws {
        for transient in track.transients {
            try emit(String(format: "%.\(decimals)f %.2f\n", transient.time, transient.intensity))
        }
    }
}

final class OutputFormatTests: XCTestCase {
    override class func setUp() {
        HapticFormats.register(TransientListFormat.self)
    }

    override class func tearDown() {
        HapticFormats.unregister(TransientListFormat.id)
    }

    func testSelectionByIdCommaListsAndRepeats() throws {
        let formats = try HapticFormats.select(["transient-list,ahap", "ahap"])
        XCTAssertEqual(formats.map { type(of: $0).id }, ["transient-list", "ahap"])
        XCTAssertThrowsError(try HapticFormats.select(["ahapp"])) {
            // Every format, in the registry's order: the built-in list, then the registered one.
            XCTAssertEqual("\($0)", "unknown format \"ahapp\" (one of "
                           + (HapticFormats.builtIn.map { $0.id } + ["transient-list"]).joined(separator: ", ") + "; did you mean \"ahap\"?)")
        }
        XCTAssertThrowsError(try HapticFormats.select([]))
    }

    /// One analysis, every selected format: the registered format sees the same track the
    /// AHAP is written from, and each file is named `<stem>.<extension>`.
    func testConverterWritesEverySelectedFormatFromOneAnalysis() throws {
        let folder = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try AudioFixture.write(Signals.clicks(at: [0.1, 0.35], seconds: 0.6, sampleRate: 16_000, seed: 3),
                                            to: folder.appendingPathComponent("taps.wav"), sampleRate: 16_000)
        let log = CommittedFiles()
        let converter = Converter(preset: try shippedPreset(),
                                  formats: try HapticFormats.select(["ahap", "transient-list"]), log: log)
        let result = try converter.convert(source, to: folder.appendingPathComponent("out"))

        XCTAssertEqual(result.outputs.map { $0.url.lastPathComponent }, ["taps.ahap", "taps.transients.txt"])
        let lines = try String(contentsOf: result.output(TransientListFormat.id)!, encoding: .utf8)
            .split(separator: "\n")
        XCTAssertEqual(lines.count, result.track.transients.count)
        XCTAssertEqual(lines.count, 2)
        let ahap = PatternEvaluator(try AHAPDecoder().decode(Data(contentsOf: result.output(AHAPFormat.id)!)))
        XCTAssertEqual(ahap.transients.count, lines.count)
        XCTAssertEqual(result.outputs.map(\.bytes), try result.outputs.map {
            try Data(contentsOf: $0.url).count
        })
        XCTAssertEqual(log.pending, [result.audio!.path] + result.outputs.map(\.url.path),
                       "audio first, then every format, all recorded for the end-of-run sync")
    }

    /// A format Tactus cannot read back tells nothing of who made a file at its name: a second
    /// conversion replaces it, as it replaces Tactus's own AHAP, while a hand-made AHAP is kept.
    func testARerunReplacesItsOutputsInAFormatThatRecordsNoProvenance() throws {
        let folder = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try AudioFixture.write(Signals.clicks(at: [0.1, 0.35], seconds: 0.6, sampleRate: 16_000, seed: 3),
                                            to: folder.appendingPathComponent("taps.wav"), sampleRate: 16_000)
        let converter = Converter(preset: try shippedPreset(), formats: try HapticFormats.select(["ahap", "transient-list"]),
                                  log: CommittedFiles())
        let out = folder.appendingPathComponent("out")
        for _ in 0..<2 { XCTAssertEqual(try converter.convert(source, to: out).outputs.count, 2) }
        try Data(#"{"Version": 1.0, "Pattern": []}"#.utf8).write(to: out.appendingPathComponent("taps.ahap"))
        XCTAssertThrowsError(try converter.convert(source, to: out)) {
            XCTAssertTrue("\($0)".contains("would replace taps.ahap, which Tactus did not make"), "\($0)")
        }
    }

    /// Who made a file at an output's name is read from its metadata at the file's start, in
    /// every JSON format Tactus writes: its own output with a damaged tail is still its own and
    /// is replaced; a file with metadata only after 64 KiB of other members is read whole, and
    /// refused unless that metadata marks Tactus.
    func testARerunReadsWhoMadeAFileFromItsMetadata() throws {
        let folder = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try AudioFixture.write(Signals.clicks(at: [0.1, 0.35], seconds: 0.6, sampleRate: 16_000, seed: 3),
                                            to: folder.appendingPathComponent("taps.wav"), sampleRate: 16_000)
        let formats = ["ahap": "Metadata", "haptic": "metadata", "android": "metadata", "rumble": "metadata"]
        let converter = Converter(preset: try shippedPreset(), formats: try HapticFormats.select(formats.keys.sorted()),
                                  log: CommittedFiles())
        let out = folder.appendingPathComponent("out")
        let first = try converter.convert(source, to: out)
        let written = try first.outputs.map { try Data(contentsOf: $0.url) }
        let padding = String(repeating: "x", count: 70_000)
        for (output, original) in zip(first.outputs, written) {
            let member = try XCTUnwrap(formats[output.formatID])
            try original.prefix(original.count / 2).write(to: output.url)
            XCTAssertNoThrow(try converter.convert(source, to: out), output.formatID)
            XCTAssertEqual(try Data(contentsOf: output.url), original, "\(output.formatID): replaced")

            let foreign = Data(#"{"pad": "\#(padding)", "\#(member)": {"Project": "Someone"}}"#.utf8)
            try foreign.write(to: output.url)
            XCTAssertThrowsError(try converter.convert(source, to: out), output.formatID) {
                XCTAssertTrue("\($0)".contains("which Tactus did not make"), "\($0)")
            }
            XCTAssertEqual(try Data(contentsOf: output.url), foreign, "\(output.formatID): kept")

            try Data(#"{"pad": "\#(padding)", "\#(member)": {"Project": "Tactus"}}"#.utf8).write(to: output.url)
            XCTAssertNoThrow(try converter.convert(source, to: out), output.formatID)
            XCTAssertEqual(try Data(contentsOf: output.url), original, "\(output.formatID): replaced")
        }
    }

    /// The batch writes, tracks and checks every format: a rerun is up to date, and asking
    /// for another set of formats reconverts and removes what is no longer wanted.
    /// Presets and `--set` tune the built-in formats (`format.<id>`): the Android waveform's
    /// grid follows `format.android.stepMs`, AHAP's transient ramps `format.ahap.rampMs`; a
    /// value out of range is a usage error naming the key; a registered format keeps its own.
    func testPresetsTuneTheBuiltInFormats() throws {
        let folder = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sound = Corpus.root.appendingPathComponent("clean/coin_pickup.wav")
        func waveformSegments(_ overrides: [String]) throws -> Int {
            let converter = Converter(preset: try shippedPreset(overrides: overrides), formats: try HapticFormats.select(["android"]),
                                      log: CommittedFiles())
            let out = folder.appendingPathComponent(UUID().uuidString)
            let json = try JSONReader.parse(Data(contentsOf: try converter.convert(sound, to: out).output("android")!))
            guard case .array(let timings)? = json["waveform"]?["timings"] else { throw XCTSkip("no waveform") }
            return timings.count
        }
        XCTAssertGreaterThan(try waveformSegments(["format.android.stepMs=2"]), try waveformSegments([]), "a finer grid, more segments")

        let ahap = try Converter(preset: try shippedPreset(overrides: ["format.ahap.rampMs=3"]), formats: [AHAPFormat()], log: CommittedFiles())
            .formats.first as? AHAPFormat
        XCTAssertEqual(ahap?.rampDuration, 0.003)
        let refused = try CLIRunner.run(["convert", sound.path, "-o", folder.path, "--set", "format.ahap.rampMs=0.5"])
        XCTAssertEqual(refused.status, 64)
        XCTAssertTrue(refused.stderr.contains("format.ahap.rampMs = 0.5 is outside 1…1000"), refused.stderr)

        let own = TransientListFormat(parameters: try ParameterSet(TransientListFormat.parameters, ["decimals": .number(5)]))
        let kept = Converter(preset: try shippedPreset(), formats: [own], log: CommittedFiles()).formats.first as? TransientListFormat
        XCTAssertEqual(kept?.decimals, 5)
    }

    func testBatchTracksOutputsPerFormat() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        try fixture.sound("hit.wav")
        let both = try fixture.run { $0.formats = try! HapticFormats.select(["ahap", "transient-list"]) }
        XCTAssertEqual(both.files.map(\.status), [.converted])
        XCTAssertEqual(Set(both.files[0].outputs), ["hit.ahap", "hit.transients.txt", "hit.wav"])

        let again = try fixture.run { $0.formats = try! HapticFormats.select(["ahap", "transient-list"]) }
        XCTAssertEqual(again.files.map(\.status), [.upToDate])

        // Fewer formats remove nothing the run was not asked to remove: the AHAP is current, the
        // list of transients stays (and stays in the manifest).
        let ahapOnly = try fixture.run()
        XCTAssertEqual(ahapOnly.files.map(\.status), [.upToDate])
        XCTAssertEqual(Set(try fixture.outputFiles().keys.filter { !$0.hasPrefix(".") }), ["hit.ahap", "hit.transients.txt", "hit.wav"])
        let listOnly = try fixture.run {
            $0.formats = try! HapticFormats.select(["transient-list"])
            $0.prune = true
        }
        XCTAssertEqual(listOnly.files.map(\.status), [.converted], "--prune converts again to know what the run writes")
        // A list of transients plays no sound: pruned, the paired audio the AHAP needed goes with it.
        XCTAssertEqual(listOnly.files[0].pruned.sorted(), ["hit.ahap", "hit.wav"])
        XCTAssertEqual(Set(try fixture.outputFiles().keys.filter { !$0.hasPrefix(".") }), ["hit.transients.txt"])
    }
}
