import Foundation
import XCTest
@testable import TactusAnalysis
import TactusFFT
import TactusTestSupport

final class STFTTests: XCTestCase {
    /// The STFT's spectrum (the pure-Swift FFT) must match a naive DFT of the same windowed frame.
    func testSpectrumMatchesNaiveDFT() {
        let sr = 8000.0
        let geometry = FrameGeometry(sampleRate: sr, windowMs: 16, hopMs: 4)
        let signal = Signals.mix(Signals.sine(hz: 440, seconds: 0.1, sampleRate: sr, amplitude: 0.5),
                                 Signals.noise(seconds: 0.1, sampleRate: sr, amplitude: 0.1))
        let stft = STFT(geometry: geometry, transform: SwiftRealFFT.self)
        var checked = 0
        signal.withUnsafeBufferPointer { buffer in
            stft.push(buffer) { frame in
                guard frame.index == 5 else { return }
                let n = geometry.windowLength
                let hann = (0..<n).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n)) }
                let scale = 2 / hann.reduce(0, +) * 0.5
                for k in [0, 3, 7, 8, 40, geometry.fftSize / 2] {
                    var re = 0.0, im = 0.0
                    for i in 0..<n {
                        let x = Double(frame.samples[i]) * hann[i]
                        let phase = -2 * Double.pi * Double(k * i) / Double(geometry.fftSize)
                        re += x * cos(phase)
                        im += x * sin(phase)
                    }
                    XCTAssertEqual(Double(frame.real[k]), re * scale, accuracy: 1e-4, "bin \(k) real")
                    XCTAssertEqual(Double(frame.imag[k]), im * scale, accuracy: 1e-4, "bin \(k) imag")
                }
                checked += 1
            }
        }
        XCTAssertEqual(checked, 1)
    }
}
