import TactusCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Groups FFT bins into bands equally spaced in log-frequency (triangular, as in SuperFlux
/// and madmom), so every octave counts the same: a low thump is not outvoted by the hundreds
/// of high-frequency bins, and band values are comparable across sample rates.
public struct LogFilterbank {
    /// Band `b` sums bins `first[b] ..< first[b] + width[b]` with weights starting at
    /// `offset[b]` in `weights` (flat arrays: no per-band allocation in the hot loop). Widths
    /// are padded with zero weights to whole groups of four, so each band is a few vector
    /// steps with no scalar remainder (most bands are 3 to 10 bins wide); the power
    /// spectrum has zeros allocated past its end for the last band's padding.
    private let first: [Int]
    private let width: [Int]
    private let offset: [Int]
    private let weights: [Float]

    /// Number of bands.
    public var count: Int { first.count }

    private struct Key: Hashable {
        var sampleRate: Double, fftSize: Int, minHz: Double, maxHz: Double, bandsPerOctave: Double
    }
    private static let cache = ProcessCache<Key, LogFilterbank>()

    /// The filterbank for these settings, built once per process.
    /// - Parameters:
    ///   - geometry: the frames' sample rate and FFT size.
    ///   - minHz: the lowest band's centre, in Hz (at least one bin).
    ///   - maxHz: the highest frequency, in Hz (capped at Nyquist).
    ///   - bandsPerOctave: bands per octave, above 0.
    /// - Returns: the shared filterbank.
    public static func shared(geometry: FrameGeometry, minHz: Double, maxHz: Double,
                              bandsPerOctave: Double) -> LogFilterbank {
        let key = Key(sampleRate: geometry.sampleRate, fftSize: geometry.fftSize, minHz: minHz, maxHz: maxHz,
                      bandsPerOctave: bandsPerOctave)
        return cache.value(for: key) {
            LogFilterbank(geometry: geometry, minHz: minHz, maxHz: maxHz, bandsPerOctave: bandsPerOctave)
        }
    }

    /// Builds a filterbank; prefer `shared(geometry:minHz:maxHz:bandsPerOctave:)`, which builds each once.
    /// - Parameters:
    ///   - geometry: the frames' sample rate and FFT size.
    ///   - minHz: the lowest band's centre, in Hz.
    ///   - maxHz: the highest frequency, in Hz (capped at Nyquist).
    ///   - bandsPerOctave: bands per octave, above 0.
    public init(geometry: FrameGeometry, minHz: Double, maxHz: Double, bandsPerOctave: Double) {
        let binHz = geometry.sampleRate / Double(geometry.fftSize)
        let binCount = geometry.fftSize / 2 + 1
        let top = min(maxHz, geometry.sampleRate / 2)
        // Band edges in log-frequency, snapped to bins; duplicates merge so each band is real.
        var centres: [Int] = []
        var f = max(minHz, binHz)
        while f <= top {
            let bin = Int((f / binHz).rounded())
            if bin < binCount, centres.last != bin { centres.append(bin) }
            f *= pow(2, 1 / bandsPerOctave)
        }
        var bands: [[(Int, Float)]] = []
        if centres.count >= 3 {
            for i in 1..<(centres.count - 1) {
                let lo = centres[i - 1], mid = centres[i], hi = centres[i + 1]
                var band: [(Int, Float)] = []
                for b in lo...hi {
                    let w = b <= mid ? Float(b - lo + 1) / Float(mid - lo + 1) : Float(hi - b + 1) / Float(hi - mid + 1)
                    band.append((b, w))
                }
                bands.append(band)
            }
        }
        first = bands.map { $0.first?.0 ?? 0 }
        let padded = bands.map { ($0.count + 3) / 4 * 4 }
        width = padded
        var offsets: [Int] = [], total = 0
        for w in padded {
            offsets.append(total)
            total += w
        }
        offset = offsets
        weights = zip(bands, padded).flatMap { band, w in band.map(\.1) + Array(repeating: 0, count: w - band.count) }
        precondition(zip(first, padded).allSatisfy { $0 + $1 <= binCount + SpectralFrame.powerPadding })
    }

    /// Band levels in dB (power, weighted), floored at `floorDb`.
    /// - Parameters:
    ///   - frame: the frame whose power spectrum is grouped.
    ///   - floorDb: the lowest level reported, in dB.
    ///   - out: receives `count` levels, one per band (resized if needed).
    public func levels(of frame: SpectralFrame, floorDb: Float, into out: inout [Float]) {
        if out.count != count { out = Array(repeating: floorDb, count: count) }
        let power = frame.power.baseAddress!
        weights.withUnsafeBufferPointer { w in
            out.withUnsafeMutableBufferPointer { levels in
                first.withUnsafeBufferPointer { first in
                    width.withUnsafeBufferPointer { width in
                        offset.withUnsafeBufferPointer { offset in
                            for b in 0..<levels.count {
                                levels[b] = dotInFours(w.baseAddress! + offset[b], power + first[b], count: width[b])
                            }
                        }
                    }
                }
                // A second pass over all bands, so the logarithms vectorise.
                for b in 0..<levels.count { levels[b] = fastDecibels(power: levels[b], floorDb: floorDb) }
            }
        }
    }
}
