import Foundation
import FuzzDriver
import Tactus
import TactusAHAP
import TactusPreview

/// libFuzzer entry point: arbitrary bytes as an AHAP through what `tactus validate --audio`
/// and `tactus preview` do with a pattern once it is read — the harmony check against an
/// audio envelope (made from the same bytes, so levels, silences and lengths vary too) and
/// the preview's evaluation and drawing.
///
/// Beyond "never crash": findings and plots come in bounded time (libFuzzer's -timeout), the
/// plot carries no markup from the file, and every finding names a place.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPreview(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    guard let document = try? AHAPDecoder().decode(data) else { return 0 }
    // Up to 64 blocks of 10 ms: levels −120…0 dB and centroids from the first bytes.
    let blocks = Array(data.prefix(64))
    let reference = ReferenceEnvelope(levelDb: blocks.map { -Double($0) * 120 / 255 },
                                      logCentroid: blocks.map { 5 + Double($0) / 32 },
                                      duration: Double(blocks.count) * ReferenceEnvelope.hopSeconds)
    for finding in HarmonyCheck.check(document, audio: reference) {
        precondition(!finding.location.isEmpty, "a harmony finding without a place: \(finding)")
    }
    if let svg = try? PreviewRenderer.plot(of: document, title: "fuzz.ahap") {
        precondition(!svg.contains("<script"), "markup from the file reached the plot")
    }
    return 0
}

@_cdecl("FuzzPreview_main")
func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv, fuzzPreview)
}
