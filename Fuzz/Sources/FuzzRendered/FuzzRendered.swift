import Foundation
import FuzzDriver
import TactusAudio
import TactusCore
import TactusRender

/// libFuzzer entry point: arbitrary bytes through everything that reads a rendered drive
/// signal (`PCMFormat` and `DualSenseFormat`: `read` and `validate`, `RenderedDriveFile` and
/// `DriveDemodulator`; `AndroidOggFormat`: `AndroidOggFile`, the Ogg page and header parsers
/// and libsndfile's in-memory decoder, `SndFileOggCodec`).
///
/// Beyond "never crash", it checks that each reader and its validator agree (no error ⇔ it
/// reads) and that what reads is a track of finite values (0…1, times within the file).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRendered(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    OggVorbis.install(SndFileOggCodec.self)
    let data = Data(bytes: bytes, count: count)
    for format in [PCMFormat() as any HapticReadableFormat, DualSenseFormat(), AndroidOggFormat()] {
        let errors = format.validate(data, baseDirectory: nil).filter { $0.severity == .error }
        guard let imported = try? format.read(data) else {
            precondition(!errors.isEmpty, "the validator passed a file the reader rejects")
            continue
        }
        precondition(errors.isEmpty, "the reader accepted a file the validator rejects: \(errors)")
        let track = imported.track
        for t in track.transients {
            precondition(t.time.isFinite && (0...1).contains(t.intensity) && (0...1).contains(t.sharpness), "\(t)")
        }
        for region in track.regions {
            precondition(region.start <= region.end && region.end <= track.duration + 1e-9, "\(region.start)…\(region.end)")
            for p in region.intensity + region.sharpness { precondition((0...1).contains(p.value), "\(p)") }
        }
    }
    return 0
}

@_cdecl("FuzzRendered_main")
func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv, fuzzRendered)
}
