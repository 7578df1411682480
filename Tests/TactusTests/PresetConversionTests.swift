import Foundation
import XCTest
import Tactus
import TactusAHAP
import TactusMapping
import TactusPresets
import TactusTestSupport
import TactusCore
import TactusFiles

/// Presets at work in the converter: every shipped preset converts the Corpus into valid AHAPs,
/// and `--preset-from` finds the preset a file was made with, or says it has changed.
final class PresetConversionTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = AudioFixture.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    func testEveryShippedPresetMatchesTheSchemaAndConvertsTheCorpus() throws {
        let schema = try JSONReader.parse(Data(contentsOf: Corpus.presetsFolder.appendingPathComponent("preset.schema.json")))
        let library = PresetLibrary(directories: [Corpus.presetsFolder])
        XCTAssertGreaterThanOrEqual(library.names().count, 6)
        let corpus = try GroundTruth.find(in: Corpus.root).annotations
        let names = library.names()
        var converters: [(name: String, converter: Converter)] = []
        for name in names {
            let json = try JSONReader.parse(Data(contentsOf: Corpus.presetsFolder.appendingPathComponent(name + ".json")))
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
        let mine = dir.appendingPathComponent("mine.json")
        try Data(#"{"schemaVersion": 1, "name": "mine", "peaks": {"delta": 5}}"#.utf8).write(to: mine)
        let library = PresetLibrary(directories: [dir, Corpus.presetsFolder])
        let preset = try library.resolve("mine", overrides: ["mapping.intensity.gamma=0.7"])
        let audio = try AudioFixture.write(Signals.clicks(at: [0.1], seconds: 0.3, sampleRate: 44100),
                                           to: dir.appendingPathComponent("c.wav"), sampleRate: 44100)
        let result = try Converter(preset: preset, log: CommittedFiles()).convert(audio, to: dir.appendingPathComponent("out"))
        let again = try PresetProvenance.read(from: result.output(AHAPFormat.id)!).resolve(in: library, file: result.output(AHAPFormat.id)!)
        XCTAssertEqual(again.hash, preset.hash)
        XCTAssertEqual(again.parameters("mapping.intensity").number(IntensitySettings.gamma), 0.7)
        try Data(#"{"schemaVersion": 1, "name": "mine", "peaks": {"delta": 6}}"#.utf8).write(to: mine)
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
