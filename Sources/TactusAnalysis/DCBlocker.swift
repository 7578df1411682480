import Foundation

/// Removes a constant offset (DC) from the analysed signal with a one-pole high-pass.
///
/// DC is inaudible, yet it adds to every frame's RMS and to the lowest band: an offset
/// alone reads as a loud, steady sound, so it buzzed as a continuous haptic under
/// silence and raised the background that onsets are judged against until clicks riding
/// on it went unfelt. At 5 Hz the filter leaves audible bass alone (−0.3 dB at 20 Hz).
/// The state starts at zero, as if the file were preceded by silence, so an offset
/// present from the first sample is the step a speaker would play.
struct DCBlocker {
    static let cutoffHz = 5.0

    private let pole: Float
    private var previousInput: Float = 0
    private var previousOutput: Float = 0

    init(sampleRate: Double) {
        pole = Float(exp(-2 * Double.pi * Self.cutoffHz / sampleRate))
    }

    mutating func process(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        var x1 = previousInput, y1 = previousOutput
        for i in input.indices {
            let y = input[i] - x1 + pole * y1
            x1 = input[i]
            y1 = y
            output[i] = y
        }
        // After a sound, silence makes the state decay towards denormals, whose arithmetic
        // is slow; a block is far too short to get there, so flushing once per block is enough
        // and keeps the per-sample loop free of branches.
        if y1 < 1e-20 && y1 > -1e-20 { y1 = 0 }
        previousInput = x1
        previousOutput = y1
    }
}
