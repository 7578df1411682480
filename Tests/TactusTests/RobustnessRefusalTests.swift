import Foundation
import XCTest
import TactusAudio
import TactusTestSupport

/// Inputs that cannot be converted: each is refused with one line that names the file and
/// the reason, exit status 1, and nothing written.
final class RobustnessRefusalTests: RobustnessTestCase {
    func testEmptyFileIsRefused() throws {
        try assertRefused(write(Data(), to: "empty.wav"), because: "is empty")
    }

    func testTextWithAnAudioExtensionIsRefused() throws {
        let text = Data(String(repeating: "These are my notes about the boom sound.\n", count: 20).utf8)
        try assertRefused(write(text, to: "notes.wav"), because: "is not audio")
    }

    func testPNGWithAnAudioExtensionIsRefused() throws {
        try assertRefused(write(RawAudioBytes.png(), to: "cover.flac"), because: "is not audio")
    }

    func testRandomBytesWithAudioExtensionsAreRefused() throws {
        for (seed, ext) in ["wav", "aiff", "flac", "ogg", "caf"].enumerated() {
            let url = try write(RawAudioBytes.randomBytes(20_000, seed: UInt64(seed)), to: "noise.\(ext)")
            try assertRefused(url, because: "is not audio")
        }
    }

    /// Opened by path, libsndfile handed unrecognised `.mp3` files to libmpg123, whose
    /// resync notes reached standard error as three extra lines.
    func testRandomBytesNamedMP3AreRefusedOnOneLine() throws {
        try assertRefused(write(RawAudioBytes.randomBytes(20_000, seed: 9), to: "noise.mp3"), because: "is not audio")
    }

    /// An MP3 cut after its first few hundred bytes: libsndfile's own words for it ("File does
    /// not exist or is not a regular file (possibly a pipe?)") would send the user looking for
    /// the wrong fault. (libmpg123 may print a note of its own on standard error before it.)
    func testMP3CutAfterItsFirstBytesIsCalledDamaged() throws {
        let whole = try write(Signals.sine(hz: 440, seconds: 1, sampleRate: 44_100), to: "whole.mp3", format: .mp3)
        let cut = try write(Data(contentsOf: whole).prefix(500), to: "cut.mp3")
        let outcome = try convert(cut, file: #filePath, line: #line)
        XCTAssertEqual(outcome.status, 1, "\(outcome)")
        XCTAssertEqual(outcome.stderrLines.last,
                       "tactus: \(cut.path): is not audio libsndfile can read: too short or damaged to start reading "
                           + "(supported: WAV, AIFF, CAF, FLAC, OGG Vorbis/Opus, MP3, W64, RF64 and more)")
    }

    /// A FLAC cut short: its header promises the whole sound, the stream stops partway. The
    /// refusal says where (libsndfile's own words, "flac decoder lost sync", do not).
    func testFLACCutShortSaysWhereDecodingStopped() throws {
        let whole = try write(Signals.noise(seconds: 2, sampleRate: 44_100, amplitude: 0.5), to: "whole.flac", format: .flac24)
        let data = try Data(contentsOf: whole)
        let cut = try write(data.prefix(data.count / 2), to: "cut.flac")
        let outcome = try convert(cut, file: #filePath, line: #line)
        XCTAssertEqual(outcome.status, 1, "\(outcome)")
        let line = try XCTUnwrap(outcome.stderrLines.last)
        let stopped = try XCTUnwrap(line.firstMatch(of: #/could not be decoded past ([0-9.]+) s of 2.00 s: the file is damaged there/#),
                                    line)
        XCTAssertGreaterThan(Double(stopped.1) ?? 0, 0.5, line)
        XCTAssertLessThan(Double(stopped.1) ?? 2, 1.5, line)
        assertNoOutputs()
    }

    /// A pattern a designer made by hand beside the sound, under the name `convert` would write,
    /// is theirs: refused, left as it was, nothing written. Tactus's own output at that name is
    /// replaced on the next run, as is a translation it made.
    func testAHandMadePatternAtTheOutputsNameIsNotReplaced() throws {
        let sound = try write(Signals.clicks(at: [0.1, 0.4], seconds: 0.6, sampleRate: 44_100), to: "boom.wav")
        let handMade = Data(#"{"Version": 1.0, "Pattern": [{"Event": {"Time": 0.2, "EventType": "HapticTransient", "EventParameters": []}}]}"#.utf8)
        let pattern = try write(handMade, to: "boom.ahap")
        let refused = try CLIRunner.run(["convert", sound.path], in: folder)
        XCTAssertEqual(refused.status, 1, "\(refused)")
        assertErrorLine(refused, names: sound.path, mentioning: "would replace boom.ahap, which Tactus did not make")
        XCTAssertEqual(try Data(contentsOf: pattern), handMade)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["boom.ahap", "boom.wav"])

        try FileManager.default.removeItem(at: pattern)
        for _ in 0..<2 { XCTAssertEqual(try CLIRunner.run(["convert", sound.path], in: folder).status, 0) }
        let translated = outputFolder.appendingPathComponent("boom.haptic")
        for _ in 0..<2 {
            XCTAssertEqual(try CLIRunner.run(["convert", pattern.path, "-o", outputFolder.path, "--format", "haptic"]).status, 0)
            XCTAssertEqual(try CLIRunner.run(["convert", translated.path, "-o", outputFolder.path, "--format", "ahap"]).status, 0)
        }
    }

    func testHeaderCutAfterTwentyBytesIsRefused() throws {
        var wav = RawAudioBytes.WAV()
        wav.data = RawAudioBytes.pcm16(Signals.sine(hz: 440, seconds: 0.1, sampleRate: 44_100))
        try assertRefused(write(wav.bytes.prefix(20), to: "cut.wav"), because: "is not audio")
    }

    func testHeaderWithZeroFramesIsRefused() throws {
        try assertRefused(write(RawAudioBytes.WAV().bytes, to: "zero-frames.wav"), because: "no audio frames")
    }

    func testDirectoryNamedLikeAudioIsRefused() throws {
        let directory = input("x.wav")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try assertRefused(directory, because: "is a directory")
    }

    func testPathThatDoesNotExistIsRefused() throws {
        try assertRefused(input("missing.wav"), because: "no such file")
    }

    func testZeroChannelsIsRefused() throws {
        var wav = RawAudioBytes.WAV()
        wav.channels = 0
        wav.data = RawAudioBytes.pcm16(Signals.sine(hz: 440, seconds: 0.1, sampleRate: 44_100))
        try assertRefused(write(wav.bytes, to: "no-channels.wav"), because: "Channel count is zero")
    }

    /// 65 535 channels: a corrupt header, far beyond anything libsndfile or Tactus reads.
    func testAbsurdChannelCountIsRefused() throws {
        var wav = RawAudioBytes.WAV()
        wav.channels = 65_535
        wav.data = Data(count: 65_535 * 2 * 4)
        try assertRefused(write(wav.bytes, to: "absurd-channels.wav"), because: "channel")
    }

    /// 65 channels is a real file libsndfile writes and reads, one more than Tactus supports.
    func testUnsupportedChannelCountIsRefused() throws {
        let url = try write([Float](repeating: 0.1, count: 4_410), to: "65-channels.wav", channels: 65, format: .wav16)
        try assertRefused(url, because: "has 65 channels")
    }

    func testImplausibleSampleRateIsRefused() throws {
        var wav = RawAudioBytes.WAV()
        wav.sampleRate = 10
        wav.data = RawAudioBytes.pcm16(Signals.sine(hz: 1, seconds: 10, sampleRate: 10))
        try assertRefused(write(wav.bytes, to: "ten-hertz.wav"), because: "sample rate")
    }

    /// libsndfile refuses a header whose sample rate is 0 with "Internal error : SF_INFO struct
    /// incomplete", which names its own internals, not the file's fault.
    func testZeroSampleRateIsNamed() throws {
        var wav = RawAudioBytes.WAV()
        wav.sampleRate = 0
        wav.data = RawAudioBytes.pcm16(Signals.sine(hz: 440, seconds: 0.1, sampleRate: 44_100))
        try assertRefused(write(wav.bytes, to: "zero-hertz.wav"), because: "is not audio libsndfile can read: its header gives a sample rate of 0 Hz")
    }

    /// Refusals after the header was read (rate, channels, no frames) leave no descriptor
    /// open. (The reader used to close its libsndfile handle in the refusal and again in
    /// deinit, which runs when a fully initialised object throws: a double free that only a
    /// sanitizer sees. It now closes in deinit alone.)
    func testRefusedHeadersReleaseTheirFile() throws {
        let url = try write([Float](repeating: 0.1, count: 441), to: "65.wav", channels: 65)
        for _ in 0..<50 {
            XCTAssertThrowsError(try AudioFileReader(url: url))
        }
        // The descriptors open on this file, not all of this process's: those of other threads
        // (what earlier tests left running, XCTest's own) come and go meanwhile.
        XCTAssertEqual(try descriptors(openOn: url), [], "every refused file's descriptor is closed")
    }

    /// This process's descriptors that are open on `file`.
    private func descriptors(openOn file: URL) throws -> [String] {
        let fds = URL(fileURLWithPath: "/proc/self/fd")
        guard FileManager.default.fileExists(atPath: fds.path) else { throw XCTSkip("no /proc/self/fd here") }
        let target = file.resolvingSymlinksInPath().path
        return try FileManager.default.contentsOfDirectory(atPath: fds.path).filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: fds.appendingPathComponent($0).path)) == target
        }
    }
}
