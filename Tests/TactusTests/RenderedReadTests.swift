import Foundation
import Tactus
import TactusCore
import TactusFiles
@testable import TactusRender
import TactusTestSupport
import XCTest

/// `.pcm.wav` and `.dualsense.wav` read back (`DriveDemodulator`, `RenderedDriveFile`): what a
/// rendered file plays against the track it was rendered from, the format's rules on hand-made
/// WAVs, discovery passing Tactus's own outputs over, and the commands that read them.
final class RenderedReadTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = AudioFixture.temporaryDirectory(name)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func written(_ format: any HapticFormat, _ track: HapticTrack) throws -> Data {
        var bytes = Data()
        try format.write(track, context: HapticWriteContext(), file: format.fileEndings[0]) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// A 16-bit WAV of `samples` (interleaved, as integers).
    private func wav(_ samples: [Int16], channels: Int, rate: Int) throws -> Data {
        var bytes = try PCMWAVWriter(sampleRate: rate, channels: channels, frames: samples.count / channels).header
        for s in samples { bytes += [UInt8(truncatingIfNeeded: UInt16(bitPattern: s)), UInt8(truncatingIfNeeded: UInt16(bitPattern: s) >> 8)] }
        return Data(bytes)
    }

    private func sine(_ hz: Double, amplitude: Double, seconds: Double, rate: Int = 48_000, offset: Double = 0) -> [Int16] {
        (0..<Int(seconds * Double(rate))).map { Int16((amplitude * sin(2 * .pi * hz * Double($0) / Double(rate)) + offset) * 32767) }
    }

    /// A whole mono file in memory (`tactus tune`'s page audio) is the streaming writer's file:
    /// scaled by 32767, rounded half away from zero, clipped, NaN silent.
    func testAWholeFileInMemoryReadsBackOnTheSixteenBitGrid() throws {
        let bytes = try PCMWAVWriter.file([0, 0.5, -0.5, -1, 1, 2, -3, .nan], sampleRate: 22_050)
        let wav = try PCMWAVReader(Data(bytes))
        XCTAssertEqual(wav.channels, 1)
        XCTAssertEqual(wav.sampleRate, 22_050)
        XCTAssertEqual((0..<wav.frames).map { wav.integer($0, channel: 0) }, [0, 16384, -16384, -32767, 32767, 32767, -32768, 0])
    }

    /// A steady body reads back exactly (to the 16-bit grid), a pulse over it within 2 ms and a
    /// few hundredths, its sharpness out of the carrier's blend, from pcm and dualsense alike.
    func testASteadyBodyAndAPulseOverItReadBack() throws {
        let track = RenderedFormatTests.oneRegion(duration: 0.6, HapticTrack.Transient(time: 0.3, intensity: 0.3, sharpness: 1),
                                                  from: 0.1, to: 0.5, intensity: 0.5, sharpness: (0.25, 0.25))
        for format in [PCMFormat() as any HapticReadableFormat, DualSenseFormat()] {
            let read = try format.read(written(format, track)).track
            XCTAssertEqual(read.transients.count, 1, "\(type(of: format))")
            let pulse = try XCTUnwrap(read.transients.first)
            XCTAssertEqual(pulse.time, 0.3, accuracy: 0.002)
            XCTAssertEqual(pulse.intensity, 0.3, accuracy: 0.05)
            XCTAssertEqual(pulse.sharpness, 1, accuracy: 0.1)
            XCTAssertEqual(read.regions.count, 1)
            let region = try XCTUnwrap(read.regions.first)
            XCTAssertEqual(region.start, 0.1, accuracy: 0.01)
            XCTAssertEqual(region.end, 0.5, accuracy: 0.01)
            for t in [0.2, 0.4] {
                XCTAssertEqual(Polyline.value(of: region.intensity, at: t), 0.5, accuracy: 0.002)
                XCTAssertEqual(Polyline.value(of: region.sharpness, at: t), 0.25, accuracy: 0.01)
            }
            XCTAssertEqual(format.validate(try written(format, track), baseDirectory: nil), [])
        }
    }

    /// Real Corpus sounds through the whole path: every transient of a clicks-only sound within
    /// 1 ms and 0.02, and the body of a sound with one followed closely (Pearson of the
    /// continuous intensity, every millisecond, outside the pulses).
    func testCorpusSoundsReadBackFromTheirDriveSignals() throws {
        let converter = Converter(preset: try shippedPreset(), formats: try HapticFormats.select(["pcm"]), log: CommittedFiles())
        let clicks = try converter.convert(Corpus.root.appendingPathComponent("clean/ui_clicks.wav"), to: folder)
        let comparison = PlaybackComparison(reference: clicks.track, candidate: try HapticFormats.read(clicks.output("pcm")!).track)
        XCTAssertTrue(comparison.keepsEveryTransient, "\(comparison)")
        XCTAssertLessThan(comparison.worstTimeError, 0.001)
        XCTAssertLessThan(comparison.worstIntensityError, 0.02)

        let whoosh = try converter.convert(Corpus.root.appendingPathComponent("clean/whoosh.wav"), to: folder)
        let read = try HapticFormats.read(whoosh.output("pcm")!).track
        var (a, b): ([Double], [Double]) = ([], [])
        for step in 0..<Int(whoosh.track.duration * 1000) {
            let t = Double(step) / 1000
            let x = whoosh.track.region(at: t).map { Polyline.value(of: $0.intensity, at: t) } ?? 0
            let y = read.region(at: t).map { Polyline.value(of: $0.intensity, at: t) } ?? 0
            if x > 0 || y > 0 { a.append(x); b.append(y) }
        }
        XCTAssertGreaterThan(a.count, 500)
        XCTAssertGreaterThan(pearson(a, b), 0.99)
    }

    private func pearson(_ a: [Double], _ b: [Double]) -> Double {
        let (ma, mb) = (a.reduce(0, +) / Double(a.count), b.reduce(0, +) / Double(b.count))
        let cov = zip(a, b).map { ($0 - ma) * ($1 - mb) }.reduce(0, +)
        let va = a.map { ($0 - ma) * ($0 - ma) }.reduce(0, +), vb = b.map { ($0 - mb) * ($0 - mb) }.reduce(0, +)
        return cov / (va * vb).squareRoot()
    }

    private func kinds(_ format: any HapticReadableFormat, _ data: Data) -> [String] {
        format.validate(data, baseDirectory: nil).map { "\($0.severity.rawValue) \($0.kind)" }
    }

    /// Hand-made WAVs break the rules one at a time; each finding names its rule, and a file
    /// with an error does not read.
    func testValidateFindsEachBrokenRule() throws {
        let pcm = PCMFormat(), dualsense = DualSenseFormat()
        let clean = sine(160, amplitude: 0.5, seconds: 0.2)
        XCTAssertEqual(kinds(pcm, try wav(clean, channels: 1, rate: 48_000)), [])
        XCTAssertEqual(kinds(pcm, try wav(clean + clean, channels: 2, rate: 48_000)), ["error wrongChannels"])
        XCTAssertThrowsError(try pcm.read(wav(clean + clean, channels: 2, rate: 48_000)))
        XCTAssertEqual(kinds(pcm, try wav(clean, channels: 1, rate: 2_000)), ["error wrongSampleRate"])
        XCTAssertEqual(kinds(pcm, Data("RIFF\0\0\0\0WAVEfmt ".utf8)), ["error notPCMWAV"])
        XCTAssertEqual(kinds(pcm, try wav(sine(160, amplitude: 0.5, seconds: 0.2, offset: 0.1), channels: 1, rate: 48_000)),
                       ["warning dcOffset"])
        // A full-scale square wave: clipped, and its harmonics above the band.
        let square = (0..<9600).map { ($0 / 150) % 2 == 0 ? Int16.max : -Int16.max }
        XCTAssertEqual(kinds(pcm, try wav(square, channels: 1, rate: 48_000)), ["warning clipped", "warning aboveBand"])
        XCTAssertEqual(kinds(pcm, try wav(clean + [Int16.min], channels: 1, rate: 48_000)), ["warning beyondFullScale"])
        XCTAssertEqual(kinds(pcm, try wav(sine(2000, amplitude: 0.5, seconds: 0.2), channels: 1, rate: 48_000)), ["warning aboveBand"])

        let four: [Int16] = clean.flatMap { [0, 0, $0, $0] as [Int16] }
        XCTAssertEqual(kinds(dualsense, try wav(four, channels: 4, rate: 48_000)), [])
        XCTAssertEqual(kinds(dualsense, try wav(four, channels: 4, rate: 44_100)), ["error wrongSampleRate"])
        XCTAssertEqual(kinds(dualsense, try wav(clean, channels: 1, rate: 48_000)), ["error wrongChannels"])
        XCTAssertEqual(kinds(dualsense, try wav(clean.flatMap { [0, 0, $0, 0] as [Int16] }, channels: 4, rate: 48_000)), ["warning actuatorsDiffer"])
    }

    /// A folder holding a previous run's outputs beside its sounds: only the sounds are sources.
    func testDiscoveryPassesTactusOutputsOver() throws {
        let sound = try AudioFixture.write(Signals.clicks(at: [0.1], seconds: 0.3, sampleRate: 48_000),
                                           to: folder.appendingPathComponent("hit.wav"), sampleRate: 48_000)
        _ = try Converter(preset: try shippedPreset(), formats: try HapticFormats.select(["pcm", "dualsense", "ahap"]),
                          log: CommittedFiles()).convert(sound, to: folder)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("hit.pcm.wav").path))
        let tree = SourceDiscovery(root: folder, displayRoot: folder.path).discover()
        XCTAssertEqual(tree.sources.map(\.relativePath), ["hit.wav"])
        XCTAssertEqual(tree.rejected.count, 0)
        XCTAssertTrue(SourceDiscovery.isHapticOutput("Hit.DualSense.WAV"))
        XCTAssertFalse(SourceDiscovery.isHapticOutput("hit.wav"))
    }

    /// The commands on rendered files: validate checks them, compare reads them, preview plots
    /// and sonifies what they play, convert translates one as a haptic file; a second conversion
    /// replaces its own rendered outputs.
    func testCommandsReadRenderedFiles() throws {
        // Clicks with no body: a body that rises and falls within a pulse's length would read as one.
        let sound = folder.appendingPathComponent("hit.wav")
        try FileManager.default.copyItem(at: Corpus.root.appendingPathComponent("clean/ui_clicks.wav"), to: sound)
        let out = folder.appendingPathComponent("out")
        for _ in 0..<2 {
            let convert = try CLIRunner.run(["convert", sound.path, "-o", out.path, "--format", "ahap,pcm,dualsense"])
            XCTAssertEqual(convert.status, 0, "\(convert)")
        }
        let (pcm, dualsense, ahap) = (out.appendingPathComponent("hit.pcm.wav").path, out.appendingPathComponent("hit.dualsense.wav").path,
                                      out.appendingPathComponent("hit.ahap").path)
        let validate = try CLIRunner.run(["validate", pcm, dualsense])
        XCTAssertEqual(validate.status, 0, "\(validate)")
        XCTAssertEqual(validate.stdout, "\(pcm): 0 errors, 0 warnings\n\(dualsense): 0 errors, 0 warnings\n")
        let compare = try CLIRunner.run(["compare", ahap, pcm])
        XCTAssertTrue(compare.stdout.hasPrefix("transients: 5 paired of 5 (reference) and 5 (candidate)"), "\(compare)")
        let preview = try CLIRunner.run(["preview", dualsense, "-o", folder.appendingPathComponent("preview").path])
        XCTAssertEqual(preview.status, 0, "\(preview)")
        XCTAssertTrue(preview.stdout.contains("(5 transients"), "\(preview)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("preview/hit.dualsense.haptics.wav").path))
        let bad = folder.appendingPathComponent("bad.pcm.wav")
        try wav(sine(160, amplitude: 0.5, seconds: 0.1) + sine(160, amplitude: 0.5, seconds: 0.1), channels: 2, rate: 48_000).write(to: bad)
        let refused = try CLIRunner.run(["validate", bad.path])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stdout.hasPrefix("\(bad.path): error: fmt: 2 channels; this format has 1\n"), "\(refused)")
        let translated = try CLIRunner.run(["convert", pcm, "-o", folder.appendingPathComponent("t").path, "--format", "ahap"])
        XCTAssertEqual(translated.status, 0, "\(translated)")
        XCTAssertTrue(translated.stdout.contains("(5 transients"), "\(translated)")
    }
}
