import Foundation
import TactusCore
import TactusPresets
@testable import TactusTune
import TactusTestSupport
import XCTest

/// The page's files are code: what is compiled in (`TunePagePlugin`) is what `Page/Assets` holds, the JavaScript
/// parses and its pure functions pass their tests (under node, when it is installed), and the
/// "Feel" knobs are a handful of real parameters, the `feel` ones among them.
final class TunePageAssetsTests: XCTestCase {
    /// The Tune/ package's folder (this file is Tune/Tests/TactusTuneTests/…).
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let assets = package.appendingPathComponent("Sources/TactusTune/Page/Assets")
    static let repository = package.deletingLastPathComponent()

    func testTheCompiledInPageIsTheAssetFiles() throws {
        for (file, compiled) in [("tune.html", TunePageAssets.html), ("tune.css", TunePageAssets.style),
                                 ("tune.js", TunePageAssets.script), ("tune-values.js", TunePageAssets.values)] {
            XCTAssertEqual(try String(contentsOf: Self.assets.appendingPathComponent(file), encoding: .utf8), compiled + "\n",
                           "\(file): TunePagePlugin embeds every asset as it is")
        }
        let page = TunePage.html(token: String(repeating: "ab", count: 32))
        XCTAssertFalse(page.contains("{{token}}"))
        XCTAssertTrue(page.contains("/tune-values.js?token=" + String(repeating: "ab", count: 32)))
    }

    /// `node --check` on each script, then the unit tests of `tune-values.js`.
    func testTheScriptsParseAndTheirTestsPass() throws {
        guard let node = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
            .map({ URL(fileURLWithPath: String($0)).appendingPathComponent("node") })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw XCTSkip("node is not installed: the page's scripts are checked where it is (CI)")
        }
        let runs = [["--check", Self.assets.appendingPathComponent("tune.js").path],
                    ["--check", Self.assets.appendingPathComponent("tune-values.js").path],
                    [Self.repository.appendingPathComponent("scripts/check-tune/page_tests.js").path]]
        for arguments in runs {
            let process = Process()
            process.executableURL = node
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, "node \(arguments.joined(separator: " ")):\n\(text)")
        }
    }

    func testTheFeelKnobsAreAHandfulOfRealParametersWithPlainHelp() throws {
        let base = try TuneBase(reference: "default", overrides: [], library: PresetLibrary.standard())
        guard case .object(let values) = TuneParameters.values(of: base.resolved) else { return XCTFail("an object") }
        let keys = Set(values.map(\.key))
        let designer = TuneDesignerKnobs.all.map(\.key)
        XCTAssertLessThanOrEqual(designer.count, TuneDesignerKnobs.maxCount)
        XCTAssertEqual(TuneDesignerKnobs.maxCount, 12)
        XCTAssertEqual(Set(designer).count, designer.count, "each once")
        for key in designer { XCTAssertTrue(keys.contains(key), "\(key) is a parameter") }
        XCTAssertTrue(Set(designer).isSuperset(of: FeelSettings.parameters.map { "feel." + $0.name }))
        for knob in TuneDesignerKnobs.all {
            XCTAssertFalse(knob.feel.contains("×") || knob.feel.contains("^") || knob.feel.contains(knob.key), "plain words: \(knob.feel)")
        }
    }

    /// Starting from another preset on the page: its values, sent as the settings, make that preset.
    func testAPresetsValuesMakeThatPreset() throws {
        let folder = AudioFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try TuneTestServer(sounds: [Corpus.root.appendingPathComponent("clean/bell.wav")], folder: folder)
        defer { server.stop() }
        XCTAssertTrue(try server.session.state()["presets"]?.stringArray?.contains("impacts") == true)
        for name in ["impacts", "ui", "default"] {
            let reply = try server.post("/api/preset", #"{"name":"\#(name)"}"#)
            XCTAssertEqual(reply.status, 200, reply.text)
            let set = try XCTUnwrap(reply.json()["set"])
            let settings = try TuneSettings(json: .object([("name", .string("t")), ("set", set)]), base: server.session.base)
            XCTAssertEqual(try settings.resolve(on: server.session.base).hash, try PresetLibrary.standard().resolve(name).hash, name)
        }
        XCTAssertEqual(try server.post("/api/preset", #"{"name":"nosuch"}"#).status, 422)
        XCTAssertEqual(try server.post("/api/preset", #"{"name":"../etc"}"#).status, 400)
    }
}
