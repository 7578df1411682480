import Foundation
import FuzzDriver
import Tactus
import TactusAHAP
import TactusAndroid
import TactusCore
import TactusHaptic

/// libFuzzer entry point: arbitrary bytes through everything that reads a `.haptic` file or an
/// Android file (`<stem>.android.json`), and what each reads through every writer (what
/// `tactus convert design.haptic --format …` does).
///
/// Beyond "never crash", it checks the promises the parts make to each other:
/// - for each of the two readers, the reader and the validator agree: a file the validator
///   finds no error in reads, and a file that does not read has an error;
/// - every format either writes what reads back or refuses it with a thrown error (a track
///   beyond what the format can hold, such as a breakpoint at 10²⁷ s); what the `.haptic` and
///   Android writers write, our own validators find no error in, and it reads back (the
///   `.haptic` with the same transients); what the AHAP writer writes, our AHAP validator passes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHaptic(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    for format in [HapticFileFormat() as any HapticReadableFormat, AndroidFormat()] {
        let errors = format.validate(data, baseDirectory: nil).filter { $0.severity == .error }
        guard let imported = try? format.read(data) else {
            precondition(!errors.isEmpty, "the \(type(of: format).id) validator passed a file its reader rejects")
            continue
        }
        precondition(errors.isEmpty, "the \(type(of: format).id) reader accepted a file its validator rejects: \(errors)")
        writeEverywhere(imported.track)
    }
    return 0
}

/// `track` through every built-in writer, and what they write through our readers.
private func writeEverywhere(_ track: HapticTrack) {
    for other in HapticFormats.builtIn.map({ $0.init() }) {
        var text = ""
        do { try other.write(track, context: HapticWriteContext(), to: { text += $0 }) } catch {
            continue
        }
        let written = Data(text.utf8)
        if let readable = other as? any HapticReadableFormat, !(other is AHAPFormat) {
            let findings = readable.validate(written, baseDirectory: nil).filter { $0.severity == .error }
            precondition(findings.isEmpty, "our \(type(of: other).id) file fails our validator: \(findings)\n\(text)")
            let again = try? readable.read(written)
            precondition(again != nil, "our \(type(of: other).id) file does not read back")
            if other is HapticFileFormat {
                precondition(again?.track.transients.count == track.transients.count, "a round trip lost transients")
            }
        }
        if other is AHAPFormat {
            let report = AHAPValidator().validate(written)
            precondition(report.isValid, "our AHAP fails our validator: \(report)\n\(text)")
        }
    }
}

@_cdecl("FuzzHaptic_main")
func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv, fuzzHaptic)
}
