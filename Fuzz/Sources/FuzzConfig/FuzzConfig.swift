import Foundation
import FuzzDriver
import Tactus
import TactusCore

/// libFuzzer entry point: arbitrary bytes as the two files a batch reads besides sounds — a
/// folder's `tactus.json` and the output folder's `.tactus-manifest.json`.
///
/// Beyond "never crash": a manifest that reads re-encodes to text that reads back to the same
/// manifest (a batch rewrites what it read); a folder setting either parses or is refused with
/// an error (its `set` names are checked later, when the preset resolves).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    if let json = try? JSONReader.parse(data), let manifest = try? BatchManifest(json) {
        guard let again = try? JSONReader.parse(manifest.encoded()), let reread = try? BatchManifest(again) else {
            preconditionFailure("a manifest we wrote does not read back")
        }
        precondition(reread == manifest, "a manifest changed on its way through the writer")
    }
    _ = try? FolderPresetFile.parse(data, folder: URL(fileURLWithPath: "/fuzz"))
    return 0
}

@_cdecl("FuzzConfig_main")
func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv, fuzzConfig)
}
