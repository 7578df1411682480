import Foundation

/// Groups FFT bins into bands equally spaced in log-frequency (triangular, as in SuperFlux
/// and madmom), so every octave counts the same: a low thump is not outvoted by the hundreds
/// of high-frequency bins, and band values are comparable across sample rates.
public struct LogFilterbank {
    /// Band `b` sums bins `first[b] ..< first[b] + width[b]` with weights starting at
    /// `offset[b]` in `weights` (flat arrays: no per-band allocation in the hot loop).
    private let first: [Int]
    private let width: [Int]
    private let offset: [Int]
    private let weights: [Float]

    public var count: Int { first.count }

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
        width = bands.map(\.count)
        var offsets: [Int] = [], total = 0
        for band in bands {
            offsets.append(total)
            total += band.count
        }
        offset = offsets
        weights = bands.flatMap { $0.map(\.1) }
    }

    /// Band levels in dB (power, weighted), floored at `floorDb`.
    public func levels(of frame: SpectralFrame, floorDb: Float, into out: inout [Float]) {
        if out.count != count { out = Array(repeating: floorDb, count: count) }
        let power = frame.power.baseAddress!
        weights.withUnsafeBufferPointer { w in
            out.withUnsafeMutableBufferPointer { levels in
                for b in 0..<first.count {
                    let sum = dot(w.baseAddress! + offset[b], power + first[b], count: width[b])
                    levels[b] = fastDecibels(power: sum, floorDb: floorDb)
                }
            }
        }
    }
}
