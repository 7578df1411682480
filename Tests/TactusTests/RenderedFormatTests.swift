import Foundation
import Tactus
import TactusAHAP
import TactusCore
import TactusFiles
@testable import TactusRender
import TactusTestSupport
import XCTest

/// The formats rendered on a time grid (pcm, dualsense, rumble), split AHAP and audio pairing,
/// on real signals: what each file plays is measured from its own bytes.
final class RenderedFormatTests: XCTestCase {
    /// One transient and one region of constant intensity whose sharpness goes linearly from
    /// `sharpness.from` to `sharpness.to`.
    static func oneRegion(duration: Double, _ transient: HapticTrack.Transient, from start: Double, to end: Double,
                          intensity: Double, sharpness: (from: Double, to: Double)) -> HapticTrack {
        HapticTrack(duration: duration, transients: [transient], regions: [HapticTrack.ContinuousRegion(
            start: start, end: end,
            intensity: [HapticTrack.Point(time: start, value: intensity), HapticTrack.Point(time: end, value: intensity)],
            sharpness: [HapticTrack.Point(time: start, value: sharpness.from), HapticTrack.Point(time: end, value: sharpness.to)])])
    }

    /// A body whose sharpness goes 0 → 1 over 0.2…0.8 s at intensity 0.5, and a full transient at 1.0 s.
    static let track = oneRegion(duration: 1.2, HapticTrack.Transient(time: 1.0, intensity: 1, sharpness: 0.5),
                                 from: 0.2, to: 0.8, intensity: 0.5, sharpness: (0, 1))

    private func written(_ format: any HapticFormat, _ track: HapticTrack = track,
                         context: HapticWriteContext = HapticWriteContext()) throws -> Data {
        var bytes = Data()
        try format.write(track, context: context, file: format.fileEndings[0]) { bytes.append(contentsOf: $0) }
        return bytes
    }

    private func pcm(_ settings: [String] = []) throws -> PCMFormat {
        let preset = try shippedPreset(overrides: settings)
        return HapticFormats.configured(PCMFormat(), for: preset) as! PCMFormat
    }

    /// Carrier frequency over `range` (seconds) of `samples`, from its rising zero crossings.
    private func frequency(_ samples: ArraySlice<Float>, sampleRate: Double) -> Double {
        let indices = Array(samples.indices)
        var crossings: [Int] = []
        for (a, b) in zip(indices, indices.dropFirst()) where samples[a] < 0 && samples[b] >= 0 { crossings.append(b) }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) * sampleRate / Double(last - first)
    }

    func testPCMCarrierFollowsSharpnessWithinTheBandAndAmplitudeFollowsIntensity() throws {
        let wav = try PCMWAVReader(written(try pcm()))
        XCTAssertEqual(wav.sampleRate, 48_000)
        XCTAssertEqual(wav.channels, 1)
        let rate = 48_000.0
        let samples = wav.samples
        func at(_ t: Double, _ width: Double = 0.04) -> ArraySlice<Float> {
            samples[Int((t - width / 2) * rate)..<Int((t + width / 2) * rate)]
        }
        // Sharpness 0 → lowHz 80, 0.5 → resonance 160, 1 → highHz 500 (the voice-coil profile).
        XCTAssertEqual(frequency(at(0.23, 0.05), sampleRate: rate), 80 * pow(2, 0.06 * 2), accuracy: 6)
        XCTAssertEqual(frequency(at(0.5), sampleRate: rate), 160, accuracy: 8)
        XCTAssertEqual(frequency(at(0.78), sampleRate: rate), 500 * pow(160.0 / 500, 2 * 0.0333), accuracy: 25)
        // Amplitude: the body's 0.5 (full scale 1), silence outside, the pulse's 1 at its middle.
        XCTAssertEqual(Double(at(0.5).map(abs).max()!), 0.5, accuracy: 0.01)
        XCTAssertEqual(at(0.9, 0.1).map(abs).max()!, 0)
        XCTAssertEqual(Double(at(1.006, 0.012).map(abs).max()!), 1, accuracy: 0.06)
        // The pulse starts at its transient: nothing before 1.0 s, a pulse within 2 ms after it.
        let first = samples.indices.first { $0 > Int(0.9 * rate) && abs(samples[$0]) > 0.05 }!
        XCTAssertEqual(Double(first) / rate, 1.0, accuracy: 0.002)
    }

    /// Share of the energy of `samples` (Hann-windowed) above `edge` Hz against below it, in dB,
    /// from their DFT (Goertzel, bin by bin).
    private func energyAbove(_ edge: Double, _ samples: ArraySlice<Float>, sampleRate: Double) -> Double {
        let n = samples.count
        let x = samples.enumerated().map { i, v in Double(v) * pow(sin(Double.pi * Double(i) / Double(n)), 2) }
        var above = 0.0, below = 0.0
        for bin in 1..<(n / 2) {
            let coefficient = 2 * cos(2 * Double.pi * Double(bin) / Double(n))
            var (s1, s2) = (0.0, 0.0)
            for v in x { (s1, s2) = (v + coefficient * s1 - s2, s1) }
            let power = s1 * s1 + s2 * s2 - coefficient * s1 * s2
            if Double(bin) * sampleRate / Double(n) > edge { above += power } else { below += power }
        }
        return 10 * log10(above / below)
    }

    /// A sharp transient (500 Hz carrier) over a dull body (80 Hz): the carrier glides between
    /// them with the pulse, so the drive stays within the band and the pulse's main lobe
    /// (500 Hz + 2 / 12 ms). Switching the carrier when the pulse overtook the body put −24 dB
    /// of it above that.
    func testAPulseOverTheBodyKeepsTheDriveInTheBand() throws {
        let track = Self.oneRegion(duration: 0.6, HapticTrack.Transient(time: 0.3, intensity: 1, sharpness: 1),
                                   from: 0.1, to: 0.5, intensity: 0.5, sharpness: (0, 0))
        let wav = try PCMWAVReader(written(try pcm(), track))
        let middle = Int(0.306 * 48_000)
        let around = wav.samples[(middle - 2048)..<(middle + 2048)]
        XCTAssertLessThan(energyAbove(500 + 2 / 0.012, around, sampleRate: 48_000), -35)
        // The pulse plays on the body, reaching full scale at its peak (0.5 + 1 − 0.5 · 1 = 1);
        // the carrier's crests fall within a few per cent of that instant's amplitude.
        XCTAssertEqual(Double(around.map(abs).max()!), 1, accuracy: 0.04)
    }

    func testLRAProfileKeepsEverySharpnessInItsNarrowBand() throws {
        let wav = try PCMWAVReader(written(try pcm(["format.pcm.profile=lra"])))
        for t in [0.25, 0.5, 0.75] {
            let f = frequency(wav.samples[Int((t - 0.02) * 48_000)..<Int((t + 0.02) * 48_000)], sampleRate: 48_000)
            XCTAssert((145...195).contains(f), "\(f) Hz at \(t) s")
        }
        XCTAssertThrowsError(try written(try pcm(["format.pcm.profile=custom", "format.pcm.lowHz=300", "format.pcm.highHz=200"])))
        XCTAssertThrowsError(try written(try pcm(["format.pcm.sampleRate=4000", "format.pcm.profile=custom",
                                                  "format.pcm.highHz=2000", "format.pcm.resonanceHz=500"])))
    }

    /// A 44.1 kHz stereo sound: channels 1-2 carry it at 48 kHz (a 1 kHz tone stays 1 kHz, at its
    /// level), channels 3-4 the drive signal the pcm format renders for the same track.
    func testDualSenseCarriesTheResampledSoundBesideTheDriveSignal() throws {
        let folder = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tone = Signals.mix(Signals.sine(hz: 1000, seconds: 1.0, sampleRate: 44_100, amplitude: 0.4),
                               Signals.clicks(at: [0.5], seconds: 1.0, sampleRate: 44_100))
        let source = try AudioFixture.write(zip(tone, tone).flatMap { [$0, $1 * 0.5] },
                                            to: folder.appendingPathComponent("tone.wav"), sampleRate: 44_100, channels: 2,
                                            interleaved: true)
        let converter = Converter(preset: try shippedPreset(), formats: try HapticFormats.select(["dualsense", "pcm"]),
                                  log: CommittedFiles())
        let result = try converter.convert(source, to: folder)
        XCTAssertNil(result.audio, "no selected format plays paired audio")
        let wav = try PCMWAVReader(Data(contentsOf: result.output("dualsense")!))
        XCTAssertEqual([wav.sampleRate, wav.channels], [48_000, 4])
        func channel(_ c: Int, _ range: Range<Int>) -> [Float] { range.map { wav.sample($0, channel: c) } }
        let middle = 12_000..<20_000  // 0.25…0.42 s: the tone alone
        XCTAssertEqual(frequency(channel(0, middle)[...], sampleRate: 48_000), 1000, accuracy: 2)
        XCTAssertEqual(Double(channel(0, middle).map(abs).max()!), 0.4, accuracy: 0.01)
        XCTAssertEqual(Double(channel(1, middle).map(abs).max()!), 0.2, accuracy: 0.01)
        XCTAssertEqual(channel(2, 0..<wav.frames), channel(3, 0..<wav.frames))
        let drive = try PCMWAVReader(Data(contentsOf: result.output("pcm")!))
        XCTAssertEqual(channel(2, 0..<wav.frames), Array(drive.samples[0..<wav.frames]))
        XCTAssertFalse(result.track.transients.isEmpty)
        for transient in result.track.transients {  // each pulse within 2 ms of its transient
            let start = Int(transient.time * 48_000)
            XCTAssertGreaterThan(Double(channel(2, start..<(start + 96)).map(abs).max()!), 0.1 * transient.intensity)
        }
    }

    func testRumbleSplitsSharpnessBetweenTheMotorsAndReadsBack() throws {
        let format = RumbleFormat()
        let data = try written(format)
        let json = try JSONReader.parse(data)
        guard case .array(let low)? = json["lowFrequency"], case .array(let high)? = json["highFrequency"],
              case .number(let step)? = json["stepMs"] else { return XCTFail("no timeline") }
        func speed(_ values: [JSONValue], _ t: Double) -> Double {
            guard case .number(let x) = values[Int(t * 1000 / step)] else { return -1 }
            return x
        }
        XCTAssertEqual(speed(low, 0.25), 0.5, accuracy: 0.001)  // dull: the heavy motor
        XCTAssertLessThan(speed(high, 0.25), 0.1)
        XCTAssertEqual(speed(high, 0.75), 0.5, accuracy: 0.001)  // sharp: the light one
        XCTAssertLessThan(speed(low, 0.75), 0.1)
        XCTAssertEqual(speed(low, 1.02), 1, accuracy: 0.001)  // the transient's pulse, both at 0.5 sharpness
        XCTAssertEqual(speed(high, 1.02), 1, accuracy: 0.001)
        XCTAssertEqual(speed(low, 0.9), 0)

        let read = try format.read(data)
        XCTAssertTrue(format.validate(data, baseDirectory: nil).isEmpty)
        XCTAssertEqual(read.track.transients.count, 1)
        XCTAssertEqual(read.track.transients[0].time, 1.0, accuracy: step / 2000)
        let comparison = PlaybackComparison(reference: Self.track, candidate: read.track, transientMask: 0.05)
        XCTAssertLessThan(comparison.envelopeRMS, 0.02)
        XCTAssertTrue(comparison.keepsEveryTransient)
    }

    func testRumbleValidatorNamesBrokenTimelines() throws {
        let text = String(decoding: try written(RumbleFormat()), as: UTF8.self)
        let shortened = text.replacingOccurrences(of: "\"durationMs\": 1200", with: "\"durationMs\": 1000")
        XCTAssertNotEqual(shortened, text)
        let findings = RumbleFormat().validate(Data(shortened.utf8), baseDirectory: nil)
        XCTAssertEqual(findings.map(\.kind), ["lengthMismatch"])
        XCTAssertThrowsError(try RumbleFormat().read(Data(shortened.utf8)))
        let loud = text.replacingOccurrences(of: "\"intensity\": 1,", with: "\"intensity\": 1.5,")
        XCTAssertEqual(RumbleFormat().validate(Data(loud.utf8), baseDirectory: nil).map(\.location), ["transients[0].intensity"])
    }

    /// Split AHAP: the continuous file plays the designed body exactly at each transient, the
    /// transients file holds every transient and no body.
    func testSplitAHAPKeepsTheBodyExactAroundTransients() throws {
        let folder = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = Corpus.root.appendingPathComponent("ambience/hits_fire_snr20.wav")
        func convert(_ split: Bool) throws -> ConversionResult {
            try Converter(preset: try shippedPreset(overrides: ["format.ahap.split=\(split)"]), formats: [AHAPFormat()],
                          log: CommittedFiles()).convert(source, to: folder.appendingPathComponent("\(split)"))
        }
        let split = try convert(true)
        XCTAssertEqual(split.outputs.map { $0.url.lastPathComponent },
                       ["hits_fire_snr20.continuous.ahap", "hits_fire_snr20.transients.ahap"])
        XCTAssertEqual(split.audio?.lastPathComponent, "hits_fire_snr20.wav")
        let body = try HapticFormats.read(split.outputs[0].url)
        let hits = try HapticFormats.read(split.outputs[1].url)
        XCTAssertEqual(body.pairedAudio?.fileName, "hits_fire_snr20.wav")
        XCTAssertNil(hits.pairedAudio)
        XCTAssertTrue(body.track.transients.isEmpty)
        XCTAssertTrue(hits.track.regions.isEmpty)
        XCTAssertEqual(hits.track.transients.count, split.track.transients.count)
        for (read, designed) in zip(hits.track.transients, split.track.transients) {
            XCTAssertEqual(read.time, designed.time, accuracy: 0.00001)
        }
        let designed = split.track
        let onBody = designed.transients.filter { designed.region(at: $0.time) != nil }
        XCTAssertFalse(onBody.isEmpty, "the hits fall on the fire's body")
        func worst(_ played: HapticTrack) -> Double {
            onBody.map { abs(played.continuousIntensity(at: $0.time + 0.002) - designed.continuousIntensity(at: $0.time + 0.002)) }.max()!
        }
        XCTAssertLessThan(worst(body.track), 0.01)
        // These hits are weaker than the body's control: the one file keeps the body too.
        XCTAssertLessThan(worst(try HapticFormats.read(try convert(false).outputs[0].url).track), 0.01)
    }

    /// The paired audio is written only when a selected format plays it.
    func testPairedAudioOnlyForFormatsThatPlayIt() throws {
        let folder = AudioFixture.temporaryDirectory(#function)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try AudioFixture.write(Signals.clicks(at: [0.1], seconds: 0.4, sampleRate: 16_000),
                                            to: folder.appendingPathComponent("tap.flac"), sampleRate: 16_000, format: .flac16)
        for (ids, pairs) in [(["haptic", "android", "rumble"], false), (["haptic", "ahap"], true)] {
            let out = folder.appendingPathComponent(ids.joined())
            let result = try Converter(preset: try shippedPreset(), formats: try HapticFormats.select(ids), log: CommittedFiles())
                .convert(source, to: out)
            XCTAssertEqual(result.audio != nil, pairs, "\(ids)")
            XCTAssertEqual(FileManager.default.fileExists(atPath: out.appendingPathComponent("tap.wav").path), pairs, "\(ids)")
        }
    }

    /// The same track gives the same bytes; the resampler's blocks do not show in its output.
    func testRenderingIsDeterministicAndBlockIndependent() throws {
        XCTAssertEqual(try written(try pcm()), try written(try pcm()))
        let input = Signals.noise(seconds: 0.3, sampleRate: 44_100, amplitude: 0.5)
        func resampled(blocks: Int) -> [Float] {
            var resampler = Resampler(from: 44_100, to: 48_000, channels: 1)
            var out: [Float] = []
            var start = 0
            while start < input.count {
                let end = min(input.count, start + blocks)
                input[start..<end].withUnsafeBufferPointer { resampler.push($0) { out += $0 } }
                start = end
            }
            resampler.finish(at: 14_400) { out += $0 }
            return out
        }
        let whole = resampled(blocks: input.count)
        XCTAssertEqual(whole.count, 14_400)
        XCTAssertEqual(whole, resampled(blocks: 333))
    }
}
