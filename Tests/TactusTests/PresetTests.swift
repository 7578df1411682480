import Foundation
import XCTest
import Tactus
import TactusAHAP
import TactusAnalysis
import TactusMapping
import TactusPresets
import TactusTestSupport
import TactusCore
import TactusFiles

final class PresetTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = AudioFixture.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    var presetsFolder: URL { Corpus.root.deletingLastPathComponent().appendingPathComponent("Presets") }

    @discardableResult
    func write(_ name: String, _ json: String) throws -> URL {
        let url = dir.appendingPathComponent(name)
        try Data(json.utf8).write(to: url)
        return url
    }

    func resolve(_ reference: String, _ overrides: [String] = []) throws -> ResolvedPreset {
        try PresetLibrary(directories: [dir, presetsFolder]).resolve(reference, overrides: overrides)
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
        let committed = try String(contentsOf: presetsFolder.appendingPathComponent("preset.schema.json"), encoding: .utf8)
        XCTAssertEqual(committed, PresetSchema.json(), "regenerate with: tactus presets schema > Presets/preset.schema.json")
    }

    func testEveryShippedPresetMatchesTheSchemaAndConvertsTheCorpus() throws {
        let schema = try JSONReader.parse(Data(contentsOf: presetsFolder.appendingPathComponent("preset.schema.json")))
        let library = PresetLibrary(directories: [presetsFolder])
        XCTAssertGreaterThanOrEqual(library.names().count, 6)
        let corpus = try GroundTruth.find(in: Corpus.root).annotations
        let names = library.names()
        var converters: [(name: String, converter: Converter)] = []
        for name in names {
            let json = try JSONReader.parse(Data(contentsOf: presetsFolder.appendingPathComponent(name + ".json")))
            XCTAssertEqual(SchemaCheck.problems(json, schema: schema), [], name)
            converters.append((name, Converter(preset: try library.resolve(name), log: CommittedFiles())))
        }
        // The presets convert side by side (each into its own folder); findings are asserted after.
        let lock = NSLock()
        var problems: [String] = []
        let root: URL = dir
        DispatchQueue.concurrentPerform(iterations: converters.count) { index in
            let (name, converter) = converters[index]
            let out = root.appendingPathComponent(name, isDirectory: true)
            for (i, entry) in corpus.enumerated() {
                let target = out.appendingPathComponent("\(i)", isDirectory: true)
                let problem: String?
                do {
                    let result = try converter.convert(entry.audio, to: target)
                    let report = AHAPValidator(baseDirectory: target).validate(contentsOf: result.output(AHAPFormat.id)!)
                    problem = report.isValid ? nil : "\(report)"
                } catch {
                    problem = "\(error)"
                }
                if let problem {
                    lock.lock()
                    problems.append("\(name) on \(entry.audio.lastPathComponent): \(problem)")
                    lock.unlock()
                }
            }
        }
        XCTAssertEqual(problems, [])
    }

    func testPresetFromAnAHAPRepeatsItsPresetAndRefusesAChangedOne() throws {
        try write("mine.json", #"{"schemaVersion": 1, "name": "mine", "peaks": {"delta": 5}}"#)
        let preset = try resolve("mine", ["mapping.intensity.gamma=0.7"])
        let audio = try AudioFixture.write(Signals.clicks(at: [0.1], seconds: 0.3, sampleRate: 44100),
                                           to: dir.appendingPathComponent("c.wav"), sampleRate: 44100)
        let result = try Converter(preset: preset, log: CommittedFiles()).convert(audio, to: dir.appendingPathComponent("out"))
        let library = PresetLibrary(directories: [dir, presetsFolder])
        let again = try PresetProvenance.read(from: result.output(AHAPFormat.id)!).resolve(in: library, file: result.output(AHAPFormat.id)!)
        XCTAssertEqual(again.hash, preset.hash)
        XCTAssertEqual(again.parameters("mapping.intensity").number(IntensitySettings.gamma), 0.7)
        try write("mine.json", #"{"schemaVersion": 1, "name": "mine", "peaks": {"delta": 6}}"#)
        XCTAssertThrowsError(try PresetProvenance.read(from: result.output(AHAPFormat.id)!).resolve(in: library, file: result.output(AHAPFormat.id)!)) {
            XCTAssertTrue("\($0)".contains("has changed since this file was made"), "\($0)")
        }
        // Overrides recorded in the file that no longer resolve are the file's, not a --set.
        let ahap = result.output(AHAPFormat.id)!
        let edited = try String(contentsOf: ahap, encoding: .utf8)
            .replacingOccurrences(of: #""ToolVersion""#, with: #""PresetOverrides": "peaks.delta=-3", "ToolVersion""#)
        try Data(edited.utf8).write(to: ahap)
        XCTAssertThrowsError(try PresetProvenance.read(from: ahap).resolve(in: library, file: ahap)) {
            XCTAssertEqual("\($0)", "\(ahap.path): records preset \"mine\", which does not resolve: PresetOverrides: "
                               + "peaks.delta = -3 is outside 0…100 (choose a preset with --preset)")
        }
    }
}

/// Checks a JSON value against the subset of JSON Schema that preset.schema.json uses
/// (type, properties, additionalProperties: false, enum, const, minimum, maximum).
enum SchemaCheck {
    static func problems(_ value: JSONValue, schema: JSONValue, path: String = "") -> [String] {
        var found: [String] = []
        if case .string(let type)? = schema["type"] {
            let ok: Bool
            switch (type, value) {
            case ("object", .object), ("string", .string), ("boolean", .bool), ("number", .number): ok = true
            case ("integer", .number(let n)): ok = n == n.rounded()
            default: ok = false
            }
            if !ok { return ["\(path): expected \(type)"] }
        }
        if case .number(let n) = value {
            if case .number(let lo)? = schema["minimum"], n < lo { found.append("\(path): below \(lo)") }
            if case .number(let hi)? = schema["maximum"], n > hi { found.append("\(path): above \(hi)") }
            if case .number(let c)? = schema["const"], n != c { found.append("\(path): not \(c)") }
        }
        if case .array(let options)? = schema["enum"], !options.contains(where: { "\($0)" == "\(value)" }) {
            found.append("\(path): not one of the allowed values")
        }
        if case .object(let members) = value, case .object(let properties)? = schema["properties"] {
            for (key, child) in members {
                if let sub = properties.last(where: { $0.key == key })?.value {
                    found += problems(child, schema: sub, path: path + "/" + key)
                } else if case .bool(false)? = schema["additionalProperties"] {
                    found.append("\(path)/\(key): not allowed")
                }
            }
        }
        return found
    }
}

/// The presets compiled into the binary are the shipped ones, and a binary run away from the
/// repository finds them.
final class BuiltInPresetTests: XCTestCase {
    func testCompiledInPresetsMatchPresetsFolder() throws {
        let folder = Corpus.root.deletingLastPathComponent().appendingPathComponent("Presets")
        let builtIn = PresetLibrary.compiledIn
        let shipped = PresetLibrary(directories: [folder])
        XCTAssertEqual(builtIn.names(), shipped.names())
        for name in shipped.names() {
            XCTAssertEqual(try builtIn.contents(of: builtIn.locate(name)), try shipped.contents(of: shipped.locate(name)),
                           "\(name): regenerate with python3 scripts/embed_presets.py")
            XCTAssertEqual(try builtIn.resolve(name).hash, try shipped.resolve(name).hash, name)
        }
        XCTAssertEqual(try builtIn.chain("impacts").map(\.source), ["<built-in>/default.json", "<built-in>/impacts.json"])
    }
}
