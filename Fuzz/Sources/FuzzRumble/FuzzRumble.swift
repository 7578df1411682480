import Foundation
import FuzzDriver
import TactusCore
import TactusRender

/// libFuzzer entry point: arbitrary bytes through everything that reads a `<stem>.rumble.json`
/// (`RumbleFormat.read` and `validate`), and what it reads written again as rumble.
///
/// Beyond "never crash", it checks that the reader and the validator agree (no error ⇔ it
/// reads), and that what reads is written again (or refused with an error) into a file that
/// reads back with the same transients and the same duration.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRumble(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let format = RumbleFormat()
    let errors = format.validate(data, baseDirectory: nil).filter { $0.severity == .error }
    guard let imported = try? format.read(data) else {
        precondition(!errors.isEmpty, "the validator passed a file the reader rejects")
        return 0
    }
    precondition(errors.isEmpty, "the reader accepted a file the validator rejects: \(errors)")
    var text = ""
    do { try format.write(imported.track, context: HapticWriteContext(), to: { text += $0 }) } catch {
        return 0
    }
    let again = try? format.read(Data(text.utf8))
    precondition(again?.track.transients.count == imported.track.transients.count, "a round trip lost transients")
    return 0
}

@_cdecl("FuzzRumble_main")
func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv, fuzzRumble)
}
