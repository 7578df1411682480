import Foundation
import Tactus
import TactusCore
import TactusFiles
import TactusTestSupport
import XCTest

/// The checks every haptic format passes, whatever it is (in the manner of swift-nio's
/// `ByteToMessageDecoderVerifier`: one verifier, run on each format, not a test per format
/// that a new format could forget):
/// 1. its files, written twice from the same sounds, are the same bytes (in-process), and
///    `tactus batch` writes the same bytes with `--jobs 1` and `--jobs 3`;
/// 2. its own validator finds no error in them;
/// 3. read back, they play the track they were written from within the format's stated
///    `Tolerance` (transients kept, their time and intensity, the continuous intensity's RMS);
/// 4. its reader, given hostile bytes (the first 64 truncations and 48 more spread over the
///    file, 48 seeded bit flips, garbage with and without the file's first bytes), returns a
///    track or throws `FormatReadError`, never crashes or hangs, and never refuses what its
///    validator passes (a refusal comes with an error there). The converse is not asked:
///    readers are lenient by design (an AHAP with an unknown key reads, as Core Haptics
///    ignores it, while the validator reports it as an error).
enum FormatVerifier {
    /// How closely a format's files play the track they were written from, as
    /// `PlaybackComparison` measures it (the continuous intensity compared outside ±`maskMs`
    /// of each transient, where formats lift or duck the body).
    struct Tolerance {
        /// Largest time error of a paired transient, seconds.
        var time: Double
        /// Largest intensity error of a paired transient (0…1).
        var intensity: Double
        /// Largest RMS error of the continuous intensity (0…1).
        var envelopeRMS: Double
        /// Milliseconds around each transient left out of the continuous comparison.
        var maskMs: Double
        /// Whether transients read back as transients; false where the format plays them as
        /// pulses within its body and its reader cannot tell them apart (Android's waveform):
        /// then only the continuous intensity is compared.
        var readsTransients = true
        /// Read-back transients at or below this intensity are not counted (0: all are): where
        /// a lossy codec leaves ripples on a pulse's tail that the demodulator can take for a
        /// faint pulse. A reference transient that weak must still be found.
        var faintestCounted = 0.0
    }

    /// Each built-in format's stated tolerance, by id. A format missing here fails the verifier:
    /// stating how exactly it reads back is part of adding one. Measured on `sounds` (the test
    /// prints what it measures); the rendered formats' numbers are `DriveDemodulator`'s
    /// (README, "Rendered drive signals"), android-ogg's that plus Vorbis at its quality.
    static let tolerances: [String: Tolerance] = [
        // The AHAP lifts its body around each transient so the transient plays unscaled.
        "ahap": Tolerance(time: 0.000_5, intensity: 0.01, envelopeRMS: 0.01, maskMs: 10),
        "haptic": Tolerance(time: 0.000_5, intensity: 0.01, envelopeRMS: 0.01, maskMs: 10),
        "android": Tolerance(time: 0, intensity: 0, envelopeRMS: 0.02, maskMs: 30, readsTransients: false),
        // A pulse's height over a moving body and the knee are approximate (DriveDemodulator).
        "pcm": Tolerance(time: 0.002, intensity: 0.25, envelopeRMS: 0.01, maskMs: 30),
        "dualsense": Tolerance(time: 0.002, intensity: 0.25, envelopeRMS: 0.01, maskMs: 30),
        // Pulses are steps of the timeline for transientMs (40 ms) from their start.
        "rumble": Tolerance(time: 0.003, intensity: 0.01, envelopeRMS: 0.01, maskMs: 50),
        // Vorbis leaves ripples up to about 0.05 on a pulse's tail (ui_taps at quality 0.8 and 1).
        "android-ogg": Tolerance(time: 0.002, intensity: 0.25, envelopeRMS: 0.02, maskMs: 30, faintestCounted: 0.06),
    ]

    /// The sounds every format is written from (Corpus/clean): taps, a stereo 48 kHz sound, a
    /// continuous body.
    static let sounds = ["ui_taps.wav", "gunshots_stereo48k.wav", "engine_loop.wav"]

    /// One format's measured read-back, for the test's log.
    struct Measurement: CustomStringConvertible {
        var format: String, sound: String, comparison: PlaybackComparison
        var description: String {
            "\(format) \(sound): transients \(comparison.pairedTransients)/\(comparison.referenceTransients) (candidate \(comparison.candidateTransients)), "
                + String(format: "time %.4f s, intensity %.4f, envelope RMS %.4f", comparison.worstTimeError,
                         comparison.worstIntensityError, comparison.envelopeRMS)
        }
    }

    /// Checks 2 and 3 on one file: no validator error, and the track read back within `tolerance`.
    /// - Returns: what was measured.
    static func checkReadBack(_ format: any HapticReadableFormat, file: URL, track: HapticTrack, tolerance: Tolerance,
                              sound: String) throws -> Measurement {
        let data = try Data(contentsOf: file)
        let errors = format.validate(data, baseDirectory: file.deletingLastPathComponent()).filter { $0.severity == .error }
        XCTAssertEqual(errors, [], "\(type(of: format).id) \(sound): its own validator finds errors")
        var read = try format.read(data).track
        read.transients.removeAll { $0.intensity <= tolerance.faintestCounted && tolerance.faintestCounted > 0 }
        let comparison = PlaybackComparison(reference: track, candidate: read, transientMask: tolerance.maskMs / 1000)
        let id = type(of: format).id
        if tolerance.readsTransients {
            XCTAssertTrue(comparison.keepsEveryTransient, "\(id) \(sound): transients lost or added: \(comparison)")
            XCTAssertLessThanOrEqual(comparison.worstTimeError, tolerance.time, "\(id) \(sound): transient time")
            XCTAssertLessThanOrEqual(comparison.worstIntensityError, tolerance.intensity, "\(id) \(sound): transient intensity")
        }
        XCTAssertLessThanOrEqual(comparison.envelopeRMS, tolerance.envelopeRMS, "\(id) \(sound): continuous intensity")
        return Measurement(format: id, sound: sound, comparison: comparison)
    }

    /// Check 4: hostile variants of `valid` through `format`'s reader and validator.
    /// - Parameters:
    ///   - format: the format.
    ///   - valid: a valid file of it.
    ///   - cuts: how many truncation points (evenly spread, plus the first 64 bytes one by one).
    ///   - flips: how many seeded single-bit flips.
    static func checkHostile(_ format: any HapticReadableFormat, valid: Data, cuts: Int = 48, flips: Int = 48) {
        var variants: [(String, Data)] = []
        let count = valid.count
        let lengths = Set((0..<min(64, count)).map { $0 } + (0..<cuts).map { count * $0 / cuts })
        for n in lengths.sorted() { variants.append(("truncated to \(n) bytes", valid.prefix(n))) }
        var generator = SeededGenerator(seed: 0x42)
        for _ in 0..<flips {
            var flipped = valid
            let bit = Int.random(in: 0..<(count * 8), using: &generator)
            flipped[flipped.startIndex + bit / 8] ^= UInt8(1 << (bit % 8))
            variants.append(("bit \(bit) flipped", flipped))
        }
        let garbage = Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        variants.append(("garbage", garbage))
        variants.append(("the first 64 bytes, then garbage", valid.prefix(64) + garbage))
        variants.append(("empty", Data()))
        let id = type(of: format).id
        for (what, bytes) in variants {
            let errors = format.validate(bytes, baseDirectory: nil).filter { $0.severity == .error }
            do {
                _ = try format.read(bytes)
            } catch is FormatReadError {
                XCTAssertFalse(errors.isEmpty, "\(id), \(what): refused by the reader, passed by the validator")
            } catch {
                XCTFail("\(id), \(what): the reader threw \(error), not a FormatReadError")
            }
        }
    }
}
