import Foundation
import FuzzDriver
import TactusAHAP
import TactusAnalysis
import TactusCore
import TactusMapping
import TactusPresets

/// A fixed 0.3 s test sound at 16 kHz: two noise clicks over a quiet hum, so every
/// analysis and mapping stage has something to do.
let sound: [Float] = (0..<4_800).map { i in
    let t = Double(i) / 16_000
    var x = 0.05 * sin(2 * .pi * 110 * t)
    for onset in [0.05, 0.2] where t >= onset {
        x += 0.7 * exp(-(t - onset) / 0.01) * sin(Double(i) * 12.9898).truncatingRemainder(dividingBy: 1)
    }
    return Float(x)
}

/// libFuzzer entry point: the bytes are read both as a preset file's JSON and as `--set`
/// lines (one `section.key=value` per line), the two ways a user hands us parameters.
///
/// A preset that resolves must then run: analyse the test sound, map it, and write an
/// AHAP that passes the validator. Any preset the parsers accept is one a user can run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPreset(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    if let file = try? PresetFile.parse(data, source: "fuzz.json"), let preset = try? ResolvedPreset(resolving: [file]) {
        run(preset)
    }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    if let overrides = try? PresetFile.overrides(lines),
       let preset = try? ResolvedPreset(resolving: [PresetFile(source: "fuzz.json", name: "fuzz"), overrides]) {
        run(preset)
    }
    return 0
}

func run(_ preset: ResolvedPreset) {
    _ = preset.hash
    let session = AnalysisSession(sampleRate: 16_000, configuration: preset.analysisConfiguration())
    session.push(sound)
    guard let track = try? preset.mapper().map(session.finish()) else {
        preconditionFailure("the analysis lacks a feature the mapper reads")
    }
    let output = preset.parameters(OutputSettings.id)
    let options = AHAPWriter.Options(pairedAudio: PairedAudio(fileName: "sound.wav", volume: output.number(OutputSettings.audioVolume),
                                                              useVolumeEnvelope: output.flag(OutputSettings.useVolumeEnvelope)))
    let data: Data
    do { data = try AHAPWriter(options: options).data(for: track) } catch {
        preconditionFailure("a valid preset made a track the writer refuses: \(error)")
    }
    let report = AHAPValidator().validate(data)
    precondition(report.isValid, "a valid preset made an invalid AHAP: \(report)")
}

@_cdecl("FuzzPreset_main")
func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv, fuzzPreset)
}
