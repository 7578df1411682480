import Foundation
import Tactus
import TactusAHAP
import TactusTestSupport
import XCTest
import TactusCore
import TactusFiles

/// Which files a batch finds, what it writes for them and how it names them.
final class BatchTreeTests: XCTestCase {
    /// Good files in nested folders are converted into the mirrored tree and validate;
    /// non-audio files are skipped silently; broken audio, dangling links and link loops are
    /// reported with their paths while the rest of the batch goes on.
    func testNestedTreeConvertsGoodFilesAndReportsBadOnes() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        try fixture.sound("boom.wav")
        try fixture.sound("ui/click.flac", format: .flac16)
        try fixture.sound("ui/deep/tap.ogg", format: .oggVorbis, clicks: [0.2])
        try FileManager.default.copyItem(at: fixture.input.appendingPathComponent("boom.wav"),
                                         to: fixture.input.appendingPathComponent("ui/raw.bin"))
        try fixture.text("README.txt", "Sound effects for the game.\n")
        try fixture.text(".DS_Store", "\u{0}\u{0}\u{0}\u{1}Bud1")
        try fixture.text("ui/broken.wav", "RIFF, but not really")
        try FileManager.default.createSymbolicLink(atPath: fixture.input.appendingPathComponent("ui/deep/loop").path,
                                                   withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: fixture.input.appendingPathComponent("gone.wav").path,
                                                   withDestinationPath: "nowhere.wav")

        let result = try fixture.run()

        XCTAssertEqual(result.files.map(\.source), ["boom.wav", "gone.wav", "ui/broken.wav", "ui/click.flac",
                                                    "ui/deep/tap.ogg", "ui/raw.bin"])
        XCTAssertEqual(result.files.filter { $0.status == .failed }.map(\.source), ["gone.wav", "ui/broken.wav"])
        XCTAssertTrue(fixture.outcome("ui/broken.wav", in: result)!.error!.description
            .hasPrefix(fixture.input.path + "/ui/broken.wav: is not audio"))
        XCTAssertEqual(result.problems.count, 1)
        XCTAssertTrue(result.problems[0].description.contains("ui/deep/loop: is a symbolic link loop"), "\(result.problems)")
        XCTAssertFalse(result.succeeded)

        let written = try fixture.outputFiles().keys.sorted()
        XCTAssertEqual(written, [".tactus-manifest.json", "boom.ahap", "boom.wav", "ui/click.ahap", "ui/click.wav",
                                 "ui/deep/tap.ahap", "ui/deep/tap.wav", "ui/raw.ahap", "ui/raw.bin"])
        for ahap in written where ahap.hasSuffix(".ahap") {
            let url = fixture.output.appendingPathComponent(ahap)
            let report = AHAPValidator(baseDirectory: url.deletingLastPathComponent()).validate(contentsOf: url)
            XCTAssertTrue(report.isValid, "\(ahap): \(report)")
        }
        XCTAssertEqual(fixture.outcome("boom.wav", in: result)!.transients, 2)
        XCTAssertEqual(try fixture.metadata("ui/deep/tap.ahap")["Source"], "tap.ogg")
    }

    /// Files are opened on `--jobs` threads; what the walk finds, and the reason given for
    /// each file refused, are the same for any number of them. libsndfile keeps the reason an
    /// open failed in one slot for the whole process, so refusals of different kinds opened
    /// at once (garbage, a cut Ogg Vorbis stream, a cut WAV header) could trade reasons.
    func testWhatTheWalkFindsDoesNotDependOnTheThreadsThatOpenTheFiles() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        let ogg = try Data(contentsOf: try fixture.sound("good/tap.ogg", format: .oggVorbis, clicks: [0.2]))
        let wav = try Data(contentsOf: try fixture.sound("good/boom.wav"))
        for i in 0..<40 {
            try fixture.text("bad/\(i)-garbage.wav", "not audio at all \(i)")
            try ogg.prefix(200 + i).write(to: fixture.input.appendingPathComponent("bad/\(i)-cut.ogg"))
            try wav.prefix(30 + i % 8).write(to: fixture.input.appendingPathComponent("bad/\(i)-header.wav"))
            try fixture.text("bad/\(i)-notes.txt", "not audio, not named as audio")
            try fixture.sound("good/\(i).flac", format: .flac16, seed: UInt64(i))
        }
        func found(jobs: Int) -> [String] {
            let tree = SourceDiscovery(root: fixture.input, displayRoot: "in", jobs: jobs).discover()
            return tree.sources.map { "\($0.relativePath) \($0.format.frames) frames" } + tree.rejected.map(\.error.description)
        }

        let serial = found(jobs: 1)
        XCTAssertEqual(serial.count, 42 + 120)
        XCTAssertEqual(Set(serial.filter { $0.contains("-garbage.wav:") }.map { $0.components(separatedBy: ": ").dropFirst().joined() }).count, 1)
        XCTAssertTrue(serial.contains { $0.contains("-cut.ogg:") && $0.contains("malformed") }, "\(serial)")
        XCTAssertFalse(serial.contains { $0.contains("notes.txt") })
        for _ in 0..<5 { XCTAssertEqual(found(jobs: 8), serial) }
    }

    /// `hit.wav` and `hit.ogg` in one folder keep their whole names as stems, so neither
    /// overwrites the other, and each AHAP plays its own audio.
    func testSameStemSourcesDoNotOverwriteEachOther() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        try fixture.sound("hits/hit.wav", clicks: [0.1])
        try fixture.sound("hits/hit.ogg", format: .oggVorbis, clicks: [0.1, 0.25, 0.4], seed: 2)
        try fixture.sound("hits/other.wav")

        let result = try fixture.run()

        XCTAssertTrue(result.succeeded)
        XCTAssertEqual(try fixture.outputFiles().keys.sorted(),
                       [".tactus-manifest.json", "hits/hit.ogg.ahap", "hits/hit.ogg.wav", "hits/hit.wav",
                        "hits/hit.wav.ahap", "hits/other.ahap", "hits/other.wav"])
        func playedAudio(_ ahap: String) throws -> String? {
            let document = try AHAPDecoder().decode(Data(contentsOf: fixture.output.appendingPathComponent(ahap)))
            return document.pattern.compactMap { element -> String? in
                if case .event(let event) = element { return event.waveformPath }
                return nil
            }.first
        }
        XCTAssertEqual(try playedAudio("hits/hit.wav.ahap"), "hit.wav")
        XCTAssertEqual(try playedAudio("hits/hit.ogg.ahap"), "hit.ogg.wav")
        XCTAssertEqual(fixture.outcome("hits/hit.wav", in: result)!.transients, 1)
        XCTAssertEqual(fixture.outcome("hits/hit.ogg", in: result)!.transients, 3)
    }

    /// An output folder inside the input folder is not walked, so reruns do not convert
    /// their own paired audio.
    func testOutputFolderInsideInputIsNotWalked() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        try fixture.sound("boom.wav")
        let inside = fixture.input.appendingPathComponent("haptics", isDirectory: true)

        for _ in 0..<2 {
            var options = fixture.options()
            options.output = inside.path
            let result = BatchRunner(plan: try BatchPlan(options), log: CommittedFiles()).run()
            XCTAssertEqual(result.files.map(\.source), ["boom.wav"])
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: inside.appendingPathComponent("haptics").path))
    }

    /// With the outputs beside the sources, what a run wrote (the transcoded `zap.wav`) is
    /// not taken as a source by the next one; the inputs are never touched.
    func testOutputsBesideTheSourcesAreNotTakenAsSources() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        try fixture.sound("bell.wav")
        try fixture.sound("ui/zap.ogg", format: .oggVorbis)
        let inputs = try ["bell.wav", "ui/zap.ogg"].map { try Data(contentsOf: fixture.input.appendingPathComponent($0)) }
        var options = fixture.options()
        options.output = fixture.input.path

        let first = BatchRunner(plan: try BatchPlan(options), log: CommittedFiles()).run()
        let second = BatchRunner(plan: try BatchPlan(options), log: CommittedFiles()).run()

        XCTAssertEqual(first.count(.converted), 2)
        XCTAssertEqual(second.files.map(\.source), ["bell.wav", "ui/zap.ogg"])
        XCTAssertEqual(second.count(.upToDate), 2)
        XCTAssertEqual(try ["bell.wav", "ui/zap.ogg"].map { try Data(contentsOf: fixture.input.appendingPathComponent($0)) }, inputs)
        XCTAssertTrue(FileManager.default.fileExists(atPath: fixture.input.appendingPathComponent("ui/zap.ahap").path))
    }

    /// `--include` and `--exclude`: names without `/`, paths with it; an excluded folder is not entered.
    func testIncludeAndExcludeGlobs() throws {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        for path in ["a.wav", "b.flac", "drafts/c.wav", "ui/d.wav", "ui/old/e.wav"] {
            try fixture.sound(path, format: path.hasSuffix(".flac") ? .flac16 : .wav16)
        }
        func sources(include: [String] = [], exclude: [String] = []) throws -> [String] {
            var options = fixture.options()
            options.filter = PathFilter(include: include, exclude: exclude)
            return try BatchPlan(options).jobs.map(\.source.relativePath).sorted()
        }
        XCTAssertEqual(try sources(include: ["*.wav"]), ["a.wav", "drafts/c.wav", "ui/d.wav", "ui/old/e.wav"])
        XCTAssertEqual(try sources(exclude: ["drafts", "ui/old"]), ["a.wav", "b.flac", "ui/d.wav"])
        XCTAssertEqual(try sources(include: ["ui/*"], exclude: ["e.*"]), ["ui/d.wav"])
    }

    /// A missing input folder is a usage error, before anything is written.
    func testMissingInputFolderIsAUsageError() {
        let fixture = BatchFixture()
        defer { fixture.remove() }
        var options = fixture.options()
        options.input = fixture.root.appendingPathComponent("nope").path
        XCTAssertThrowsError(try BatchPlan(options)) { XCTAssertTrue($0 is BatchUsageError) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.output.path))
    }
}
