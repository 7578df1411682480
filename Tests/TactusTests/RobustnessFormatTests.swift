import Foundation
import XCTest
import Tactus
import TactusTestSupport

/// Every container and encoding a sound designer is likely to hand over converts to a valid
/// AHAP whose transients land on the sound's clicks: the decoding, not just the header, works.
final class RobustnessFormatTests: RobustnessTestCase {
    static let clickTimes = [0.25, 0.75, 1.25]

    /// Writes the clicks in `format`, converts, and checks the transients and paired audio.
    private func assertConvertsClicks(_ format: AudioFixture.Format, name: String, sampleRate: Int = 44_100,
                                      copiedUnchanged: Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        let samples = Signals.clicks(at: Self.clickTimes, seconds: 1.5, sampleRate: Double(sampleRate))
        let url = try write(samples, to: "\(name).\(format.fileExtension)", sampleRate: sampleRate, format: format)
        let converted = try assertConverted(url, file: file, line: line)
        try assertTransientsOnClicks(converted, file: file, line: line)
        if copiedUnchanged {
            XCTAssertEqual(try Data(contentsOf: converted.audio), try Data(contentsOf: url),
                           "Apple-playable audio is paired as an exact copy", file: file, line: line)
        } else {
            XCTAssertEqual(converted.audio.lastPathComponent, "\(name).wav", "decoded into a WAV", file: file, line: line)
        }
    }

    private func assertTransientsOnClicks(_ converted: Converted, file: StaticString = #filePath, line: UInt = #line) throws {
        let score = OnsetScore(detected: converted.transientTimes, truth: Self.clickTimes, tolerance: 0.025)
        XCTAssertEqual(score.truePositives, Self.clickTimes.count, "\(score)", file: file, line: line)
        XCTAssertEqual(score.falsePositives, 0, "\(score)", file: file, line: line)
    }

    func testAIFF() throws { try assertConvertsClicks(.aiff16, name: "aiff", copiedUnchanged: true) }
    func testCAF() throws { try assertConvertsClicks(.caf16, name: "caf", copiedUnchanged: true) }
    func testFLAC() throws { try assertConvertsClicks(.flac24, name: "flac", copiedUnchanged: false) }
    func testOggVorbis() throws { try assertConvertsClicks(.oggVorbis, name: "vorbis", copiedUnchanged: false) }
    /// Opus runs at 48 kHz internally; libsndfile writes it at the rates Opus supports.
    func testOpus() throws { try assertConvertsClicks(.oggOpus, name: "opus", sampleRate: 48_000, copiedUnchanged: false) }
    func testW64() throws { try assertConvertsClicks(.w64, name: "w64", copiedUnchanged: false) }
    func testRF64() throws { try assertConvertsClicks(.rf64, name: "rf64", copiedUnchanged: false) }
    func testUnsigned8Bit() throws { try assertConvertsClicks(.wavU8, name: "u8", copiedUnchanged: true) }
    func testInteger24Bit() throws { try assertConvertsClicks(.wav24, name: "pcm24", copiedUnchanged: true) }
    func testInteger32Bit() throws { try assertConvertsClicks(.wav32, name: "pcm32", copiedUnchanged: true) }
    func testFloat64() throws { try assertConvertsClicks(.wavDouble, name: "double", copiedUnchanged: true) }
    func testMuLaw() throws { try assertConvertsClicks(.wavUlaw, name: "ulaw", copiedUnchanged: true) }
    func testALaw() throws { try assertConvertsClicks(.wavAlaw, name: "alaw", copiedUnchanged: true) }
    func testIMAADPCM() throws { try assertConvertsClicks(.wavImaAdpcm, name: "ima", copiedUnchanged: true) }

    /// An MP3 as music software leaves it: an ID3v2 tag with a title and embedded cover art
    /// in front of the audio. The tag must neither break decoding nor shift the transients.
    func testMP3WithID3TagAndCoverArt() throws {
        let samples = Signals.clicks(at: Self.clickTimes, seconds: 1.5, sampleRate: 44_100)
        let bare = try write(samples, to: "bare.mp3", format: .mp3)
        let tag = RawAudioBytes.id3v2(title: "Boom ✨", picture: RawAudioBytes.png(side: 64))
        let tagged = try write(tag + Data(contentsOf: bare), to: "tagged.mp3")
        try FileManager.default.removeItem(at: bare)
        let converted = try assertConverted(tagged)
        try assertTransientsOnClicks(converted)
        XCTAssertEqual(converted.audio.lastPathComponent, "tagged.wav")
    }

    /// A WAV with the chunks real tools add: LIST/INFO (odd-sized, so padded), JUNK and an
    /// unknown chunk before the samples, a cue chunk after them.
    func testWAVWithExtraChunks() throws {
        var wav = RawAudioBytes.WAV()
        wav.data = RawAudioBytes.pcm16(Signals.clicks(at: Self.clickTimes, seconds: 1.5, sampleRate: 44_100))
        let info = RawAudioBytes.chunk("INAM", Data("Boom".utf8) + Data([0]))
        wav.chunksBeforeData = [
            RawAudioBytes.chunk("LIST", Data("INFO".utf8) + info),
            RawAudioBytes.chunk("JUNK", Data(count: 28)),
            RawAudioBytes.chunk("zzzz", Data("odd".utf8)),
        ]
        wav.chunksAfterData = [RawAudioBytes.chunk("cue ", RawAudioBytes.le32(0))]
        let converted = try assertConverted(write(wav.bytes, to: "chunks.wav"))
        try assertTransientsOnClicks(converted)
    }
}
