import Foundation
import TactusCore
import TactusFiles
import Tactus
import TactusMapping
import TactusPresets
@testable import TactusTune
import TactusTestSupport
import XCTest

final class TuneSessionTests: XCTestCase {
    private func settings(_ set: String, base: TuneBase) throws -> TuneSettings {
        try TuneSettings(json: JSONReader.parse(Data("{\"name\":\"t\",\"set\":{\(set)}}".utf8)), base: base)
    }

    func testSettingsHoldOnlyWhatDiffersFromTheBase() throws {
        let base = try TuneBase(reference: "default", overrides: [], library: PresetLibrary.standard())
        let gamma = try XCTUnwrap(base.resolved.parameters("mapping.intensity").values["gamma"])
        let tuned = try settings(#""mapping.intensity.gamma":\#(gamma),"peaks.delta":0.31,"onset.method":"\#(base.resolved.onsetMethod.id)""#, base: base)
        XCTAssertEqual(tuned.setLines, ["peaks.delta=0.31"])
        XCTAssertEqual(try tuned.resolve(on: base).hash,
                       try PresetLibrary.standard().resolve("default", overrides: ["peaks.delta=0.31"]).hash)
        XCTAssertThrowsError(try settings(#""mapping.intensity.gamma":99"#, base: base).resolve(on: base))
        XCTAssertThrowsError(try settings(#""nosuch.gamma":1"#, base: base))
    }

    func testAKnobReMapsFromTheCachedAnalysisAndOnlyAnalysisSettingsAnalyseAgain() throws {
        let folder = AudioFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try TuneTestServer(sounds: [Corpus.root.appendingPathComponent("clean/bell.wav"),
                                                 Corpus.root.appendingPathComponent("clean/coin_pickup.wav")], folder: folder)
        defer { server.stop() }
        func render(_ set: String) throws -> JSONValue {
            let reply = try server.post("/api/render", "{\"name\":\"t\",\"sounds\":[0,1],\"set\":{\(set)}}")
            XCTAssertEqual(reply.status, 200, reply.text)
            return try reply.json()
        }
        XCTAssertEqual(try render("")["analysed"]?.number, 0)
        let mapped = try render(#""mapping.intensity.gamma":2"#)
        XCTAssertEqual(mapped["analysed"]?.number, 0, "a mapping knob re-maps")
        XCTAssertEqual(mapped["setLines"]?.stringArray, ["mapping.intensity.gamma=2"])
        XCTAssertEqual(try render(#""peaks.delta":0.9"#)["analysed"]?.number, 2, "an analysis knob analyses each sound again")
        XCTAssertEqual(try render(#""peaks.delta":0.9,"mapping.intensity.gamma":0.5"#)["analysed"]?.number, 0)
        XCTAssertEqual(try render("")["analysed"]?.number, 0, "the starting analysis is still cached (A/B)")
        // The key is the analysis configuration itself: a feel control that moves the peak
        // picker analyses again, one that moves only the mapping does not.
        XCTAssertEqual(try render(#""feel.density":0.5"#)["analysed"]?.number, 2)
        XCTAssertEqual(try render(#""feel.density":0.5,"feel.crispness":-0.5,"feel.strengthDb":3"#)["analysed"]?.number, 0)
        // What the page draws is the track `tactus convert` maps.
        let track = try XCTUnwrap(render("")["tracks"]?.array(0)?["track"])
        let converted = try Converter(preset: PresetLibrary.standard().resolve("default"), log: CommittedFiles())
            .analyze(Corpus.root.appendingPathComponent("clean/bell.wav")).2
        XCTAssertEqual(track["transients"].flatMap { if case .array(let a) = $0 { a.count } else { nil } }, converted.transients.count * 3)
        XCTAssertGreaterThan(converted.transients.count, 0)
    }

    func testTheSessionsParameterListIsEveryParameterOfTheSchema() throws {
        let base = try TuneBase(reference: "default", overrides: [], library: PresetLibrary.standard())
        let sections = TuneParameters.json(method: base.resolved.onsetMethod, values: base.resolved)
        guard case .array(let list) = sections else { return XCTFail("a list") }
        var keys: [String] = []
        for section in list {
            guard case .array(let parameters)? = section["parameters"] else { return XCTFail("parameters") }
            keys += parameters.compactMap { $0["key"]?.string }
        }
        var expected = ["onset.method"]
        for section in PresetSections.all {
            expected += section.descriptors(base.resolved.onsetMethod).map { section.path + "." + $0.name }
        }
        XCTAssertEqual(keys.sorted(), expected.sorted())
    }
}
