import Foundation
import FuzzDriver
import Tactus
import TactusAHAP
import TactusCore
import TactusHaptic

/// libFuzzer entry point: arbitrary bytes through everything that reads a `.haptic` file, and
/// what it reads through every writer (what `tactus convert design.haptic --format …` does).
///
/// Beyond "never crash", it checks the promises the parts make to each other:
/// - the reader and the validator agree: a file the validator finds no error in reads, and a
///   file that does not read has an error;
/// - every format either writes what reads back or refuses it with a thrown error (a track
///   beyond what the format can hold, such as a breakpoint at 10²⁷ s); what the `.haptic`
///   writer writes, our own validator finds no error in and it reads back with the same
///   transients; what the AHAP writer writes, our AHAP validator passes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHaptic(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let format = HapticFileFormat()
    let errors = format.validate(data, baseDirectory: nil).filter { $0.severity == .error }
    guard let imported = try? format.read(data) else {
        precondition(!errors.isEmpty, "the validator passed a file the reader rejects")
        return 0
    }
    precondition(errors.isEmpty, "the reader accepted a file the validator rejects: \(errors)")
    for other in HapticFormats.builtIn.map({ $0.init() }) {
        var text = ""
        do { try other.write(imported.track, context: HapticWriteContext(), to: { text += $0 }) } catch {
            continue
        }
        let written = Data(text.utf8)
        if other is HapticFileFormat {
            let findings = format.validate(written, baseDirectory: nil).filter { $0.severity == .error }
            precondition(findings.isEmpty, "our .haptic fails our validator: \(findings)\n\(text)")
            let again = try? format.read(written)
            precondition(again?.track.transients.count == imported.track.transients.count, "a round trip lost transients")
        }
        if other is AHAPFormat {
            let report = AHAPValidator().validate(written)
            precondition(report.isValid, "our AHAP fails our validator: \(report)\n\(text)")
        }
    }
    return 0
}

@_cdecl("FuzzHaptic_main")
func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv, fuzzHaptic)
}
