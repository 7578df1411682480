import Foundation
import Tactus
import TactusAHAP
import TactusTestSupport
import XCTest

/// The `tactus batch` executable: exit codes, and a clean stop on SIGINT.
final class BatchCommandTests: XCTestCase {
    /// The `tactus` binary built beside the test bundle (on Linux the bundle URL is the
    /// products folder itself; on macOS it is the `.xctest` inside it).
    private func tactus() throws -> URL {
        let bundle = Bundle(for: Self.self).bundleURL
        let candidates = [bundle, bundle.deletingLastPathComponent()].map { $0.appendingPathComponent("tactus") }
        guard let binary = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw XCTSkip("no tactus executable beside \(bundle.path); build the package first")
        }
        return binary
    }

    private func launch(_ arguments: [String]) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = try tactus()
        process.arguments = ["batch"] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return (process, out, err)
    }

    private func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let (process, out, err) = try launch(arguments)
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    /// Exit 0 when all converted, 1 when a file failed (the others still converted, each
    /// problem one `tactus: <file>: …` line), 64 for usage errors; the report lists every file.
    func testExitCodesAndReport() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        try fixture.sound("a.wav")
        let report = fixture.root.appendingPathComponent("report.json")

        let ok = try run([fixture.input.path, "-o", fixture.output.path, "--report", report.path])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertTrue(ok.stdout.contains("1 converted, 0 up to date, 0 failed"), ok.stdout)
        XCTAssertTrue(ok.stdout.hasPrefix("[1/1] \(fixture.input.path)/a.wav → \(fixture.output.path)/a.ahap  "), ok.stdout)
        // A run without AHAP logs its files too, by the first format's file.
        let haptic = try run([fixture.input.path, "-o", fixture.root.appendingPathComponent("haptic").path, "--format", "android,haptic"])
        XCTAssertTrue(haptic.stdout.hasPrefix("[1/1] \(fixture.input.path)/a.wav → \(fixture.root.path)/haptic/a.android.json  "), haptic.stdout)

        try fixture.text("b.wav", "not audio at all")
        let failed = try run([fixture.input.path, "-o", fixture.output.path, "--report", report.path, "--quiet"])
        XCTAssertEqual(failed.status, 1)
        XCTAssertEqual(failed.stdout, "")
        XCTAssertEqual(failed.stderr.split(separator: "\n").count, 1, failed.stderr)
        XCTAssertTrue(failed.stderr.hasPrefix("tactus: \(fixture.input.path)/b.wav: is not audio"), failed.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as! [String: Any]
        let files = json["files"] as! [[String: Any]]
        XCTAssertEqual(files.map { $0["status"] as! String }, ["upToDate", "failed"])
        XCTAssertEqual(files[0]["outputs"] as! [String], [fixture.output.path + "/a.ahap", fixture.output.path + "/a.wav"])

        XCTAssertEqual(try run([fixture.root.appendingPathComponent("missing").path, "-o", fixture.output.path]).status, 64)
        XCTAssertEqual(try run([fixture.input.path, "-o", fixture.output.path, "--preset", "nope"]).status, 64)
        XCTAssertEqual(try run([fixture.input.path, "-o", fixture.output.path, "--jobs", "0"]).status, 64)
    }

    /// SIGINT mid-run: the files in progress finish, nothing partial or temporary is left,
    /// the manifest records what was done, a summary is printed and the exit status is 130.
    /// The next run converts only the rest.
    func testInterruptStopsCleanlyAndTheNextRunResumes() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        let count = 16
        for i in 0..<count {
            try fixture.sound(String(format: "s%02d.wav", i), clicks: [0.1, 0.6, 1.2], seconds: 2, seed: UInt64(i))
        }

        let (process, _, err) = try launch([fixture.input.path, "-o", fixture.output.path, "--jobs", "1"])
        let deadline = Date().addingTimeInterval(CLIRunner.hangLimit)
        while (try? fixture.outputFiles().keys.filter { $0.hasSuffix(".ahap") }.count) ?? 0 < 2, Date() < deadline {
            usleep(5_000)
        }
        process.interrupt()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        XCTAssertEqual(process.terminationStatus, 130, stderr)
        XCTAssertTrue(stderr.contains("tactus: interrupted; "), stderr)
        let files = try fixture.outputFiles()
        XCTAssertTrue(files.keys.allSatisfy { !$0.hasSuffix(".tactus-tmp") }, "\(files.keys.sorted())")
        let ahaps = files.keys.filter { $0.hasSuffix(".ahap") }
        XCTAssertGreaterThanOrEqual(ahaps.count, 2)
        XCTAssertLessThan(ahaps.count, count, "the run stopped early")
        for ahap in ahaps {
            XCTAssertTrue(AHAPValidator(baseDirectory: fixture.output).validate(files[ahap]!).isValid, ahap)
        }
        let (manifest, warning) = BatchManifest.load(from: fixture.output)
        XCTAssertNil(warning)
        XCTAssertEqual(manifest.files.count, ahaps.count)

        let rest = try fixture.run()
        XCTAssertEqual(rest.count(.upToDate), ahaps.count)
        XCTAssertEqual(rest.count(.converted), count - ahaps.count)
    }
}
