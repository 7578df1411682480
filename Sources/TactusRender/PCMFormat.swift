import TactusCore
import TactusPlatform

/// The actuator's drive signal alone, as a mono 16-bit WAV (`<stem>.pcm.wav`): for voice-coil
/// and LRA actuators and for engines that play haptics as audio (Meta's haptics renderer,
/// Unreal's SoundWave haptics). Rendered by `ActuatorDrive` (the rule is in its documentation
/// and the README) at `sampleRate`, for the actuator `profile` names.
/// What is lost: sharpness outside the actuator's band (it is folded into it), each sharpness
/// where a pulse plays over the body (the carrier plays their blend), and the paired audio (the
/// file is the haptics alone).
/// Read back (`read`, `validate`) by `RenderedDriveFile`: the drive demodulated into the track
/// it plays (`DriveDemodulator` says what reads back exactly and what only approximately), with
/// this format's parameters (the file does not name the profile that rendered it).
public struct PCMFormat: BinaryHapticFormat, HapticReadableFormat {
    public static let id = "pcm"
    public static let fileExtension = "pcm.wav"
    public static let summary = "The actuator's drive signal as a mono 16-bit WAV (voice coils, LRAs, engines that play haptics as audio), for a voice-coil or LRA profile."
    public static let readingSummary = RenderedDriveFile.readingSummary
    public static let rulesSummary = RenderedDriveFile.rulesSummary(layout: "mono at 4…192 kHz")
    public static let sampleRate = ParameterDescriptor.integer("sampleRate", 4_000...192_000, default: 48_000, unit: "Hz",
                help: "Sample rate of the WAV; above twice the band's highest frequency.")
    public static let parameters = [sampleRate] + ActuatorDrive.parameters

    /// Longest track rendered, seconds (a day, as Android's waveform).
    static let maxSeconds = 86_400.0

    let rate: Int
    let settings: ParameterSet

    public init(parameters: ParameterSet) {
        rate = Int(parameters.number(Self.sampleRate))
        settings = parameters
    }

    public func write(_ track: HapticTrack, context: HapticWriteContext, file ending: String,
                      bytes emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        let drive = try ActuatorDrive(settings)
        guard drive.highHz * 2 < Double(rate) else {
            throw FormatWriteError("a \(rate) Hz file cannot hold a \(drive.highHz) Hz carrier (sampleRate must exceed twice highHz)")
        }
        try track.checkFinite(below: Self.maxSeconds)
        let frames = drive.frames(for: track, sampleRate: Double(rate))
        let wav = try PCMWAVWriter(sampleRate: rate, channels: 1, frames: frames)
        try wav.header.withUnsafeBytes { try emit($0) }
        var scratch: [UInt8] = []
        try drive.render(track, sampleRate: Double(rate), frames: frames) { try PCMWAVWriter.emit($0, into: &scratch, emit) }
    }

    /// The file's rules: mono, 4…192 kHz.
    static let layout = RenderedDriveFile.Layout(channels: 1, sampleRates: 4_000...192_000, driveChannel: 0, twinChannel: nil)

    public static var recordsMaker: Bool { false }

    /// What the drive signal plays (`DriveDemodulator`), for this format's actuator profile.
    /// - Throws: `FormatReadError` with the first error `validate` finds.
    public func read(_ data: Data) throws -> ImportedHaptics {
        try RenderedDriveFile.imported(data, drive: ActuatorDrive(readingWith: settings), layout: Self.layout)
    }

    /// The file against the format's rules (`RenderedDriveFile`).
    public func validate(_ data: Data, baseDirectory: URL?) -> [FormatDiagnostic] {
        RenderedDriveFile.inspect(data, drive: ActuatorDrive(readingWith: settings), layout: Self.layout).diagnostics
    }
}
