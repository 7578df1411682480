import TactusAnalysis
import TactusFFT
import TactusSpectrum
import TactusTestSupport
import XCTest

/// The pure-Swift FFT against FFTW's, on the STFT's own frames of real sounds.
final class RealTransformTests: XCTestCase {
    /// Largest difference of any bin, over the frame's largest bin magnitude.
    private func worstRelativeError(_ samples: [Float], size: Int) -> Float {
        let swift = SwiftRealFFT(size: size), fftw = FFTWRealFFT(size: size)
        var worst: Float = 0
        var start = 0
        let window = (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
        while start + size <= samples.count {
            for i in 0..<size {
                swift.input[i] = samples[start + i] * window[i]
                fftw.input[i] = samples[start + i] * window[i]
            }
            swift.execute()
            fftw.execute()
            var largest: Float = 0, difference: Float = 0
            for k in 0..<fftw.binCount {
                let (re, im) = (fftw.spectrum[2 * k], fftw.spectrum[2 * k + 1])
                largest = max(largest, (re * re + im * im).squareRoot())
                let (dr, di) = (swift.spectrum[2 * k] - re, swift.spectrum[2 * k + 1] - im)
                difference = max(difference, (dr * dr + di * di).squareRoot())
            }
            if largest > 0 { worst = max(worst, difference / largest) }
            start += size / 2
        }
        return worst
    }

    func testSwiftFFTAgreesWithFFTWOnRealSounds() throws {
        let gunshot = try LiveFixtures.sound("clean/gunshot.wav").samples
        let noise = Signals.noise(seconds: 0.5, sampleRate: 48_000, amplitude: 0.5)
        for size in [16, 64, 512, 1024, 2048, 16_384] {
            XCTAssertLessThan(worstRelativeError(gunshot, size: size), 1e-5, "size \(size), gunshot")
            XCTAssertLessThan(worstRelativeError(noise, size: size), 1e-5, "size \(size), noise")
        }
    }

    func testSwiftFFTOfASineHasItsBin() {
        let fft = SwiftRealFFT(size: 64)
        for i in 0..<64 { fft.input[i] = Float(cos(2 * Double.pi * 5 * Double(i) / 64)) }
        fft.execute()
        XCTAssertEqual(fft.spectrum[10], 32, accuracy: 1e-4)  // bin 5, real part: N/2
        XCTAssertEqual(fft.spectrum[11], 0, accuracy: 1e-4)
        XCTAssertEqual(fft.spectrum[12], 0, accuracy: 1e-4)
    }

    /// The analysis's features through either transform: the frame levels and centroids the
    /// mapping reads agree closely, and the onsets are the same.
    func testAnalysisOnEitherTransformFindsTheSameOnsets() throws {
        let sound = try LiveFixtures.sound("clean/anvil_hits.aiff")
        func analyse(_ transform: any RealTransform.Type) throws -> AnalysisResult {
            var configuration = try AnalysisConfiguration.defaults()
            configuration.transform = transform
            let session = AnalysisSession(sampleRate: sound.rate, configuration: configuration)
            session.push(sound.samples)
            return session.finish()
        }
        let (swift, fftw) = (try analyse(SwiftRealFFT.self), try analyse(FFTWRealFFT.self))
        XCTAssertEqual(swift.onsets.map(\.sample), fftw.onsets.map(\.sample))
        XCTAssertEqual(try swift.feature(LevelAnalyzer.output), try fftw.feature(LevelAnalyzer.output))
        for (a, b) in zip(try swift.feature(CentroidAnalyzer.output), try fftw.feature(CentroidAnalyzer.output)) {
            XCTAssertEqual(a, b, accuracy: max(1e-3, 1e-5 * b))
        }
    }
}
