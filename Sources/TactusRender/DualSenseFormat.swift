import TactusCore
import TactusPlatform

/// Sony DualSense over USB: a four-channel 48 kHz 16-bit WAV (`<stem>.dualsense.wav`) laid out
/// as the controller's USB audio device takes it, so playing the file on that device plays the
/// sound and the haptics together (specified in `Integrations/DualSense/FORMAT.md`, with the
/// community sources):
/// - channels 1–2: the sound (its first two channels; a mono sound on both), resampled to
///   48 kHz by `Resampler` when recorded at another rate, scaled by `soundGain`; silent for a
///   translated haptic file;
/// - channels 3–4: the left and right actuators, both the drive signal `ActuatorDrive` renders
///   from the track (the track is mono), with the voice-coil profile unless the section says
///   otherwise.
/// What is lost: left/right placement (both actuators play alike), and, as for `pcm`,
/// sharpness outside the actuator band and each sharpness where a pulse plays over the body.
/// Read back (`read`, `validate`) by `RenderedDriveFile` from channel 3 as `pcm` is (the sound
/// on channels 1–2 is not read: the track is the haptics alone).
public struct DualSenseFormat: BinaryHapticFormat, HapticReadableFormat {
    public static let id = "dualsense"
    public static let fileExtension = "dualsense.wav"
    public static let summary = "Sony DualSense over USB: 4-channel 48 kHz WAV, the sound on channels 1-2 and the two actuators' drive signal on 3-4."
    public static let readingSummary = RenderedDriveFile.readingSummary + " from channel 3"
    public static let rulesSummary = RenderedDriveFile.rulesSummary(layout: "4 channels at 48 kHz", twin: true)
    public static let soundGain = ParameterDescriptor.number("soundGain", 0...1, default: 1,
                help: "Gain of the sound on channels 1-2 (0: haptics only).")
    public static let parameters = ActuatorDrive.parameters + [soundGain]

    /// The rate and channels the controller's USB audio device plays.
    public static let sampleRate = 48_000, channels = 4

    let settings: ParameterSet

    public init(parameters: ParameterSet) {
        settings = parameters
    }

    public func write(_ track: HapticTrack, context: HapticWriteContext, file ending: String,
                      bytes emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        let drive = try ActuatorDrive(settings)
        try track.checkFinite(below: PCMFormat.maxSeconds)
        let rate = Double(Self.sampleRate)
        let frames = drive.frames(for: track, sampleRate: rate)
        try PCMWAVWriter(sampleRate: Self.sampleRate, channels: Self.channels, frames: frames).header
            .withUnsafeBytes { try emit($0) }
        var writer = Interleaver(renderer: drive.renderer(for: track, sampleRate: rate), frames: frames,
                                 gain: Float(settings.number(Self.soundGain)))
        if let sound = context.sound {
            var resampler = Resampler(from: Int(sound.sampleRate), to: Self.sampleRate, channels: 2)
            var stereo: [Float] = []
            try sound.decode { interleaved in
                Self.stereo(interleaved, channels: sound.channels, into: &stereo)
                try stereo.withUnsafeBufferPointer { block in
                    try resampler.push(block) { try writer.write(sound: $0, emit) }
                }
            }
            try resampler.finish(at: frames) { try writer.write(sound: $0, emit) }
        }
        try writer.finish(emit)
    }

    /// The file's rules: 4 channels at 48 kHz, the drive on channel 3 and the same on 4.
    static let layout = RenderedDriveFile.Layout(channels: channels, sampleRates: sampleRate...sampleRate,
                                                 driveChannel: 2, twinChannel: 3)

    public static var recordsMaker: Bool { false }

    /// What the actuators' drive signal plays (`DriveDemodulator`), from channel 3.
    /// - Throws: `FormatReadError` with the first error `validate` finds.
    public func read(_ data: Data) throws -> ImportedHaptics {
        try RenderedDriveFile.imported(data, drive: ActuatorDrive(readingWith: settings), layout: Self.layout)
    }

    /// The file against the format's rules (`RenderedDriveFile`).
    public func validate(_ data: Data, baseDirectory: URL?) -> [FormatDiagnostic] {
        RenderedDriveFile.inspect(data, drive: ActuatorDrive(readingWith: settings), layout: Self.layout).diagnostics
    }

    /// The first two channels of interleaved frames (a mono sound on both).
    static func stereo(_ frames: UnsafeBufferPointer<Float>, channels: Int, into stereo: inout [Float]) {
        stereo.removeAll(keepingCapacity: true)
        for frame in 0..<(frames.count / channels) {
            let left = frames[frame * channels]
            stereo.append(left)
            stereo.append(channels > 1 ? frames[frame * channels + 1] : left)
        }
    }

    /// Joins sound frames (as they arrive) with the drive signal rendered alongside, up to the
    /// file's frame count, and hands the interleaved PCM on.
    private struct Interleaver {
        var renderer: ActuatorDrive.Renderer
        let frames: Int
        let gain: Float
        private var written = 0
        private var scratch: [UInt8] = []
        private var block: [Float] = []

        init(renderer: ActuatorDrive.Renderer, frames: Int, gain: Float) {
            (self.renderer, self.frames, self.gain) = (renderer, frames, gain)
        }

        /// Writes as many frames as `sound` (stereo, interleaved) holds, up to the end.
        mutating func write(sound: [Float], _ emit: (UnsafeRawBufferPointer) throws -> Void) throws {
            let count = min(sound.count / 2, frames - written)
            guard count > 0 else { return }
            block.removeAll(keepingCapacity: true)
            for i in 0..<count {
                let actuator = renderer.next()
                block.append(sound[2 * i] * gain)
                block.append(sound[2 * i + 1] * gain)
                block.append(actuator)
                block.append(actuator)
            }
            written += count
            try block.withUnsafeBufferPointer { try PCMWAVWriter.emit($0, into: &scratch, emit) }
        }

        /// Writes the frames left with silent sound channels.
        mutating func finish(_ emit: (UnsafeRawBufferPointer) throws -> Void) throws {
            let silence = [Float](repeating: 0, count: 8192)
            while written < frames { try write(sound: silence, emit) }
        }
    }
}
