import FuzzDriver
import TactusAnalysis
import TactusCore
import TactusLive
import TactusMapping
import TactusPresets

/// libFuzzer entry point: arbitrary samples through the analysis and the mapping, offline
/// (`AnalysisSession` and `HapticMapper`, what `tactus convert` runs on a decoded file) and live
/// (`LiveHaptics`, what `tactus live -` runs on standard input), as a broken decoder, plugin
/// or stream could hand them over.
///
/// The first bytes choose the stream: channels (1–4), the rate (8 kHz–384 kHz), the live block
/// size (1–2048 frames), and whether the rest are 32-bit floats (any bit pattern: NaN, ±Inf,
/// 3e38) or 16-bit integers (audio-like). Beyond "never crash", it checks that every transient,
/// point and live event is finite, within 0…1 and inside the stream's time, and that live events
/// come in order of `emittedAt`.
/// The shipped default, resolved once for every input.
private let preset = try! PresetLibrary.compiledIn.resolve("default")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSamples(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count >= 5 else { return 0 }
    let channels = 1 + Int(bytes[0] % 4)
    let rates: [Double] = [8_000, 11_025, 22_050, 44_100, 48_000, 96_000, 192_000, 384_000]
    let rate = rates[Int(bytes[1]) % rates.count]
    let block = 1 + (Int(bytes[2]) << 8 | Int(bytes[3])) % 2048
    let floats = bytes[4] & 1 == 0
    let payload = UnsafeBufferPointer(start: bytes + 5, count: count - 5)
    let width = floats ? 4 : 2
    let frames = payload.count / (width * channels)
    guard frames > 0 else { return 0 }
    var interleaved = [Float](repeating: 0, count: frames * channels)
    for i in 0..<interleaved.count {
        let at = i * width
        if floats {
            let bits = UInt32(payload[at]) | UInt32(payload[at + 1]) << 8 | UInt32(payload[at + 2]) << 16 | UInt32(payload[at + 3]) << 24
            interleaved[i] = Float(bitPattern: bits)
        } else {
            interleaved[i] = Float(Int16(bitPattern: UInt16(payload[at]) | UInt16(payload[at + 1]) << 8)) / 32_768
        }
    }
    let duration = Double(frames) / rate
    checkOffline(interleaved, frames: frames, channels: channels, rate: rate, duration: duration, preset: preset)
    checkLive(interleaved, channels: channels, rate: rate, block: block, duration: duration, preset: preset)
    return 0
}

private func checkOffline(_ interleaved: [Float], frames: Int, channels: Int, rate: Double, duration: Double,
                          preset: ResolvedPreset) {
    var mono = [Float](repeating: 0, count: frames)
    interleaved.withUnsafeBufferPointer { input in
        mono.withUnsafeMutableBufferPointer { Mixdown.mono(input, frames: frames, channels: channels, into: $0) }
    }
    let session = AnalysisSession(sampleRate: rate, configuration: preset.analysisConfiguration())
    session.expect(samples: frames)
    session.push(mono)
    let track = try! preset.mapper().map(session.finish())
    for transient in track.transients {
        precondition(inUnit(transient.intensity) && inUnit(transient.sharpness), "a transient out of 0…1: \(transient)")
        precondition(transient.time.isFinite && transient.time >= 0 && transient.time <= duration + 0.1,
                     "a transient outside the sound: \(transient)")
    }
    for region in track.regions {
        precondition(region.start.isFinite && region.end.isFinite && region.start < region.end, "a region out of order: \(region)")
        for point in region.intensity + region.sharpness {
            precondition(inUnit(point.value) && point.time.isFinite, "a curve point out of 0…1: \(point)")
        }
    }
}

private func checkLive(_ interleaved: [Float], channels: Int, rate: Double, block: Int, duration: Double,
                       preset: ResolvedPreset) {
    let live = try! LiveHaptics(preset: preset, sampleRate: rate, channels: channels)
    var lastEmitted = 0.0
    let check: (LiveEvent) -> Void = { event in
        precondition(inUnit(event.intensity) && inUnit(event.sharpness), "a live event out of 0…1: \(event)")
        precondition(event.time.isFinite && event.time >= 0 && event.time <= duration + 0.1, "a live event outside the stream: \(event)")
        precondition(event.emittedAt >= lastEmitted && event.emittedAt <= duration + 1e-9, "a live event out of order: \(event)")
        lastEmitted = event.emittedAt
    }
    interleaved.withUnsafeBufferPointer { all in
        var start = 0
        while start < all.count {
            let end = min(all.count, start + block * channels)
            live.push(interleaved: UnsafeBufferPointer(rebasing: all[start..<end]), check)
            start = end
        }
    }
    live.finish(check)
}

private func inUnit(_ x: Double) -> Bool { x.isFinite && x >= 0 && x <= 1 }

@_cdecl("FuzzSamples_main")
func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv, fuzzSamples)
}
