import Foundation
import FuzzDriver
import TactusAHAP
import TactusCore

/// libFuzzer entry point: arbitrary bytes through everything that reads an AHAP.
///
/// Beyond "never crash", it checks the promises the readers make to each other:
/// - the validator never passes a file the decoder rejects;
/// - whatever decodes re-encodes to a file that decodes to the same shape (our own
///   writer's output must always be readable by our own reader);
/// - the evaluator can play whatever decodes, and reports only finite values there;
/// - the metadata read from the file's start (`metadata(fromStart:)`, how a rerun tells who
///   made a file) reads any start of it or throws, and for a file that decodes with one
///   `Metadata` member holds only entries the decoder reads too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAHAP(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let report = AHAPValidator().validate(data)
    _ = try? AHAPFormat().metadata(fromStart: data.prefix(count / 2))
    let header = try? AHAPFormat().metadata(fromStart: data)
    guard let document = try? AHAPDecoder().decode(data) else {
        precondition(!report.isValid, "the validator passed a file the decoder rejects")
        return 0
    }
    if case .object(let members)? = try? JSONReader.parse(data), members.count(where: { $0.key == "Metadata" }) == 1 {
        let header = header ?? []
        precondition(header.allSatisfy(document.metadata.contains), "the metadata read from the start is not the decoder's: \(header)")
    }
    let reencoded = AHAPEncoder().encode(document)
    guard let again = try? AHAPDecoder().decode(reencoded) else {
        preconditionFailure("our encoder wrote a file our decoder rejects: \(String(decoding: reencoded, as: UTF8.self))")
    }
    precondition(again.pattern.count == document.pattern.count && again.metadata.count == document.metadata.count,
                 "re-encoding changed the document's shape")
    let evaluator = PatternEvaluator(document)
    for transient in evaluator.transients {
        precondition(transient.effectiveIntensity.isFinite, "non-finite effective intensity")
    }
    for element in document.pattern.prefix(64) {
        let t = element.time
        _ = evaluator.continuousIntensity(at: t)
        _ = evaluator.controlValue(AHAPParameterID.hapticIntensityControl, at: t)
    }
    return 0
}

@_cdecl("FuzzAHAP_main")
func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv, fuzzAHAP)
}
