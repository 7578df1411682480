import ArgumentParser
import Tactus
import TactusAudio
import TactusCommandLine
import TactusCore
import TactusFiles
import TactusLive
import TactusPlatform
import TactusPresets
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Live: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Feed audio through the live library (TactusLive) and print its haptic events as they become known, one JSON object per line.",
        discussion: """
        Reads FILE (any format `convert` reads), or with `-` raw audio on standard input: 32-bit float samples, little-endian, channels interleaved, at --rate Hz with --channels channels (no header). The audio is pushed in blocks of --block frames, as fast as it goes, or with --realtime paced at the audio's own rate (a block is pushed when the clock reaches its end, as a live source delivers it), and each event is printed when its block has been pushed:

          {"kind":"transient","time":0.512345,"intensity":0.8123,
           "sharpness":0.4410,"emittedAt":0.582993}          (one line each)

        kind: transient (a tap at time) or continuous (the body's intensity and sharpness from time on, once per analysis hop while it plays; intensity 0 when it stops). time and emittedAt are seconds of audio from the first sample; emittedAt is the stream position from which the event is known, so emittedAt − time is its latency (it does not depend on --block). A transient waits for the peak picker's look-ahead (about 80 ms with the shipped presets); --set peaks.liveDecision=rise releases a clear attack on its rising frame instead (10–20 ms), where a few transients then differ from convert's. The preset, --set and feel are those of `convert`; a preset whose analysis looks further ahead than --max-lookahead-ms is refused.

        --reference prints instead what `tactus convert` plays for FILE, in the same lines (its transients, and its body every hop while a region plays; emittedAt is the file's end, as offline nothing is known before it), so the two can be compared.

        Examples:
          tactus live boom.wav
          tactus live boom.wav --block 256 --realtime | my-game-bridge
          ffmpeg -i voice.ogg -f f32le -ac 2 -ar 48000 - |
            tactus live - --rate 48000 --channels 2
          tactus live boom.wav --reference > offline.jsonl
        """)

    @Argument(help: ArgumentHelp("Audio file, or - for raw 32-bit float little-endian interleaved samples on standard input.", valueName: "file|-"))
    var input: String

    @OptionGroup var presetOptions: PresetOptions

    @Option(help: ArgumentHelp("Frames per pushed block (1 or more).", valueName: "frames"))
    var block = 512

    @Flag(help: "Push each block when the clock reaches it (real time) instead of as fast as possible.")
    var realtime = false

    @Option(help: ArgumentHelp("Sample rate of standard input's raw audio, Hz.", valueName: "hz"))
    var rate: Double?

    @Option(help: ArgumentHelp("Channels of standard input's raw audio.", valueName: "count"))
    var channels: Int?

    @Option(name: .customLong("max-lookahead-ms"), help: ArgumentHelp(
        "Refuse a preset whose onsets wait longer than this for the audio after them, ms.", valueName: "ms"))
    var maxLookaheadMs = LiveHaptics.defaultMaxLookaheadMs

    @Flag(help: "Print what `tactus convert` plays for FILE instead, in the same lines.")
    var reference = false

    func validate() throws {
        guard block >= 1 else { throw ValidationError("--block must be at least 1") }
        if input == "-" {
            guard let rate, rate > 0, let channels, channels >= 1 else {
                throw ValidationError("standard input (-) needs --rate and --channels: it is read as raw 32-bit float samples")
            }
            guard !reference else { throw ValidationError("--reference reads a file, not standard input") }
        } else if rate != nil || channels != nil {
            throw ValidationError("--rate and --channels describe standard input's raw audio (-); a file states its own")
        }
    }

    func run() throws {
        let preset = try presetOptions.resolve()
        if reference {
            try printReference(preset)
            return
        }
        let source: BlockSource
        do {
            source = input == "-" ? RawInput(rate: rate!, channels: channels!) : try FileInput(URL(fileURLWithPath: input))
        } catch {
            report("\(input): \(error)")
            throw ExitCode(1)
        }
        let live: LiveHaptics
        do {
            live = try LiveHaptics(preset: preset, sampleRate: source.rate, channels: source.channels, maxLookaheadMs: maxLookaheadMs)
        } catch {
            report("\(input): \(error)")
            throw ExitCode(64)
        }
        var buffer = [Float](repeating: 0, count: block * source.channels)
        let clock = RealtimeClock()
        var pushed = 0
        while true {
            let frames: Int
            do {
                frames = try buffer.withUnsafeMutableBufferPointer { try source.read(into: $0) }
            } catch {
                report("\(input): \(error)")
                throw ExitCode(1)
            }
            guard frames > 0 else { break }
            if realtime { clock.wait(until: Double(pushed + frames) / source.rate) }
            buffer.withUnsafeBufferPointer {
                live.push(interleaved: UnsafeBufferPointer(rebasing: $0[0..<(frames * source.channels)]), Self.print)
            }
            pushed += frames
            if realtime { fflush(stdout) }
        }
        live.finish(Self.print)
    }

    /// `tactus convert`'s track for the file, as event lines.
    private func printReference(_ preset: ResolvedPreset) throws {
        let hop: Double, track: HapticTrack
        do {
            let (_, analysis, offline) = try Converter(preset: preset, log: CommittedFiles()).analyze(URL(fileURLWithPath: input))
            (hop, track) = (analysis.hopSeconds, offline)
        } catch {
            report(error)
            throw ExitCode(1)
        }
        let end: Double = track.duration
        var events = track.transients.map {
            LiveEvent(kind: .transient, time: $0.time, intensity: $0.intensity, sharpness: $0.sharpness, emittedAt: end)
        }
        let playback = HapticPlayback(track)
        for k in 0..<Int((end / hop).rounded(.up)) {
            let time = Double(k) * hop
            guard let sharpness = playback.continuousSharpness(at: time) else { continue }
            events.append(LiveEvent(kind: .continuous, time: time, intensity: playback.continuousIntensity(at: time),
                                    sharpness: sharpness, emittedAt: end))
        }
        for event in events.sorted(by: { $0.time < $1.time }) { Self.print(event) }
    }

    static func print(_ event: LiveEvent) {
        Swift.print("{\"kind\":\"\(event.kind.rawValue)\","
                    + String(printf: "\"time\":%.6f,\"intensity\":%.4f,\"sharpness\":%.4f,\"emittedAt\":%.6f}",
                             event.time, event.intensity, event.sharpness, event.emittedAt))
    }
}

/// Interleaved float frames from a file or standard input.
private protocol BlockSource {
    var rate: Double { get }
    var channels: Int { get }
    /// Fills `buffer` with whole frames; returns how many (0 at the end).
    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int
}

/// A file, decoded by libsndfile (`AudioFileReader`).
private struct FileInput: BlockSource {
    let reader: AudioFileReader
    var rate: Double { reader.format.sampleRate }
    var channels: Int { reader.format.channels }

    init(_ url: URL) throws { reader = try AudioFileReader(url: url) }

    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int { try reader.read(into: buffer) }
}

/// Raw 32-bit float little-endian interleaved samples on standard input; a partial frame at
/// the end is dropped.
private final class RawInput: BlockSource {
    let rate: Double
    let channels: Int

    init(rate: Double, channels: Int) {
        self.rate = rate
        self.channels = channels
    }

    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let bytes = UnsafeMutableRawBufferPointer(buffer)
        var filled = 0
        while filled < bytes.count {
            let n = readStandardInput(bytes.baseAddress! + filled, bytes.count - filled)
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw AudioError(.unreadable, "standard input cannot be read (errno \(errno))") }
            if n == 0 { break }
            filled += n
        }
        let frames = filled / (4 * channels)
        for i in 0..<(frames * channels) { buffer[i] = Float(bitPattern: UInt32(littleEndian: buffer[i].bitPattern)) }
        return frames
    }
}

/// read(2) on standard input (the name `read` is `BlockSource`'s inside the types above).
private func readStandardInput(_ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(0, buffer, count)
}

/// Paces `--realtime`: the monotonic clock from the start of the stream.
private final class RealtimeClock {
    private let start = RealtimeClock.now()

    /// Sleeps until `seconds` after the clock was made.
    func wait(until seconds: Double) {
        let remaining = start + seconds - Self.now()
        if remaining > 0 { usleep(useconds_t(remaining * 1_000_000)) }
    }

    private static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
