import Foundation
import XCTest
import TactusAnalysis
import TactusCore
import TactusMapping
import TactusPresets
import TactusTestSupport

/// Pairs that must keep their order (`OrderedPair`) are refused on one line naming both keys,
/// however they are set: in a preset or with `--set` (a folder's `tactus.json`:
/// `BatchFolderPresetTests`); the schema lists them.
final class OrderedPairTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = AudioFixture.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    func resolve(_ reference: String, _ overrides: [String] = []) throws -> ResolvedPreset {
        try PresetLibrary(directories: [dir, Corpus.presetsFolder]).resolve(reference, overrides: overrides)
    }

    /// Values inside both parameters' ranges with `lower` above `upper`.
    func inverted(_ pair: OrderedPair) -> (lower: Double, upper: Double) {
        guard case .number(let a) = pair.lower.kind, case .number(let b) = pair.upper.kind else { preconditionFailure() }
        let from = max(a.lowerBound, b.lowerBound), to = min(a.upperBound, b.upperBound)
        return (from + 2 * (to - from) / 3, from + (to - from) / 3)
    }

    func testEveryDeclaredPairIsRefusedInvertedAndHoldsAtTheDefaults() throws {
        let defaults = try resolve("default")
        var checked: [String] = []
        for section in PresetSections.all {
            for pair in section.orderedPairs(defaults.onsetMethod) {
                let lower = "\(section.path).\(pair.lower.name)", upper = "\(section.path).\(pair.upper.name)"
                XCTAssertTrue(pair.holds(in: defaults.parameters(section.path)), lower)
                let (l, u) = inverted(pair)
                XCTAssertThrowsError(try resolve("default", ["\(lower)=\(l)", "\(upper)=\(u)"])) { error in
                    XCTAssertEqual("\(error)", "--set: \(lower) = \(JSONText.shortest(l)) must be \(pair.relation) \(upper) = \(JSONText.shortest(u))")
                }
                let equal = Result { try resolve("default", ["\(lower)=\(u)", "\(upper)=\(u)"]) }
                XCTAssertEqual((try? equal.get()) != nil, pair.allowsEqual, "\(lower): equal ends allowed exactly when the pair says so")
                checked.append(lower)
            }
        }
        XCTAssertEqual(Set(checked), ["onset.minHz", "peaks.swellAttackMs", "centroid.minHz", "mapping.transients.floorDb",
                                      "mapping.transients.minIntensity", "mapping.transients.lowOctaves",
                                      "mapping.intensity.floorDb", "mapping.sharpness.lowOctaves", "mapping.sharpness.lowHz"])
    }

    /// The later of the two settings is blamed: here the child that lowered the top.
    func testTheFileThatBrokeTheOrderIsNamed() throws {
        try Data(#"{"schemaVersion": 1, "extends": "default", "mapping": {"sharpness": {"lowHz": 3000}}}"#.utf8)
            .write(to: dir.appendingPathComponent("parent.json"))
        try Data(#"{"schemaVersion": 1, "extends": "parent", "mapping": {"sharpness": {"highHz": 2000}}}"#.utf8)
            .write(to: dir.appendingPathComponent("child.json"))
        XCTAssertNoThrow(try resolve("parent"))
        XCTAssertThrowsError(try resolve("child")) {
            XCTAssertEqual("\($0)", "child.json: mapping.sharpness.lowHz = 3000 must be below mapping.sharpness.highHz = 2000")
        }
        XCTAssertThrowsError(try resolve("parent", ["mapping.sharpness.highHz=2500"])) {
            XCTAssertEqual("\($0)", "--set: mapping.sharpness.lowHz = 3000 must be below mapping.sharpness.highHz = 2500")
        }
    }

    /// The schema lists each section's pairs, so an editor or a page can keep them in order.
    func testTheSchemaListsThePairs() throws {
        let schema = try JSONReader.parse(Data(PresetSchema.json().utf8))
        var listed: [String] = []
        for section in PresetSections.all {
            let parts = section.path.split(separator: ".").map(String.init)
            var node = schema["properties"]?[parts[0]]
            if parts.count == 2 { node = node?["properties"]?[parts[1]] }
            guard case .array(let pairs)? = node?[PresetSchema.orderedPairsKeyword] else { continue }
            for pair in pairs {
                guard case .string(let lower)? = pair["lower"], case .string(let upper)? = pair["upper"] else { continue }
                listed.append("\(section.path).\(lower)<\(upper)")
            }
        }
        let declared = PresetSections.all.flatMap { section in
            section.orderedPairs(SuperFlux.self).map { "\(section.path).\($0.lower.name)<\($0.upper.name)" }
        }
        XCTAssertEqual(listed.sorted(), declared.sorted())
    }
}
