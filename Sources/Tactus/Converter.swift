import Foundation
import TactusAHAP
import TactusAnalysis
import TactusAudio
import TactusMapping
import TactusCore

/// What one conversion produced.
public struct ConversionResult {
    public var source: URL
    public var ahap: URL
    /// The audio the AHAP's AudioCustom event plays (nil when pairing is off).
    public var audio: URL?
    public var format: AudioFormat
    public var track: HapticTrack
    public var ahapBytes: Int
}

/// Decodes, analyses, maps and writes one file at a time with one resolved preset.
///
/// One streaming pass: each decoded block is mixed down for analysis and, when the source
/// must be transcoded for Apple platforms, written to the paired WAV at the same time, so
/// the AHAP's audio holds exactly the samples that were analysed.
public struct Converter {
    public let preset: ResolvedPreset
    /// Recorded in every AHAP's metadata; hashed once here rather than once per file.
    private let provenance: PresetProvenance
    /// Frames per decoded block: big enough to amortise calls, small enough to stay in cache.
    static let blockFrames = 4096

    public init(preset: ResolvedPreset) {
        self.preset = preset
        provenance = PresetProvenance(preset: preset)
    }

    /// Analyses a file without writing anything (for `tactus analyze`).
    public func analyze(_ input: URL) throws -> (AudioFormat, AnalysisResult, HapticTrack) {
        do {
            let reader = try AudioFileReader(url: input)
            let analysis = try decode(reader, copyingTo: nil)
            return (reader.format, analysis, preset.mapper().map(analysis))
        } catch {
            throw FileError(file: input, error)
        }
    }

    /// Converts `input` into `<outputDirectory>/<stem>.ahap` plus its paired audio.
    ///
    /// - Parameters:
    ///   - outputDirectory: where to write; nil writes beside the input.
    ///   - stem: base name of the outputs (default: the input's name without extension);
    ///     `OutputNaming` gives same-stem sources distinct stems.
    ///   - protectedPaths: files that must never be replaced (every input of the run).
    public func convert(_ input: URL, to outputDirectory: URL? = nil, stem: String? = nil,
                        protectedPaths: Set<String> = []) throws -> ConversionResult {
        do {
            return try run(input, outputDirectory ?? input.deletingLastPathComponent(),
                           stem ?? input.deletingPathExtension().lastPathComponent, protectedPaths)
        } catch {
            throw FileError(file: input, error)
        }
    }

    private func run(_ input: URL, _ outputDirectory: URL, _ stem: String,
                     _ protectedPaths: Set<String>) throws -> ConversionResult {
        let reader = try AudioFileReader(url: input)
        try Self.prepare(outputDirectory)
        // Paths compared as standardized strings, each standardized once: Foundation's
        // `standardizedFileURL` was a tenth of converting a short clip when called per check.
        let inputPath = input.standardizedFileURL.path
        let folder = outputDirectory.standardizedFileURL.path
        let besideSource = folder == FilePaths.parent(of: inputPath)
        let ahapURL = outputDirectory.appendingPathComponent(stem + ".ahap")
        let pairing = AudioPairing.choose(for: reader, into: outputDirectory, besideSource: besideSource, stem: stem,
                                          enabled: preset.parameters(OutputSettings.id).flag("pairAudio"))
        for target in [ahapURL, pairing.destination].compactMap({ $0 }) {
            let targetPath = folder + "/" + target.lastPathComponent
            if protectedPaths.contains(targetPath) || targetPath == inputPath {
                throw FileError(file: input.path, reason: "would overwrite the input \(target.lastPathComponent)",
                                      hint: "choose another output folder with -o")
            }
        }

        let audioOutput = pairing.destination.map(StagedFile.init)
        defer { audioOutput?.discard() }
        var writer: WAVWriter?
        if case .transcode(_, let sampleFormat) = pairing, let audioOutput {
            writer = try WAVWriter(url: audioOutput.temporary, sampleRate: Int(reader.format.sampleRate),
                                   channels: reader.format.channels, format: sampleFormat)
        }
        let analysis = try decode(reader, copyingTo: writer)
        try writer?.close()
        if case .copy = pairing, let audioOutput {
            try FileCopy.stream(from: input, to: audioOutput.temporary)
        }

        let track = preset.mapper().map(analysis)
        let document = try AHAPWriter(options: writerOptions(audioName: pairing.audioName, source: input)).document(for: track)
        let ahapOutput = StagedFile(ahapURL)
        defer { ahapOutput.discard() }
        let ahapBytes = try ahapOutput.write { try AHAPEncoder().write(document, to: $0) }

        // Audio first, then the AHAP: an AHAP on disk never names audio that is not there.
        if let audioOutput {
            try Self.refuseToReplaceForeignAudio(audioOutput, besideSource: besideSource)
            try audioOutput.commit()
        }
        try ahapOutput.commit()
        return ConversionResult(source: input, ahap: ahapURL, audio: pairing.playedURL(in: outputDirectory),
                                format: reader.format, track: track, ahapBytes: ahapBytes)
    }

    /// Streams the file through the analysis (and the paired-audio writer, if any).
    private func decode(_ reader: AudioFileReader, copyingTo writer: WAVWriter?) throws -> AnalysisResult {
        let channels = reader.format.channels
        let session = AnalysisSession(sampleRate: reader.format.sampleRate,
                                      configuration: preset.analysisConfiguration())
        if writer == nil && reader.isSixteenBit {
            try Self.pump(Int16.self, channels: channels, into: session, read: reader.read(into:),
                          mix: { Mixdown.mono($0, frames: $1, channels: channels, into: $2) }, write: { _ in })
        } else {
            try Self.pump(Float.self, channels: channels, into: session, read: reader.read(into:),
                          mix: { Mixdown.mono($0, frames: $1, channels: channels, into: $2) },
                          write: { try writer?.write($0) })
        }
        guard session.sampleCount > 0 else {
            throw AudioError(.empty, "holds no decodable audio frames")
        }
        return session.finish()
    }

    /// Reads blocks of interleaved `Sample`s until the end, hands each to `write` and its mono
    /// mix to `session`. Files that pair unchanged and hold 16-bit PCM are read as integers,
    /// which libsndfile only copies; the rest as floats, which the paired WAV writer takes.
    private static func pump<Sample: Numeric>(
        _: Sample.Type, channels: Int, into session: AnalysisSession,
        read: (UnsafeMutableBufferPointer<Sample>) throws -> Int,
        mix: (UnsafeBufferPointer<Sample>, Int, UnsafeMutableBufferPointer<Float>) -> Void,
        write: (UnsafeBufferPointer<Sample>) throws -> Void
    ) throws {
        var interleaved = [Sample](repeating: 0, count: blockFrames * channels)
        var mono = [Float](repeating: 0, count: blockFrames)
        while true {
            let frames = try interleaved.withUnsafeMutableBufferPointer { try read($0) }
            if frames == 0 { break }
            try interleaved.withUnsafeBufferPointer { block in
                try write(UnsafeBufferPointer(rebasing: block[0..<(frames * channels)]))
                mono.withUnsafeMutableBufferPointer { mix(block, frames, $0) }
            }
            mono.withUnsafeBufferPointer { session.push(UnsafeBufferPointer(rebasing: $0[0..<frames])) }
        }
    }

    private func writerOptions(audioName: String?, source: URL) -> AHAPWriter.Options {
        let output = preset.parameters(OutputSettings.id)
        return AHAPWriter.Options(
            audioFileName: audioName,
            audioVolume: output.number("audioVolume"),
            useVolumeEnvelope: output.flag("useVolumeEnvelope"),
            metadata: provenance.metadata(source: source.lastPathComponent))
    }

    /// Makes sure the outputs can be written before any work is done, with a reason that
    /// names the folder (the message's file is the input).
    private static func prepare(_ directory: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw FileError(file: directory.path, reason: "output folder \(directory.path) is a file",
                                      hint: "choose a folder with -o")
            }
        } else {
            do { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) } catch {
                throw FileError(file: directory.path, reason: "cannot create output folder \(directory.path): "
                                      + FileErrorReason.describe(error), hint: "choose another folder with -o")
            }
        }
        guard access(directory.path, W_OK) == 0 else {
            throw FileError(file: directory.path, reason: "cannot write into output folder \(directory.path): "
                                  + String(cString: strerror(errno)), hint: "choose another folder with -o")
        }
    }

    /// Beside the sources, an existing audio file with the paired name may be the user's own
    /// sound (e.g. `boom.wav` next to `boom.ogg`): replace it only when it already holds
    /// exactly what we would write (a previous run's output).
    private static func refuseToReplaceForeignAudio(_ output: StagedFile, besideSource: Bool) throws {
        guard besideSource, FileManager.default.fileExists(atPath: output.destination.path) else { return }
        if !FileManager.default.contentsEqual(atPath: output.destination.path, andPath: output.temporary.path) {
            throw FileError(file: output.destination.path,
                                  reason: "\(output.destination.lastPathComponent) already exists beside it and is not "
                                      + "Tactus's paired audio for it; not replacing it",
                                  hint: "write into another folder with -o")
        }
    }
}

/// How the AHAP's AudioCustom event gets audio that Apple platforms play, sample for sample.
enum AudioPairing {
    /// Pairing is off: no AudioCustom event.
    case none
    /// The source itself sits beside the AHAP and plays as it is.
    case reference(name: String)
    /// WAV/AIFF/CAF source copied unchanged next to the AHAP.
    case copy(URL)
    /// Anything else (FLAC, OGG, Opus, MP3, …) decoded into a WAV with the same rate,
    /// channels and frames: Apple devices do not reliably play OGG/Opus, and MP3 decoders
    /// differ in priming delay, which would shift sound against touch.
    case transcode(URL, WAVWriter.SampleFormat)

    static func choose(for reader: AudioFileReader, into directory: URL, besideSource: Bool, stem: String,
                       enabled: Bool) -> AudioPairing {
        guard enabled else { return .none }
        let source = reader.url
        if reader.isApplePlayable {
            if besideSource { return .reference(name: source.lastPathComponent) }
            return .copy(directory.appendingPathComponent(source.lastPathComponent))
        }
        return .transcode(directory.appendingPathComponent(stem + ".wav"), .preserving(reader.format.encoding))
    }

    /// The file this pairing writes, if it writes one.
    var destination: URL? {
        switch self {
        case .none, .reference: return nil
        case .copy(let url), .transcode(let url, _): return url
        }
    }

    /// Name written into `EventWaveformPath`, relative to the AHAP.
    var audioName: String? {
        switch self {
        case .none: return nil
        case .reference(let name): return name
        case .copy(let url), .transcode(let url, _): return url.lastPathComponent
        }
    }

    func playedURL(in directory: URL) -> URL? {
        audioName.map { directory.appendingPathComponent($0) }
    }
}
