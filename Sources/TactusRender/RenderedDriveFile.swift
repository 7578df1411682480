import TactusCore
import TactusFFT
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TactusPlatform

/// A rendered drive-signal WAV (`<stem>.pcm.wav`, `<stem>.dualsense.wav`) read from untrusted
/// bytes against its format's rules, every problem found (not only the first), and what its
/// drive channel plays as a track (`DriveDemodulator`).
///
/// Errors (the file does not read): not a 16-bit PCM RIFF/WAVE file, another channel count or
/// sample rate than the format's, a rate at or below twice the band's top, longer than a day.
/// Warnings (it reads, but was not rendered by these rules): a sample at −32768 (beyond the
/// writer's full scale, ±32767), four or more samples in a row at full scale (clipped: the
/// renderer's knee reaches full scale only at a crest), a mean beyond ±0.01 of full scale (DC:
/// a carrier has none), energy above the band's edge (`ActuatorDrive.bandEdgeHz`) over
/// `bandLimitDb` against the energy below it, a data chunk ending in a partial frame, and, on a
/// DualSense file, actuator channels that differ (only channel 3 is read).
struct RenderedDriveFile {
    /// What a format's files hold.
    struct Layout {
        /// Channels the file must have.
        let channels: Int
        /// Sample rates the file may have, Hz.
        let sampleRates: ClosedRange<Int>
        /// The channel (from 0) the drive signal is read from, and one that must equal it.
        let driveChannel: Int, twinChannel: Int?
    }

    /// Energy above the band's edge against the energy below it, dB, over which a file is warned.
    static let bandLimitDb = -30.0
    /// Length of the analysis frames of the band check (Hann-windowed, half overlapping).
    static let bandFrame = 1024

    /// How a rendered file is read as it plays (`HapticReadableFormat.readingSummary`).
    static let readingSummary = "as its drive signal demodulated (envelope through the renderer's amplitude law, carrier frequency through its band, pulses over the body; approximate: README, \"Rendered drive signals\")"

    /// A rendered format's rules (`HapticReadableFormat.rulesSummary`), for a layout in words.
    /// - Parameters:
    ///   - layout: the channels and rates the format is written with, e.g. "mono at 4…192 kHz".
    ///   - twin: whether the format has a second actuator channel that must equal the first.
    /// - Returns: one clause naming the errors and warnings above.
    static func rulesSummary(layout: String, twin: Bool = false) -> String {
        "the rendered drive signal's rules (errors: not 16-bit PCM, not \(layout), a rate too low for the band; warnings: samples beyond or clipped at full scale, DC, energy above the actuator's band over \(Int(bandLimitDb)) dB"
            + (twin ? ", actuator channels that differ" : "") + "; README, \"Rendered drive signals\")"
    }

    /// What the file plays, or the first error `inspect` finds.
    /// - Throws: `FormatReadError` with that error's place and message.
    static func imported(_ data: Data, drive: ActuatorDrive, layout: Layout) throws -> ImportedHaptics {
        let (track, diagnostics) = inspect(data, drive: drive, layout: layout)
        guard let track else {
            let error = diagnostics.first { $0.severity == .error }
            throw FormatReadError(location: error?.location ?? "", message: error?.message ?? "cannot be read")
        }
        return ImportedHaptics(track: track)
    }

    /// The file's findings, and what it plays when none is an error.
    static func inspect(_ data: Data, drive: ActuatorDrive, layout: Layout) -> (track: HapticTrack?, diagnostics: [FormatDiagnostic]) {
        var findings = FormatFindings()
        let wav: PCMWAVReader
        do { wav = try PCMWAVReader(data) } catch let error as FormatReadError {
            findings.error("notPCMWAV", error.location, error.message)
            return (nil, findings.all)
        } catch {
            findings.error("notPCMWAV", "", "\(error)")
            return (nil, findings.all)
        }
        if wav.channels != layout.channels {
            findings.error("wrongChannels", "fmt", "\(wav.channels) channels; this format has \(layout.channels)")
        }
        if !layout.sampleRates.contains(wav.sampleRate) {
            findings.error("wrongSampleRate", "fmt", "\(wav.sampleRate) Hz; this format is written at "
                           + (layout.sampleRates.count == 1 ? "\(layout.sampleRates.lowerBound) Hz" : "\(layout.sampleRates.lowerBound)…\(layout.sampleRates.upperBound) Hz"))
        } else if Double(wav.sampleRate) <= 2 * drive.highHz {
            findings.error("rateBelowBand", "fmt", "a \(wav.sampleRate) Hz file cannot hold the band's \(drive.highHz) Hz carrier")
        }
        if Double(wav.frames) / Double(wav.sampleRate) > PCMFormat.maxSeconds {
            findings.error("tooLong", "data", "longer than \(Int(PCMFormat.maxSeconds)) s")
        }
        guard !findings.hasErrors else { return (nil, findings.all) }
        if wav.partialFrameBytes > 0 {
            findings.warning("partialFrame", "data", "ends in \(wav.partialFrameBytes) bytes of a partial frame (ignored)")
        }
        let channel = layout.driveChannel, rate = Double(wav.sampleRate)
        checkLevels(wav, channel: channel, into: &findings)
        if let twin = layout.twinChannel,
           let frame = (0..<wav.frames).first(where: { wav.integer($0, channel: channel) != wav.integer($0, channel: twin) }) {
            findings.warning("actuatorsDiffer", "frame \(frame)",
                             "channel \(twin + 1) differs from channel \(channel + 1) (only channel \(channel + 1) is read)")
        }
        let above = energyAboveBand(wav, channel: channel, edgeHz: drive.bandEdgeHz)
        if above > Self.bandLimitDb {
            findings.warning("aboveBand", "data", "energy above \(Int(drive.bandEdgeHz.rounded())) Hz at \(Int(above.rounded())) dB of the energy below it (over \(Int(Self.bandLimitDb)) dB: not a drive signal for this band)")
        }
        let track = DriveDemodulator(drive: drive).track(count: wav.frames, sampleRate: rate) { wav.sample($0, channel: channel) }
        return (track, findings.all)
    }

    /// Full scale, clipping and DC of one channel.
    private static func checkLevels(_ wav: PCMWAVReader, channel: Int, into findings: inout FormatFindings) {
        var sum = 0.0, run = 0
        var beyond: Int?, clipped: Int?
        for frame in 0..<wav.frames {
            let x = wav.integer(frame, channel: channel)
            sum += Double(x)
            if x == Int16.min, beyond == nil { beyond = frame }
            run = abs(Int(x)) >= 32767 ? run + 1 : 0
            if run == 4, clipped == nil { clipped = frame - 3 }
        }
        if let beyond {
            findings.warning("beyondFullScale", "frame \(beyond)", "a sample at −32768, beyond full scale (±32767)")
        }
        if let clipped {
            findings.warning("clipped", "frame \(clipped)", "four or more samples in a row at full scale (clipped)")
        }
        let mean = wav.frames > 0 ? sum / Double(wav.frames) / 32767 : 0
        if abs(mean) > 0.01 {
            findings.warning("dcOffset", "data", "a mean of \(Int((mean * 1000).rounded())) / 1000 of full scale (DC: a carrier has none)")
        }
    }

    /// Energy of one channel above `edgeHz` against the energy below it, dB (Welch: Hann
    /// frames of `bandFrame` samples, half overlapping, through `SwiftRealFFT`);
    /// −∞ for a silent or too short channel.
    static func energyAboveBand(_ wav: PCMWAVReader, channel: Int, edgeHz: Double) -> Double {
        let n = bandFrame
        let window = (0..<n).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n)) }
        let edgeBin = Int((edgeHz * Double(n) / Double(wav.sampleRate)).rounded(.up))
        var above = 0.0, below = 0.0
        let fft = SwiftRealFFT(size: n)
        var start = 0
        while start + n <= wav.frames {
            for i in 0..<n { fft.input[i] = Float(Double(wav.sample(start + i, channel: channel)) * window[i]) }
            fft.execute()
            for bin in 1...(n / 2) {
                let (re, im) = (Double(fft.spectrum[2 * bin]), Double(fft.spectrum[2 * bin + 1]))
                if bin >= edgeBin { above += re * re + im * im } else { below += re * re + im * im }
            }
            start += n / 2
        }
        guard above > 0 else { return -.infinity }
        return below > 0 ? 10 * log10(above / below) : .infinity
    }
}
