import Foundation
import TactusAnalysis
import TactusCore
import TactusMapping
import TactusPresets
import TactusTestSupport
import XCTest

/// Presets resolved from files, `extends` chains, onset methods' defaults and `--set`: which
/// value wins, where it came from, and the one-line error that names the file and the key.
final class PresetResolutionTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = AudioFixture.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    @discardableResult
    func write(_ name: String, _ json: String) throws -> URL {
        let url = dir.appendingPathComponent(name)
        try Data(json.utf8).write(to: url)
        return url
    }

    func resolve(_ reference: String, _ overrides: [String] = []) throws -> ResolvedPreset {
        try PresetLibrary(directories: [dir, Corpus.presetsFolder]).resolve(reference, overrides: overrides)
    }

    func assertError(_ reference: String, _ overrides: [String] = [], _ expected: String,
                     file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try resolve(reference, overrides), file: file, line: line) { error in
            XCTAssertEqual("\(error)", expected, file: file, line: line)
        }
    }

    func testInheritanceAndOverrideOrder() throws {
        try write("base.json", #"{"schemaVersion": 1, "extends": "default", "peaks": {"delta": 5}, "mapping": {"intensity": {"gamma": 0.5}}}"#)
        try write("child.json", #"{"schemaVersion": 1, "name": "child", "extends": "base", "peaks": {"delta": 6}}"#)
        let child = try resolve("child")
        XCTAssertEqual(child.name, "child")
        XCTAssertEqual(child.parameters("peaks").number(PeakPicker.delta), 6, "the child wins over its parent")
        XCTAssertEqual(child.parameters("mapping.intensity").number(IntensitySettings.gamma), 0.5, "inherited from the grandparent's child")
        XCTAssertEqual(child.origins["peaks.delta"], "child.json")
        XCTAssertEqual(child.origins["mapping.intensity.gamma"], "base.json")
        XCTAssertEqual(child.chain.map { ($0 as NSString).lastPathComponent }, ["child.json", "base.json", "default.json"])

        let overridden = try resolve("child", ["peaks.delta=7"])
        XCTAssertEqual(overridden.parameters("peaks").number(PeakPicker.delta), 7, "--set wins over every file")
        XCTAssertEqual(overridden.origins["peaks.delta"], "--set")
        XCTAssertEqual(overridden.overrides, ["peaks.delta=7"])
    }

    func testMethodDefaultsSitBetweenParameterDefaultsAndPresets() throws {
        try write("hfc.json", #"{"schemaVersion": 1, "onset": {"method": "hfc"}}"#)
        let hfc = try resolve("hfc")
        XCTAssertEqual(hfc.onsetMethod.id, "hfc")
        XCTAssertEqual(hfc.parameters("peaks").number(PeakPicker.delta), 6, "HFC's tuned delta")
        XCTAssertEqual(hfc.origins["peaks.delta"], "method hfc")
        XCTAssertEqual(try resolve("hfc", ["peaks.delta=2"]).parameters("peaks").number(PeakPicker.delta), 2)
        // Switching method drops the parameters a parent set for the previous one.
        try write("flux.json", #"{"schemaVersion": 1, "onset": {"method": "superflux", "lagMs": 20}}"#)
        try write("energy.json", #"{"schemaVersion": 1, "extends": "flux", "onset": {"method": "energy"}}"#)
        XCTAssertEqual(try resolve("energy").onsetMethod.id, "energy")
    }

    func testSetChangesExactlyTheTargetedValue() throws {
        let base = try resolve("default").canonicalLines
        for assignment in ["peaks.delta=2.5", "mapping.intensity.enabled=false", "mapping.loudness.normalization=absolute"] {
            let changed = try resolve("default", [assignment]).canonicalLines
            let differing = zip(base, changed).filter { $0 != $1 }
            XCTAssertEqual(differing.count, 1, assignment)
            XCTAssertEqual(differing.first?.1, assignment.replacingOccurrences(of: "=", with: " = ")
                .replacingOccurrences(of: "= absolute", with: "= \"absolute\""))
        }
        XCTAssertNotEqual(try resolve("default", ["peaks.delta=2.5"]).hash, try resolve("default").hash)
    }

    func testEveryErrorNamesTheFileAndThePath() throws {
        try write("mine.json", #"{"schemaVersion": 1, "mapping": {"intensity": {"gamma": 7}}}"#)
        assertError("mine", [], "mine.json: mapping.intensity.gamma = 7 is outside 0.2…4")
        try write("typo.json", #"{"schemaVersion": 1, "peaks": {"minIntervalMS": 40}}"#)
        assertError("typo", [], "typo.json: unknown key \"peaks.minIntervalMS\" (did you mean \"minIntervalMs\"?)")
        try write("section.json", #"{"schemaVersion": 1, "mapping": {"intensty": {}}}"#)
        assertError("section", [], "section.json: unknown section \"mapping.intensty\" (did you mean \"intensity\"?)")
        try write("type.json", #"{"schemaVersion": 1, "mapping": {"intensity": {"enabled": 1}}}"#)
        assertError("type", [], "type.json: mapping.intensity.enabled = 1 has the wrong type (expected true or false)")
        try write("method.json", #"{"schemaVersion": 1, "onset": {"method": "superflx"}}"#)
        assertError("method", [], "method.json: onset.method = \"superflx\" is not a known onset method (one of superflux, spectralFlux, hfc, complexDomain, energy) (did you mean \"superflux\"?)")
        try write("orphan.json", #"{"schemaVersion": 1, "extends": "nowhere"}"#)
        assertError("orphan", [], "orphan.json: extends \"nowhere\", which cannot be found")
        try write("a.json", #"{"schemaVersion": 1, "extends": "b"}"#)
        try write("b.json", #"{"schemaVersion": 1, "extends": "a"}"#)
        assertError("a", [], "a.json: extends forms a cycle: a.json → b.json → a.json")
        try write("twice.json", #"{"schemaVersion": 1, "peaks": {"delta": 1, "delta": 2}}"#)
        assertError("twice", [], "twice.json: peaks.delta is given twice")
        try write("broken.json", #"{"schemaVersion": 1, "peaks": {"delta": 1,}}"#)
        XCTAssertThrowsError(try resolve("broken")) { XCTAssertTrue("\($0)".hasPrefix("broken.json: is not valid JSON (invalid JSON at line 1")) }
        try write("child.json", #"{"schemaVersion": 1, "extends": "broken"}"#)  // named: the file a user opened
        XCTAssertThrowsError(try resolve("child")) {
            XCTAssertTrue("\($0)".hasPrefix("child.json: extends \"broken\": broken.json: is not valid JSON (invalid JSON at line 1"), "\($0)")
        }
        assertError("default", ["peaks.delta=-3"], "--set: peaks.delta = -3 is outside 0…100")
        assertError("default", ["peak.delta=3"], "--set: unknown section \"peak\" (did you mean \"peaks\"?)")
        assertError("missing", [], "missing: no preset with this name (see `tactus presets list`)")
    }

    func testTheSchemaFileMatchesTheDescriptors() throws {
        let committed = try String(contentsOf: Corpus.presetsFolder.appendingPathComponent("preset.schema.json"), encoding: .utf8)
        XCTAssertEqual(committed, PresetSchema.json(), "regenerate with: tactus presets schema > Presets/preset.schema.json")
    }
}
