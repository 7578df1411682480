import Foundation

/// Groups FFT bins into bands equally spaced in log-frequency (triangular, as in SuperFlux
/// and madmom), so every octave counts the same: a low thump is not outvoted by the hundreds
/// of high-frequency bins, and band values are comparable across sample rates.
public struct LogFilterbank {
    /// For each band, the (bin, weight) pairs it sums.
    let bands: [[(bin: Int, weight: Float)]]

    public var count: Int { bands.count }

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
        self.bands = bands
    }

    /// Band levels in dB (power, weighted), floored at `floorDb`.
    public func levels(of frame: SpectralFrame, floorDb: Float, into out: inout [Float]) {
        if out.count != bands.count { out = Array(repeating: floorDb, count: bands.count) }
        frame.magnitude.withUnsafeBufferPointer { m in
            for (i, band) in bands.enumerated() {
                var power: Float = 0
                for (bin, weight) in band { power += weight * m[bin] * m[bin] }
                out[i] = decibels(power: power, floorDb: floorDb)
            }
        }
    }
}
