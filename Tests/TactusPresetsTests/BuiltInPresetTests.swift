import Foundation
import TactusPresets
import TactusTestSupport
import XCTest

/// The presets compiled into the binary are the shipped ones, and a binary run away from the
/// repository finds them.
final class BuiltInPresetTests: XCTestCase {
    func testCompiledInPresetsMatchPresetsFolder() throws {
        let builtIn = PresetLibrary.compiledIn
        let shipped = PresetLibrary(directories: [Corpus.presetsFolder])
        XCTAssertEqual(builtIn.names(), shipped.names())
        for name in shipped.names() {
            XCTAssertEqual(try builtIn.contents(of: builtIn.locate(name)), try shipped.contents(of: shipped.locate(name)),
                           "\(name): regenerate with python3 scripts/embed_presets.py")
            XCTAssertEqual(try builtIn.resolve(name).hash, try shipped.resolve(name).hash, name)
        }
        XCTAssertEqual(try builtIn.chain("impacts").map(\.source), ["<built-in>/default.json", "<built-in>/impacts.json"])
    }
}
