import Foundation
import XCTest
import TactusAHAP
import TactusAudio
import TactusTestSupport
import TactusCore

/// The base of every robustness case: each test writes one input into its own folder,
/// runs `tactus convert <input> -o <folder>/out` as a subprocess, and asserts one of three
/// outcomes (see docs/ROBUSTNESS.md). Every outcome also asserts that the input's bytes
/// are unchanged, that the process was not killed by a signal, and that no temporary
/// file is left behind.
class RobustnessTestCase: XCTestCase {
    /// This test's own folder, removed afterwards.
    private(set) var folder: URL!

    var outputFolder: URL { folder.appendingPathComponent("out", isDirectory: true) }

    override func setUpWithError() throws {
        folder = AudioFixture.temporaryDirectory(name)
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// A path inside this test's folder.
    func input(_ name: String) -> URL {
        folder.appendingPathComponent(name)
    }

    /// Writes `bytes` to `name` in this test's folder.
    func write(_ bytes: Data, to name: String) throws -> URL {
        let url = input(name)
        try bytes.write(to: url)
        return url
    }

    /// Writes `samples` with libsndfile in `format` to `name` (extension included).
    func write(_ samples: [Float], to name: String, sampleRate: Int = 44_100, channels: Int = 1,
               format: AudioFixture.Format = .wav16, interleaved: Bool = false) throws -> URL {
        try AudioFixture.write(samples, to: input(name), sampleRate: sampleRate, channels: channels, format: format,
                               interleaved: interleaved)
    }

    // MARK: Outcomes

    /// A converted file: the AHAP as decoded, with its text and the audio it plays.
    struct Converted {
        let ahap: URL
        let text: String
        let document: AHAPDocument
        let audio: URL
        /// The run's own peak resident memory, when it was measured (`CLIRunner.Conditions`).
        var peakMegabytes: Double?

        var events: [AHAPEvent] {
            document.pattern.compactMap { if case .event(let event) = $0 { return event } else { return nil } }
        }
        var hapticEvents: [AHAPEvent] { events.filter(\.type.isHaptic) }
        var transientTimes: [Double] { events.filter { $0.type == .hapticTransient }.map(\.time) }
        var continuousEvents: [AHAPEvent] { events.filter { $0.type == .hapticContinuous } }
        var curves: [AHAPParameterCurve] {
            document.pattern.compactMap { if case .curve(let curve) = $0 { return curve } else { return nil } }
        }
    }

    /// Refused: exit 1, one line `tactus: <input>: <reason> (<hint>)` on standard error
    /// whose reason contains `reason`, nothing in the output folder, input unchanged.
    func assertRefused(_ input: URL, because reason: String,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let outcome = try convert(input, file: file, line: line)
        XCTAssertEqual(outcome.status, 1, "\(outcome)", file: file, line: line)
        assertErrorLine(outcome, names: input.path, mentioning: reason, file: file, line: line)
        assertNoOutputs(file: file, line: line)
    }

    /// Converted: exit 0, nothing on standard error, an AHAP that passes the validator
    /// with zero errors, its AudioCustom event naming audio that decodes to the input's
    /// frame count, input unchanged.
    @discardableResult
    func assertConverted(_ input: URL, conditions: CLIRunner.Conditions = CLIRunner.Conditions(),
                         file: StaticString = #filePath, line: UInt = #line) throws -> Converted {
        let outcome = try convert(input, conditions: conditions, file: file, line: line)
        XCTAssertEqual(outcome.status, 0, "\(outcome)", file: file, line: line)
        XCTAssertEqual(outcome.stderr, "", file: file, line: line)
        var converted = try checkOutputs(of: input, file: file, line: line)
        converted.peakMegabytes = outcome.peakMegabytes
        return converted
    }

    /// Handled either way: a valid AHAP (exit 0) or a one-line refusal (exit 1); never a
    /// crash, never a non-finite number. Returns the conversion when there was one.
    @discardableResult
    func assertHandled(_ input: URL, file: StaticString = #filePath, line: UInt = #line) throws -> Converted? {
        let outcome = try convert(input, file: file, line: line)
        switch outcome.status {
        case 0:
            XCTAssertEqual(outcome.stderr, "", file: file, line: line)
            return try checkOutputs(of: input, file: file, line: line)
        case 1:
            assertErrorLine(outcome, names: input.path, mentioning: "", file: file, line: line)
            assertNoOutputs(file: file, line: line)
            return nil
        default:
            XCTFail("neither converted nor refused: \(outcome)", file: file, line: line)
            return nil
        }
    }

    // MARK: Pieces

    /// Runs the CLI on `input`, asserting it was not killed and left the input's bytes alone.
    func convert(_ input: URL, conditions: CLIRunner.Conditions = CLIRunner.Conditions(),
                 file: StaticString, line: UInt) throws -> CLIRunner.Outcome {
        let before = try? Data(contentsOf: input)
        let outcome = try CLIRunner.run(["convert", input.path, "-o", outputFolder.path, "--quiet"], in: folder,
                                        conditions: conditions)
        XCTAssertFalse(outcome.signaled, "killed: \(outcome)", file: file, line: line)
        XCTAssertEqual(try? Data(contentsOf: input), before, "the input's bytes changed", file: file, line: line)
        assertNoTemporaries(file: file, line: line)
        return outcome
    }

    /// One line on standard error: `tactus: <path>: <reason> (<hint>)`.
    func assertErrorLine(_ outcome: CLIRunner.Outcome, names path: String, mentioning reason: String,
                         file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(outcome.stderrLines.count, 1, "expected one error line: \(outcome)", file: file, line: line)
        guard let message = outcome.stderrLines.first else { return }
        let prefix = "tactus: \(path): "
        XCTAssertTrue(message.hasPrefix(prefix), "\(message) does not start with \(prefix)", file: file, line: line)
        XCTAssertTrue(message.dropFirst(prefix.count).contains(reason), "\(message) does not say \(reason)",
                      file: file, line: line)
        XCTAssertNotNil(message.range(of: #"^tactus: .+: .+ \(.+\)$"#, options: .regularExpression),
                        "\(message) lacks a (hint)", file: file, line: line)
    }

    func assertNoOutputs(file: StaticString = #filePath, line: UInt = #line) {
        let left = (try? FileManager.default.contentsOfDirectory(atPath: outputFolder.path)) ?? []
        XCTAssertEqual(left, [], "outputs left behind", file: file, line: line)
    }

    /// No `*.tactus-tmp` anywhere under this test's folder.
    func assertNoTemporaries(file: StaticString = #filePath, line: UInt = #line) {
        let all = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
        XCTAssertEqual(all.filter { $0.hasSuffix(".tactus-tmp") }, [], "temporary files left", file: file, line: line)
    }

    func checkOutputs(of input: URL, file: StaticString, line: UInt) throws -> Converted {
        let stem = input.deletingPathExtension().lastPathComponent
        let ahap = outputFolder.appendingPathComponent(stem + ".ahap")
        let data = try Data(contentsOf: ahap)
        let text = String(decoding: data, as: UTF8.self)
        let report = AHAPValidator(baseDirectory: outputFolder).validate(data)
        XCTAssertTrue(report.isValid, "\(report)", file: file, line: line)
        XCTAssertTrue(Self.allNumbersFinite(try JSONReader.parse(data)), "non-finite number in \(text)",
                      file: file, line: line)
        let document = try AHAPDecoder().decode(data)
        let players = document.pattern.compactMap { element -> AHAPEvent? in
            if case .event(let event) = element, event.type == .audioCustom { return event }
            return nil
        }
        XCTAssertEqual(players.count, 1, "one AudioCustom event", file: file, line: line)
        let audio = outputFolder.appendingPathComponent(players.first?.waveformPath ?? "")
        let paired = try AudioFileReader(url: audio).format
        let source = try AudioFileReader(url: input).format
        XCTAssertEqual(paired.sampleRate, source.sampleRate, file: file, line: line)
        XCTAssertEqual(paired.channels, source.channels, file: file, line: line)
        XCTAssertEqual(paired.frames, try framesDecoded(input), "paired audio holds every decoded frame",
                       file: file, line: line)
        return Converted(ahap: ahap, text: text, document: document, audio: audio)
    }

    /// True when every number in the tree is finite (the strict reader turns an overflowing
    /// literal such as `1e999` into infinity, and refuses `NaN` outright).
    static func allNumbersFinite(_ json: JSONValue) -> Bool {
        switch json {
        case .number(let value): return value.isFinite
        case .array(let items): return items.allSatisfy(allNumbersFinite)
        case .object(let members): return members.allSatisfy { allNumbersFinite($0.value) }
        case .null, .bool, .string: return true
        }
    }

    /// Frames libsndfile actually decodes (the header's count is an estimate for some codecs).
    func framesDecoded(_ url: URL) throws -> Int64 {
        let reader = try AudioFileReader(url: url)
        var buffer = [Float](repeating: 0, count: 4096 * reader.format.channels)
        var total: Int64 = 0
        while true {
            let got = try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
            if got == 0 { return total }
            total += Int64(got)
        }
    }
}
