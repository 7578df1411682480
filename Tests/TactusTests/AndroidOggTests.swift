import Foundation
import TactusAudio
import TactusCore
@testable import TactusRender
import TactusTestSupport
import XCTest

/// `.android.ogg`: the container Tactus writes (pages, comment header, renumbering), Android's
/// rules on hand-made variants, the sound channels kept, and damaged audio behind valid pages.
final class AndroidOggTests: XCTestCase {
    override func setUp() {
        super.setUp()
        OggVorbis.install(SndFileOggCodec.self)
    }

    /// A mono 44.1 kHz "sound": clicks over a quiet hum.
    private struct Sound: SoundSource {
        var samples: [Float]
        var sampleRate: Double { 44_100 }
        var channels: Int { 1 }
        func decode(_ body: (UnsafeBufferPointer<Float>) throws -> Void) throws {
            try samples.withUnsafeBufferPointer(body)
        }
    }

    private let sound = Sound(samples: Signals.mix(Signals.clicks(at: [0.1, 0.4], seconds: 0.8, sampleRate: 44_100, seed: 5),
                                                   Signals.sine(hz: 220, seconds: 0.8, sampleRate: 44_100, amplitude: 0.1)))

    private let track = HapticTrack(duration: 0.8, transients: [HapticTrack.Transient(time: 0.1, intensity: 0.9, sharpness: 0.5)],
                                    regions: [HapticTrack.ContinuousRegion(
                                        start: 0.3, end: 0.7,
                                        intensity: [HapticTrack.Point(time: 0.3, value: 0.6), HapticTrack.Point(time: 0.7, value: 0.6)],
                                        sharpness: [HapticTrack.Point(time: 0.3, value: 0.5), HapticTrack.Point(time: 0.7, value: 0.5)])])

    private func written(metadata: [MetadataEntry] = [MetadataEntry(key: "Project", value: "Tactus")]) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try AndroidOggFormat().write(track, context: HapticWriteContext(metadata: metadata, sound: sound),
                                     file: AndroidOggFormat.fileExtension) { bytes += $0 }
        return bytes
    }

    func testTheFileIsOneRenumberedStreamWithTheHapticCommentAndTheSoundPlusOneChannel() throws {
        let bytes = try written()
        let pages = try OggPages.pages(of: bytes)
        XCTAssertEqual(pages.map(\.sequence), (0..<UInt32(pages.count)).map { $0 })
        XCTAssertTrue(pages.allSatisfy { $0.serial == AndroidOggFormat.serial })
        XCTAssertEqual(pages[0].flags, 2)
        XCTAssertEqual(pages.last!.flags & 4, 4, "the last page ends the stream")
        let packets = try OggPages.firstPackets(3, of: pages, in: bytes).packets
        let headers = try OggAudioHeaders(identification: packets[0], comment: packets[1])
        XCTAssertEqual(headers.codec, .vorbis)
        XCTAssertEqual(headers.channels, 2, "the mono sound and one haptic channel")
        XCTAssertEqual(headers.sampleRate, 44_100)
        XCTAssertEqual(headers.comments, ["ANDROID_HAPTIC=1", "Project=Tactus"])
        XCTAssertEqual(try AndroidOggFormat().read(Data(bytes)).metadata, [MetadataEntry(key: "Project", value: "Tactus")])
    }

    /// The sound channel decodes close to the source (Vorbis at the default quality), in time.
    func testTheSoundChannelIsTheSource() throws {
        var decoded: [Float] = []
        try SndFileOggCodec.decode(try written(), maxFrames: AndroidOggFormat.maxFrames) { block in
            for f in stride(from: 0, to: block.count, by: 2) { decoded.append(block[f]) }
        }
        XCTAssertGreaterThanOrEqual(decoded.count, sound.samples.count)
        var signal = 0.0, noise = 0.0
        for (x, y) in zip(sound.samples, decoded) {
            signal += Double(x * x)
            noise += Double((x - y) * (x - y))
        }
        let snr = 10 * log10(signal / noise)
        XCTAssertGreaterThan(snr, 20, "SNR \(snr) dB")
    }

    /// `bytes` with its comment header's entries replaced, resealed (as another tool might write).
    private func withComments(_ comments: [String], in bytes: [UInt8]) throws -> Data {
        let pages = try OggPages.pages(of: bytes)
        let headers = try OggPages.firstPackets(3, of: pages, in: bytes)
        var out: [UInt8] = []
        var sequence = UInt32(OggPages.paginate([headers.packets[0]], serial: 7, sequence: 0, flags: 2, granule: 0) { out += $0 })
        sequence += UInt32(OggPages.paginate([OggAudioHeaders.vorbisComment(vendor: "test", comments: comments), headers.packets[2]],
                                             serial: 7, sequence: sequence, flags: 0, granule: 0) { out += $0 })
        for page in pages[(headers.lastPage + 1)...] {
            out += OggPages.restamped(bytes[page.start..<(page.start + page.count)], serial: 7, sequence: sequence)
            sequence += 1
        }
        return Data(out)
    }

    private func errorKinds(_ data: Data) -> [String] {
        AndroidOggFormat().validate(data, baseDirectory: nil).filter { $0.severity == .error }.map(\.kind)
    }

    func testAndroidsRulesOnTheHapticComment() throws {
        let bytes = try written()
        XCTAssertEqual(errorKinds(try withComments(["android_haptic=1"], in: bytes)), [], "the key is case-insensitive")
        XCTAssertEqual(errorKinds(try withComments(["TITLE=x"], in: bytes)), ["noHapticChannels"])
        XCTAssertEqual(errorKinds(try withComments(["ANDROID_HAPTIC=3"], in: bytes)), ["hapticCount"])
        XCTAssertEqual(errorKinds(try withComments(["ANDROID_HAPTIC=2"], in: bytes)), ["soundChannels"], "2 of 2 channels leave no sound")
        XCTAssertThrowsError(try AndroidOggFormat().read(try withComments(["ANDROID_HAPTIC=x"], in: bytes)))
    }

    /// A four-channel sound keeps its first two channels, then the haptic channel.
    func testASoundOfMoreThanTwoChannelsKeepsItsFirstTwo() throws {
        struct Quad: SoundSource {
            var sampleRate: Double { 48_000 }
            var channels: Int { 4 }
            func decode(_ body: (UnsafeBufferPointer<Float>) throws -> Void) throws {
                // Channel c holds a steady 0.1 × (c + 1), for 0.5 s.
                try (0..<24_000).flatMap { _ in (0..<4).map { Float($0 + 1) / 10 } }.withUnsafeBufferPointer(body)
            }
        }
        var bytes: [UInt8] = []
        try AndroidOggFormat().write(track, context: HapticWriteContext(sound: Quad()), file: AndroidOggFormat.fileExtension) { bytes += $0 }
        var interleaved: [Float] = []
        let decoded = try SndFileOggCodec.decode(bytes, maxFrames: AndroidOggFormat.maxFrames) { interleaved += $0 }
        XCTAssertEqual(decoded.channels, 3)
        // Within the sound (the file lasts to the track's end, 0.8 s), away from its edges.
        let inside = 2_000..<22_000
        for (c, level) in [(0, 0.1), (1, 0.2)] {
            let mean = inside.reduce(0.0) { $0 + Double(interleaved[$1 * 3 + c]) } / Double(inside.count)
            XCTAssertEqual(mean, level, accuracy: 0.005, "channel \(c + 1)")
        }
    }

    /// `ANDROID_HAPTIC=2` (HAPTIC_A and HAPTIC_B after the sound): the first haptic channel is read.
    func testOfTwoHapticChannelsTheFirstIsRead() throws {
        let drive = try ActuatorDrive(AndroidOggFormat().settings)
        var renderer = drive.renderer(for: track, sampleRate: 44_100)
        let frames = drive.frames(for: track, sampleRate: 44_100)
        let encoded = try SndFileOggCodec.encodeVorbis(channels: 3, sampleRate: 44_100, quality: 1) { push in
            // Sound silent, HAPTIC_A the drive, HAPTIC_B silent.
            try (0..<frames).flatMap { _ in [0, renderer.next(), 0] }.withUnsafeBufferPointer(push)
        }
        let data = try withComments(["ANDROID_HAPTIC=2"], in: encoded)
        XCTAssertEqual(errorKinds(data), [])
        let read = try AndroidOggFormat().read(data).track
        XCTAssertEqual(read.transients.count, 1)
        XCTAssertEqual(read.transients.first?.time ?? 0, 0.1, accuracy: 0.002)
        XCTAssertEqual(read.regions.count, 1)
    }

    /// Damage behind valid pages (bytes changed, CRCs recomputed) reaches the Vorbis decoder:
    /// a track or a `FormatReadError`, never a crash, and the validator agrees with a refusal.
    func testDamagedAudioBehindValidPagesIsReadOrRefused() throws {
        let bytes = try written()
        let pages = try OggPages.pages(of: bytes)
        var generator = SeededGenerator(seed: 9)
        for _ in 0..<40 {
            var damaged: [UInt8] = []
            for (index, page) in pages.enumerated() {
                var body = Array(bytes[page.start..<(page.start + page.count)])
                if index >= 2, body.count > 27 + page.lacing.count {
                    let at = Int.random(in: (27 + page.lacing.count)..<body.count, using: &generator)
                    body[at] = UInt8.random(in: 0...255, using: &generator)
                }
                damaged += OggPages.restamped(body[...], serial: page.serial, sequence: page.sequence)
            }
            let data = Data(damaged)
            do { _ = try AndroidOggFormat().read(data) } catch is FormatReadError {
                XCTAssertFalse(errorKinds(data).isEmpty)
            }
        }
    }
}
