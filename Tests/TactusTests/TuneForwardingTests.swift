import Foundation
import TactusTestSupport
import XCTest

/// `tactus tune` runs `tactus-tune` with the same arguments: the one beside `tactus` first,
/// then the first on `PATH`; without either, one line and a non-zero exit.
final class TuneForwardingTests: XCTestCase {
    /// A copy of the built `tactus` alone in a fresh folder, so nothing is beside it.
    private func lonelyTactus() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tactus-alone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("tactus")
        try FileManager.default.copyItem(at: try CLIRunner.executable(), to: copy)
        return copy
    }

    private func run(_ executable: URL, _ arguments: [String], path: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ["PATH": path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    func testWithoutTactusTuneTuneSaysWhatToInstallInOneLine() throws {
        let outcome = try run(lonelyTactus(), ["tune", "--help"], path: "/usr/bin:/bin")
        XCTAssertNotEqual(outcome.status, 0)
        XCTAssertEqual(outcome.stdout, "")
        XCTAssertTrue(outcome.stderr.hasPrefix("tactus: tune: tactus-tune is not installed ("), outcome.stderr)
        XCTAssertEqual(outcome.stderr.filter { $0 == "\n" }.count, 1, outcome.stderr)
    }

    func testTactusTuneOnPathGetsTheArgumentsUnchanged() throws {
        let tune = try CLIRunner.executable().deletingLastPathComponent().appendingPathComponent("tactus-tune")
        let help = try run(lonelyTactus(), ["tune", "--help"], path: tune.deletingLastPathComponent().path + ":/usr/bin:/bin")
        XCTAssertEqual(help.status, 0, help.stderr)
        XCTAssertEqual(help.stdout, try run(tune, ["--help"], path: "/usr/bin:/bin").stdout)
        XCTAssertTrue(help.stdout.contains("USAGE: tactus tune <inputs> ..."), help.stdout)
        // tactus-tune's own validation answers, so the options reached it as given.
        let refused = try run(lonelyTactus(), ["tune", "x.wav", "--port", "70000"], path: tune.deletingLastPathComponent().path)
        XCTAssertEqual(refused.status, 64)
        XCTAssertTrue(refused.stderr.contains("--port must be 0…65535"), refused.stderr)
    }

    func testTactusTuneBesideTactusIsFoundWithoutPath() throws {
        let help = try run(CLIRunner.executable(), ["tune", "--help"], path: "/nonexistent")
        XCTAssertEqual(help.status, 0, help.stderr)
        XCTAssertTrue(help.stdout.hasPrefix("OVERVIEW: Tune a preset by feel"), help.stdout)
    }
}
