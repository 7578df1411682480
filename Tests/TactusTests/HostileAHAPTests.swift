import Foundation
import TactusTestSupport
import XCTest

/// Hostile and odd AHAPs through `validate`, `validate --audio` and `preview`, as a user (or an
/// attacker handing over a file) would run them. Each must end in bounded time with an exit
/// code and, for a failure, one line naming the file; write nothing beside the input; and
/// never put live markup from the file into a page.
final class HostileAHAPTests: XCTestCase {
    private var folder: URL!
    private var sound: URL!
    /// A hang shows as a timeout; how fast is `make bench`'s (see `CLIRunner.hangLimit`).
    private let limit = CLIRunner.hangLimit

    override func setUpWithError() throws {
        folder = AudioFixture.temporaryDirectory(name)
        sound = try AudioFixture.write(Signals.clicks(at: [0.1], seconds: 0.5, sampleRate: 16_000, seed: 9),
                                       to: folder.appendingPathComponent("sound.wav"), sampleRate: 16_000)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    private func event(_ time: Double, _ type: String = "HapticTransient", extra: String = "") -> String {
        #"{"Event": {"Time": \#(time), "EventType": "\#(type)"\#(extra), "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1}]}}"#
    }

    private func write(_ name: String, pattern: [String], metadata: String = "") throws -> URL {
        let url = folder.appendingPathComponent(name)
        let meta = metadata.isEmpty ? "" : #""Metadata": {\#(metadata)}, "#
        try Data(#"{"Version": 1.0, \#(meta)"Pattern": [\#(pattern.joined(separator: ","))]}"#.utf8).write(to: url)
        return url
    }

    private func audioEvent(_ path: String) -> String {
        #"{"Event": {"Time": 0, "EventType": "AudioCustom", "EventWaveformPath": "\#(path)"}}"#
    }

    /// Runs the three commands on `ahap` and checks what every run must satisfy.
    @discardableResult
    private func runAll(_ ahap: URL, file: StaticString = #filePath, line: UInt = #line) throws -> [CLIRunner.Outcome] {
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let out = folder.appendingPathComponent("preview-out")
        let commands = [["validate", ahap.path], ["validate", ahap.path, "--audio", sound.path],
                        ["preview", ahap.path, "-o", out.path]]
        // The three commands run side by side (they only read the file; the preview writes apart).
        var results = [Result<CLIRunner.Outcome, Error>?](repeating: nil, count: commands.count)
        let lock = NSLock()
        let limit = self.limit
        DispatchQueue.concurrentPerform(iterations: commands.count) { index in
            let result = Result { try CLIRunner.run(commands[index], timeout: limit) }
            lock.lock()
            results[index] = result
            lock.unlock()
        }
        var outcomes: [CLIRunner.Outcome] = []
        for (arguments, result) in zip(commands, results) {
            let outcome = try result!.get()
            XCTAssertFalse(outcome.timedOut, "\(arguments) hung", file: file, line: line)
            XCTAssertFalse(outcome.signaled, "\(arguments) crashed: \(outcome)", file: file, line: line)
            XCTAssertTrue([0, 1].contains(outcome.status), "\(arguments): \(outcome)", file: file, line: line)
            for problem in outcome.stderrLines {
                XCTAssertTrue(problem.hasPrefix("tactus: "), "\(arguments): \(problem)", file: file, line: line)
            }
            outcomes.append(outcome)
        }
        var after = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        after.removeAll { $0 == "preview-out" }
        XCTAssertEqual(after, before, "nothing written beside the input", file: file, line: line)
        let pages = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        XCTAssertFalse(pages.contains { $0.hasSuffix(".tactus-tmp") }, file: file, line: line)
        for page in pages where page.hasSuffix(".html") || page.hasSuffix(".svg") {
            let text = try String(contentsOf: out.appendingPathComponent(page), encoding: .utf8)
            XCTAssertFalse(text.contains("<script>alert") || text.contains("<img src=x"), "live markup in \(page)",
                           file: file, line: line)
        }
        try? FileManager.default.removeItem(at: out)
        return outcomes
    }

    func testEventsFarPastTheAudioAndAbsurdTimes() throws {
        let ahap = try write("far.ahap", pattern: [event(0.1), event(5_000), event(1e7)])
        let outcomes = try runAll(ahap)
        XCTAssertTrue(outcomes[1].stdout.contains("no audible attack"), outcomes[1].stdout)
        XCTAssertEqual(outcomes[2].status, 1, "a preview of 1e7 s is refused, with a reason")
        XCTAssertTrue(outcomes[2].stderr.contains("far.ahap"), outcomes[2].stderr)

        try runAll(try write("negative.ahap", pattern: [event(-5), event(1e308)]))
        try runAll(try write("duration.ahap", pattern: [event(0, "HapticContinuous", extra: #", "EventDuration": 1e300"#),
                                                        event(0, "HapticContinuous", extra: #", "EventDuration": -1"#)]))
        try runAll(try write("overflow.ahap", pattern: [event(1)]).appendingPathExtension("x"), file: #filePath, line: #line)
    }

    func testHugeEventCountsEndInBoundedTime() throws {
        let pattern = (0..<50_000).map { event(Double($0) * 0.001) }
        let ahap = try write("many.ahap", pattern: pattern)
        let outcomes = try runAll(ahap)
        XCTAssertEqual(outcomes[0].status, 0, outcomes[0].stderr)
    }

    func testAudioPathsThatCannotBeOpenedAreFindingsNotHangs() throws {
        let fifo = folder.appendingPathComponent("fifo.wav")
        XCTAssertEqual(mkfifo(fifo.path, 0o644), 0)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("dir.wav"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("loop1.wav").path,
                                                   withDestinationPath: folder.appendingPathComponent("loop2.wav").path)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("loop2.wav").path,
                                                   withDestinationPath: folder.appendingPathComponent("loop1.wav").path)
        for path in ["missing.wav", "/dev/zero", "/dev/null", "../../../../etc/passwd", "dir.wav", "fifo.wav", "loop1.wav",
                     sound.path] {
            let ahap = try write("audio.ahap", pattern: [audioEvent(path), event(0.1)])
            let outcomes = try runAll(ahap)
            XCTAssertEqual(outcomes[2].status, 0, "\(path): the preview plays the haptics alone: \(outcomes[2])")
            if path.hasPrefix("/") || path.hasPrefix("..") {
                XCTAssertTrue(outcomes[0].stdout.contains("EventWaveformPath"), "\(path): \(outcomes[0].stdout)")
            }
        }
    }

    /// `convert` carries an AHAP's sound over by copying it beside the outputs. The path comes
    /// from the file: only a plain path below the AHAP's folder is followed, and a file that is
    /// not audio is not copied (a warning each; the outputs play the haptics alone).
    func testConvertCopiesOnlyASoundFromTheAHAPsFolder() throws {
        try Data("not audio".utf8).write(to: folder.appendingPathComponent("notes.wav"))
        let out = folder.appendingPathComponent("out")
        for (path, reason) in [("../../../../etc/passwd", "../../../../etc/passwd is not a plain path inside the file's folder"),
                               ("/etc/passwd", "/etc/passwd is not a plain path inside the file's folder"),
                               ("notes.wav", "notes.wav was not copied")] {
            let ahap = try write("audio.ahap", pattern: [audioEvent(path), event(0.1)])
            let outcome = try CLIRunner.run(["convert", ahap.path, "-o", out.path], timeout: limit)
            XCTAssertEqual(outcome.status, 0, "\(path): \(outcome)")
            XCTAssertEqual(outcome.stderrLines.count, 1, outcome.stderr)
            XCTAssertTrue(outcome.stderr.contains("\(ahap.path): warning: its sound \(reason)"), outcome.stderr)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path), ["audio.ahap"], path)
            try FileManager.default.removeItem(at: out)
        }
        let ahap = try write("audio.ahap", pattern: [audioEvent("sound.wav"), event(0.1)])
        XCTAssertEqual(try CLIRunner.run(["convert", ahap.path, "-o", out.path], timeout: limit).status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted(), ["audio.ahap", "sound.wav"])
    }

    /// A time before 0 s or past 10⁸ s plays nowhere, and a translation would carry it into a
    /// file its own format's readers refuse: `convert` refuses it in one line, writing nothing.
    func testConvertRefusesTimesNoPatternPlays() throws {
        let out = folder.appendingPathComponent("out")
        for (name, pattern, reason) in [
            ("negative.ahap", [event(-1), event(0.5, "HapticContinuous", extra: #", "EventDuration": 1"#)], "time -1.0 is negative"),
            ("late.ahap", [event(1e15)], "time 1000000000000000.0 s is past 100000000 s"),
            ("long.ahap", [event(0, "HapticContinuous", extra: #", "EventDuration": 1e300"#)], "duration 1e+300 s is past 100000000 s"),
            ("ends-late.ahap", [event(9e7, "HapticContinuous", extra: #", "EventDuration": 9e7"#)],
             "the event's end 180000000.0 s is past 100000000 s"),
        ] {
            let ahap = try write(name, pattern: pattern)
            let outcome = try CLIRunner.run(["convert", ahap.path, "-o", out.path, "--format", "haptic"], timeout: limit)
            XCTAssertEqual(outcome.status, 1, "\(name): \(outcome)")
            XCTAssertEqual(outcome.stderrLines.count, 1, outcome.stderr)
            XCTAssertTrue(outcome.stderr.contains("\(ahap.path): is not a valid ahap file") && outcome.stderr.contains(reason),
                          outcome.stderr)
            XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? [], [], name)
        }
    }

    func testTheInputItselfIsNotARegularFile() throws {
        let fifo = folder.appendingPathComponent("pattern.ahap")
        XCTAssertEqual(mkfifo(fifo.path, 0o644), 0)
        for outcome in try runAll(fifo) {
            XCTAssertEqual(outcome.status, 1)
            XCTAssertEqual(outcome.stderrLines.count, 1, outcome.stderr)
            XCTAssertTrue(outcome.stderr.contains("pattern.ahap: is not a regular file"), outcome.stderr)
        }
        for outcome in try runAll(folder) where outcome.status != 0 {
            XCTAssertTrue(outcome.stderr.contains("is a folder") || outcome.stderr.contains("is a directory"), outcome.stderr)
        }
    }

    func testMarkupInMetadataStaysText() throws {
        let ahap = try write("markup.ahap", pattern: [event(0.1)], metadata:
            #""Project": "<script>alert(1)</script>", "Preset": "<img src=x onerror=alert(1)>\"'&""#)
        try runAll(ahap)
    }

    func testMalformedFilesGetOneLine() throws {
        for (name, text) in [("empty.ahap", ""), ("truncated.ahap", #"{"Version": 1.0, "Pattern": [{"Event": "#),
                             ("deep.ahap", String(repeating: "[", count: 100_000)), ("binary.ahap", "\u{0}\u{1}\u{FF}")] {
            let url = folder.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            for outcome in try runAll(url) {
                XCTAssertEqual(outcome.status, 1, "\(name): \(outcome)")
            }
        }
    }
}
