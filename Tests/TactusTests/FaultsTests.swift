import Foundation
import XCTest
import TactusAHAP
import TactusTestSupport

/// Failures of the machine rather than the input — an output folder that cannot be
/// written, a full disk, an interrupted batch. Each is reported on one line with exit 1
/// (or the signal's status), and never leaves a partial or temporary file behind.
final class FaultsTests: RobustnessTestCase {
    private func clicks(_ name: String, seconds: Double = 1, format: AudioFixture.Format = .wav16) throws -> URL {
        let onsets = Array(stride(from: 0.05, to: seconds, by: 0.1))
        return try write(Signals.clicks(at: onsets, seconds: seconds, sampleRate: 44_100), to: name, format: format)
    }

    /// Runs `tactus convert` and expects one refusal line about the output, naming `path`.
    private func assertOutputFailure(_ arguments: [String], input: URL, mentioning text: String,
                                     conditions: CLIRunner.Conditions = CLIRunner.Conditions(),
                                     file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try Data(contentsOf: input)
        let outcome = try CLIRunner.run(["convert", input.path] + arguments, in: folder, conditions: conditions)
        XCTAssertFalse(outcome.signaled, "\(outcome)", file: file, line: line)
        XCTAssertEqual(outcome.status, 1, "\(outcome)", file: file, line: line)
        assertErrorLine(outcome, names: input.path, mentioning: text, file: file, line: line)
        XCTAssertEqual(try Data(contentsOf: input), before, file: file, line: line)
        assertNoTemporaries(file: file, line: line)
    }

    func testReadOnlyOutputFolderIsReported() throws {
        let input = try clicks("hit.wav")
        try FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: outputFolder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: outputFolder.path) }
        try assertOutputFailure(["-o", outputFolder.path], input: input,
                                mentioning: "cannot write into output folder \(outputFolder.path): Permission denied",
                                conditions: CLIRunner.Conditions(withoutPrivileges: true))
        assertNoOutputs()
    }

    func testOutputPathThroughAFileIsReported() throws {
        let input = try clicks("hit.wav")
        let blocker = try write(Data("not a folder".utf8), to: "blocker")
        try assertOutputFailure(["-o", blocker.appendingPathComponent("out").path], input: input,
                                mentioning: "Not a directory")
        try assertOutputFailure(["-o", blocker.path], input: input, mentioning: "\(blocker.path) is a file")
        XCTAssertEqual(try String(contentsOf: blocker, encoding: .utf8), "not a folder")
    }

    /// A folder holding the AHAP's name: the conversion fails before it puts the paired audio
    /// in place, so no sound is left behind without the haptics that play it.
    func testAFolderInTheWayOfTheAHAPLeavesNoAudioBehind() throws {
        let input = try clicks("hit.wav")
        try FileManager.default.createDirectory(at: outputFolder.appendingPathComponent("hit.ahap"),
                                                withIntermediateDirectories: true)
        try assertOutputFailure(["-o", outputFolder.path], input: input,
                                mentioning: "cannot write hit.ahap: a folder of that name is in the way")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outputFolder.path), ["hit.ahap"])
    }

    /// 64 KB may be written per file (RLIMIT_FSIZE) while the WAV copy needs ~88 KB.
    func testFullDiskWhileCopyingTheAudioLeavesNothing() throws {
        try assertOutputFailure(["-o", outputFolder.path], input: clicks("hit.wav"), mentioning: "File too large",
                                conditions: CLIRunner.Conditions(fileSizeLimit: 64 * 1024))
        assertNoOutputs()
    }

    /// The same limit hit while decoding a FLAC into its paired WAV.
    func testFullDiskWhileTranscodingLeavesNothing() throws {
        try assertOutputFailure(["-o", outputFolder.path], input: clicks("hit.flac", format: .flac16),
                                mentioning: "cannot write audio",
                                conditions: CLIRunner.Conditions(fileSizeLimit: 64 * 1024))
        assertNoOutputs()
    }

    /// Beside its source, a WAV pairs by reference, so the AHAP (~4 KB of transients) is the
    /// first thing written and is what hits the 1 KB limit.
    func testFullDiskWhileWritingTheAHAPLeavesNothing() throws {
        let input = try clicks("hit.wav", seconds: 2)
        try assertOutputFailure([], input: input, mentioning: "cannot write hit.ahap: File too large",
                                conditions: CLIRunner.Conditions(fileSizeLimit: 1024))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["hit.wav"])
    }

    // MARK: Interrupted batch

    /// A folder of sounds long enough that a batch with one job is still busy when signalled.
    private func batchInput(count: Int = 30) throws -> URL {
        let inputs = input("sfx")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        for i in 0..<count {
            let samples = Signals.clicks(at: [0.1, 1.1, 2.2], seconds: 3, sampleRate: 22_050, seed: UInt64(i + 1))
            try AudioFixture.write(samples, to: inputs.appendingPathComponent(String(format: "s%02d.flac", i)),
                                   sampleRate: 22_050, format: .flac16)
        }
        return inputs
    }

    /// Starts a one-job batch and returns once it has written `converted` AHAPs.
    private func startBatch(_ inputs: URL, until converted: Int) throws -> CLIRunner.Running {
        let running = try CLIRunner.start(["batch", inputs.path, "-o", outputFolder.path, "--jobs", "1"], in: folder)
        let deadline = Date().addingTimeInterval(CLIRunner.hangLimit)
        while ahaps().count < converted, running.process.isRunning, Date() < deadline { usleep(5_000) }
        return running
    }

    private func ahaps() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: outputFolder.path)) ?? []).filter { $0.hasSuffix(".ahap") }
    }

    /// Every AHAP left is valid and its paired audio holds all of its source's frames;
    /// every other file left belongs to one of them (or is the manifest); no temporaries.
    private func assertOnlyCompleteOutputs(of inputs: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        assertNoTemporaries(file: file, line: line)
        var expected: Set<String> = [".tactus-manifest.json"]
        for name in ahaps() {
            let stem = String(name.dropLast(".ahap".count))
            let ahap = outputFolder.appendingPathComponent(name)
            let report = AHAPValidator().validate(contentsOf: ahap)
            XCTAssertTrue(report.isValid, "\(name): \(report)", file: file, line: line)
            let paired = outputFolder.appendingPathComponent(stem + ".wav")
            XCTAssertEqual(try framesDecoded(paired), try framesDecoded(inputs.appendingPathComponent(stem + ".flac")),
                           "\(stem).wav is whole", file: file, line: line)
            expected.formUnion([name, stem + ".wav"])
        }
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: outputFolder.path))
        XCTAssertTrue(left.isSubset(of: expected), "unexpected files: \(left.subtracting(expected))", file: file, line: line)
    }

    /// SIGTERM: the file in progress finishes, nothing new starts, exit 128 + 15.
    func testTerminatedBatchLeavesOnlyCompleteFiles() throws {
        let inputs = try batchInput()
        let running = try startBatch(inputs, until: 2)
        running.send(SIGTERM)
        let outcome = running.wait()
        XCTAssertFalse(outcome.signaled, "\(outcome)")
        XCTAssertEqual(outcome.status, 128 + SIGTERM, "\(outcome)")
        XCTAssertLessThan(ahaps().count, 30, "stopped early")
        try assertOnlyCompleteOutputs(of: inputs)
    }

    /// Two SIGINTs: the second abandons the file in progress at once; it leaves no trace.
    func testBatchInterruptedTwiceAbandonsTheFileInProgressCleanly() throws {
        let inputs = try batchInput()
        let running = try startBatch(inputs, until: 1)
        running.send(SIGINT)
        usleep(20_000)
        running.send(SIGINT)
        let outcome = running.wait()
        XCTAssertFalse(outcome.signaled, "\(outcome)")
        XCTAssertEqual(outcome.status, 128 + SIGINT, "\(outcome)")
        XCTAssertTrue(outcome.stderr.contains("stopping after the files in progress"), "the first signal was handled: \(outcome)")
        // Whether the second signal lands while a file is still in progress depends on the
        // machine's speed; either way only complete outputs may remain.
        try assertOnlyCompleteOutputs(of: inputs)
    }
}
