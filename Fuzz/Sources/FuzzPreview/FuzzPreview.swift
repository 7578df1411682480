import Foundation
import FuzzDriver
import Tactus
import TactusAHAP
import TactusPreview

/// libFuzzer entry point: arbitrary bytes as an AHAP through what `tactus validate --audio`
/// and `tactus preview` do with a pattern once it is read — the harmony check of what it plays
/// against a sound's activity (made from the same bytes, so levels, silences, sound starts and
/// lengths vary too) and the preview's evaluation and drawing.
///
/// Beyond "never crash": findings and plots come in bounded time (libFuzzer's -timeout), the
/// plot carries no markup from the file, and every finding is of a known kind with finite times.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPreview(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    guard let document = try? AHAPDecoder().decode(data) else { return 0 }
    // Up to 64 blocks of 10 ms: levels −120…0 dB from the first bytes; a sound starts at each
    // block louder than the one before by more than 60 dB's worth of bytes.
    let blocks = Array(data.prefix(64))
    let starts = blocks.indices.filter { $0 == 0 || Int(blocks[$0 - 1]) - Int(blocks[$0]) > 128 }.map {
        SoundActivity.SoundStart(silenceStart: max(0, Double($0) - 1) * SoundActivity.blockSeconds,
                                 time: Double($0) * SoundActivity.blockSeconds)
    }
    let levels = blocks.map { -Double($0) * 120 / 255 }
    let sound = SoundActivity(levelDb: levels, peakDb: levels.map { min(0, $0 + 3) }, starts: starts,
                              duration: Double(blocks.count) * SoundActivity.blockSeconds)
    let track = AHAPImport.imported(from: document).track
    for finding in HarmonyCheck.check(track, sound: sound) {
        precondition(HarmonyCheck.Kind(rawValue: finding.kind) != nil, "a harmony finding of no known kind: \(finding)")
        precondition(!finding.message.contains("nan") && !finding.message.contains("inf"), "a finding without a time: \(finding)")
    }
    if let svg = try? PreviewRenderer.plot(of: track, title: "fuzz.ahap") {
        precondition(!svg.contains("<script"), "markup from the file reached the plot")
    }
    return 0
}

@_cdecl("FuzzPreview_main")
func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv, fuzzPreview)
}
