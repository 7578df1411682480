import TactusCore
import TactusPlatform

/// Android's audio-coupled haptics: one Ogg Vorbis file (`<stem>.android.ogg`) holding the
/// sound on its first channels and the actuator's drive signal on one more, declared by the
/// Vorbis comment `ANDROID_HAPTIC=1`, which Android's Ogg extractor reads as the number of
/// haptic channels at the end of each frame (its channel mask: the sound's channels plus
/// `HAPTIC_A`). Devices with audio-coupled haptics play both in sync through `MediaPlayer`,
/// `SoundPool` or ringtones when haptic channels are not muted; others play the sound alone.
///
/// - Sound: the source's channels (its first two; a mono sound stays mono) at its own sample
///   rate, Vorbis-encoded at `quality`; a translated haptic file has one silent channel at 48 kHz.
/// - Haptic channel: the drive signal `ActuatorDrive` renders from the track at the same rate
///   (float, full scale 1), with the LRA profile unless the section says otherwise; it follows
///   the continuous intensity and pulses at every transient.
/// - The file lasts as long as the longer of the sound and the drive; at most `maxFrames`.
/// - Comments: `ANDROID_HAPTIC=1`, then the metadata one `Key=value` entry each.
/// - The stream's serial number is `serial` and its pages are renumbered after the comment
///   header is replaced, so the same track and sound give the same bytes.
///
/// What is lost: as for `pcm` (sharpness outside the band, each sharpness where a pulse plays
/// over the body), plus what Vorbis leaves out at `quality`. Read back (`read`, `validate`) by
/// `AndroidOggFile`: the haptic channel demodulated (`DriveDemodulator`) with this format's
/// parameters.
public struct AndroidOggFormat: BinaryHapticFormat, HapticReadableFormat {
    public static let id = "android-ogg"
    public static let fileExtension = "android.ogg"
    public static let summary = "Android audio-coupled haptics: Ogg Vorbis with the sound and one haptic channel (ANDROID_HAPTIC=1), the LRA's drive signal; played by MediaPlayer, SoundPool and ringtones on devices that support haptic channels."
    public static let readingSummary = "from its haptic channel (the last, ANDROID_HAPTIC) as a drive signal demodulated, as a .pcm.wav is"
    public static let rulesSummary = "Android's Ogg extractor (errors: not Ogg Vorbis or Opus, a damaged page, no ANDROID_HAPTIC comment or one other than 1 or 2, no sound channel or more than 8, a rate too low for the band; warnings: pages out of sequence, a silent haptic channel)"
    public static let profile = ParameterDescriptor.choice("profile", ActuatorDrive.Profile.self, default: .lra,
                help: "The actuator: lra by default (a phone's linear resonant actuator: 150-190 Hz, resonance 170 Hz, 20 ms pulses), voiceCoil (80-500 Hz, 12 ms pulses) or custom (lowHz, resonanceHz, highHz and pulseMs below).")
    public static let quality = ParameterDescriptor.number("quality", 0...1, default: 1,
                help: "Vorbis quality of the file (libsndfile's 0-1 scale). 1 keeps the sound's spectrum within 0.8 dB (median log-spectral distance on held-out sounds, about 250 kbit/s); 0.6 halves the size at 2.7 dB (BENCHMARKS.md).")
    public static let parameters = [profile] + ActuatorDrive.parameters.filter { $0.name != ActuatorDrive.profile.name } + [quality]

    /// Most frames a file holds (ten minutes at 48 kHz): longer than any ringtone or sound
    /// effect, and a bound on what a hostile file can make the reader decode.
    public static let maxFrames = 600 * 48_000
    /// The rate of a file made without a sound (a translated haptic file), Hz.
    static let silentRate = 48_000
    /// The Ogg serial number of every file written (any fixed value; one stream per file).
    static let serial: UInt32 = 0x5441_4354

    let settings: ParameterSet
    /// Vorbis quality, libsndfile's 0…1 (`quality`).
    let vorbisQuality: Double

    public init(parameters: ParameterSet) {
        settings = parameters
        vorbisQuality = parameters.number(Self.quality)
    }

    public func write(_ track: HapticTrack, context: HapticWriteContext, file ending: String,
                      bytes emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        let drive = try ActuatorDrive(settings)
        let rate = context.sound.map { Int($0.sampleRate) } ?? Self.silentRate
        let soundChannels = min(2, context.sound?.channels ?? 1)
        guard drive.highHz * 2 < Double(rate) else {
            throw FormatWriteError("a \(rate) Hz sound cannot carry a \(drive.highHz) Hz drive signal (its rate must exceed twice highHz)")
        }
        try track.checkFinite(below: PCMFormat.maxSeconds)
        let driveFrames = drive.frames(for: track, sampleRate: Double(rate))
        guard driveFrames <= Self.maxFrames else { throw FormatWriteError("longer than \(Self.maxFrames) frames at \(rate) Hz") }
        let channels = soundChannels + 1
        let encoded = try OggVorbis.codec().encodeVorbis(channels: channels, sampleRate: rate, quality: vorbisQuality) { push in
            var renderer = drive.renderer(for: track, sampleRate: Double(rate))
            var written = 0
            var block: [Float] = []
            func frame(_ sound: (Int) -> Float) {
                for c in 0..<soundChannels { block.append(sound(c)) }
                block.append(written < driveFrames ? renderer.next() : 0)
                written += 1
            }
            func flush() throws {
                guard written <= Self.maxFrames else { throw FormatWriteError("longer than \(Self.maxFrames) frames at \(rate) Hz") }
                try block.withUnsafeBufferPointer(push)
                block.removeAll(keepingCapacity: true)
            }
            if let sound = context.sound {
                try sound.decode { interleaved in
                    for f in 0..<(interleaved.count / sound.channels) {
                        frame { interleaved[f * sound.channels + $0] }
                    }
                    try flush()
                }
            }
            while written < driveFrames {
                for _ in 0..<min(4096, driveFrames - written) { frame { _ in 0 } }
                try flush()
            }
        }
        try Self.withHapticComment(encoded, metadata: context.metadata) { page in try page.withUnsafeBytes(emit) }
    }

    /// `encoded` (an Ogg Vorbis stream as libsndfile writes it) with its comment header replaced
    /// by one holding `ANDROID_HAPTIC=1` and `metadata`, its pages renumbered and resealed with
    /// `serial`, handed to `emit` page by page.
    /// - Throws: `FormatWriteError` when the stream is not laid out as libvorbis writes headers
    ///   (the three header packets alone on the first pages), or what `emit` throws.
    static func withHapticComment(_ encoded: [UInt8], metadata: [MetadataEntry], _ emit: ([UInt8]) throws -> Void) throws {
        let pages: [OggPages.Page]
        let headers: (packets: [[UInt8]], lastPage: Int)
        do {
            pages = try OggPages.pages(of: encoded)
            headers = try OggPages.firstPackets(3, of: pages, in: encoded)
        } catch { throw FormatWriteError("libsndfile's Vorbis stream does not read back: \(error)") }
        let ends = pages[0...headers.lastPage].reduce(0) { $0 + $1.lacing.filter { $0 < 255 }.count }
        guard ends == 3, let vendor = try? OggAudioHeaders(identification: headers.packets[0], comment: headers.packets[1]).vendor else {
            throw FormatWriteError("libsndfile's Vorbis headers share a page with audio")
        }
        let comments = ["ANDROID_HAPTIC=1"] + metadata.map { "\($0.key.filter { $0 != "=" })=\($0.value)" }
        var sequence = UInt32(try OggPages.paginate([headers.packets[0]], serial: serial, sequence: 0, flags: 2, granule: 0, emit))
        sequence += UInt32(try OggPages.paginate([OggAudioHeaders.vorbisComment(vendor: vendor, comments: comments), headers.packets[2]],
                                                 serial: serial, sequence: sequence, flags: 0, granule: 0, emit))
        for page in pages[(headers.lastPage + 1)...] {
            try emit(OggPages.restamped(encoded[page.start..<(page.start + page.count)], serial: serial, sequence: sequence))
            sequence += 1
        }
    }

    /// What the haptic channel plays (`AndroidOggFile`).
    /// - Throws: `FormatReadError` with the first error `validate` finds.
    public func read(_ data: Data) throws -> ImportedHaptics {
        try AndroidOggFile.imported(Array(data), drive: ActuatorDrive(readingWith: settings))
    }

    /// The file against Android's rules for haptic Ogg files (`AndroidOggFile`).
    public func validate(_ data: Data, baseDirectory: URL?) -> [FormatDiagnostic] {
        AndroidOggFile.inspect(Array(data), drive: ActuatorDrive(readingWith: settings)).diagnostics
    }
}
