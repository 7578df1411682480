import TactusAHAP
import TactusAnalysis
import TactusAudio
import TactusCore
import TactusFiles
import TactusMapping
import TactusPresets
import TactusSpectrum
import TactusPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One file a conversion wrote in one haptic format.
public struct FormatOutput: Equatable {
    /// The format's id (`AHAPFormat.id`, …).
    public var formatID: String
    /// The file written.
    public var url: URL
    /// Size of the file in bytes.
    public var bytes: Int
}

/// What one conversion produced.
public struct ConversionResult {
    /// The input converted.
    public var source: URL
    /// One file per selected format, in the order the formats were given.
    public var outputs: [FormatOutput]
    /// The audio the haptics play with (nil when pairing is off).
    public var audio: URL?
    /// The source's audio format; nil for a translated haptic file.
    public var audioFormat: AudioFormat?
    /// The track every format was written from (values 0…1, times in seconds).
    public var track: HapticTrack
    /// What a translation could not carry over or found doubtful in the source (empty for
    /// audio conversions).
    public var warnings: [FormatDiagnostic] = []

    /// The file written in the format with this id, if that format was selected.
    /// - Parameter formatID: a format id, e.g. `ahap`.
    /// - Returns: the file's URL, or nil.
    public func output(_ formatID: String) -> URL? {
        outputs.first { $0.formatID == formatID }?.url
    }
}

/// Decodes, analyses, maps and writes one file at a time with one resolved preset, in every
/// selected format from the one analysis; haptic files in a readable format (`.ahap`,
/// `.haptic`) are translated instead: read into the format-free track and written again.
///
/// One streaming pass: each decoded block is mixed down for analysis and, when the source
/// must be transcoded for Apple platforms, written to the paired WAV at the same time, so
/// the haptics' audio holds exactly the samples that were analysed.
public struct Converter {
    /// The preset every conversion runs with.
    public let preset: ResolvedPreset
    /// The formats written for every input, in this order (output names `<stem>.<extension>`),
    /// each with the preset's parameters for it (`format.<id>`; `HapticFormats.configured`).
    public let formats: [any HapticFormat]
    /// Where every committed output is recorded, to be synced to disk by the caller.
    public let log: CommittedFiles
    /// Recorded in every output's metadata; hashed once per converter.
    private let provenance: PresetProvenance
    /// Frames per decoded block: big enough to amortise calls, small enough to stay in cache.
    static let blockFrames = 4096

    /// - Parameters:
    ///   - preset: the resolved preset.
    ///   - formats: the formats to write, at least one; each is remade with the preset's `format.<id>` values.
    ///   - log: records every committed output; the caller syncs it.
    public init(preset: ResolvedPreset, formats: [any HapticFormat] = [AHAPFormat()], log: CommittedFiles) {
        precondition(!formats.isEmpty, "a conversion writes at least one format")
        self.preset = preset
        self.formats = formats.map { HapticFormats.configured($0, for: preset) }
        self.log = log
        provenance = PresetProvenance(preset: preset)
    }

    /// Analyses a file without writing anything (for `tactus analyze`).
    /// - Parameter input: an audio file, opened read-only.
    /// - Returns: its header, its analysis and the track the preset maps it to.
    /// - Throws: `FileError` naming `input`, with the reason and a hint.
    public func analyze(_ input: URL) throws -> (AudioFormat, AnalysisResult, HapticTrack) {
        do {
            let reader = try AudioFileReader(url: input)
            let analysis = try analyse(reader, copyingTo: nil)
            return (reader.format, analysis, try preset.mapper().map(analysis))
        } catch {
            throw FileError(file: input, error)
        }
    }

    /// Converts `input` into `<outputDirectory>/<stem>.<extension>` for every format, plus its
    /// paired audio. An input in a readable haptic format (`HapticFormats.reader(for:)`) is
    /// translated: what it plays is read and written in every format, its paired audio (if it
    /// names one that exists) referenced in place or copied beside the outputs.
    ///
    /// - Parameters:
    ///   - input: the audio or haptic file, opened read-only.
    ///   - outputDirectory: where to write; nil writes beside the input.
    ///   - stem: base name of the outputs (default: the input's name without extension);
    ///     `OutputNaming` gives same-stem sources distinct stems.
    ///   - protectedPaths: files that must never be replaced (every input of the run).
    /// - Throws: `FileError` naming `input`, with the reason and a hint.
    /// - Returns: the files written, the paired audio and the track.
    public func convert(_ input: URL, to outputDirectory: URL? = nil, stem: String? = nil,
                        protectedPaths: Set<String> = []) throws -> ConversionResult {

        do {
            let directory = outputDirectory ?? input.deletingLastPathComponent()
            let stem = stem ?? OutputNaming.stem(of: input)
            if HapticFormats.reader(for: input) != nil {
                return try translate(input, directory, stem, protectedPaths)
            }
            return try run(input, directory, stem, protectedPaths)
        } catch {
            throw FileError(file: input, error)
        }
    }

    private func run(_ input: URL, _ outputDirectory: URL, _ stem: String,
                     _ protectedPaths: Set<String>) throws -> ConversionResult {
        let reader = try AudioFileReader(url: input)
        try OutputFolder.prepare(outputDirectory)
        // Paths compared as standardized strings, each standardized once (Foundation's
        // `standardizedFileURL` is slow on Linux).
        let inputPath = input.standardizedFileURL.path
        let folder = outputDirectory.standardizedFileURL.path
        let besideSource = folder == FilePaths.parent(of: inputPath)
        let hapticURLs = outputURLs(in: outputDirectory, stem: stem)
        let output = preset.parameters(OutputSettings.id)
        let pairing = AudioPairing.choose(for: reader, into: outputDirectory, besideSource: besideSource, stem: stem,
                                          enabled: output.flag(OutputSettings.pairAudio) && pairsAudio)
        try Self.refuseToOverwriteInputs(hapticURLs + [pairing.destination].compactMap { $0 }, in: folder, input: input,
                                         inputPath: inputPath, protectedPaths: protectedPaths)
        try refuseToReplaceForeignHaptics(hapticURLs, input: input)

        let audioOutput = pairing.destination.map(StagedFile.init)
        defer { audioOutput?.discard() }
        var writer: WAVWriter?
        if case .transcode(_, let sampleFormat) = pairing, let audioOutput {
            writer = try WAVWriter(url: audioOutput.temporary, sampleRate: Int(reader.format.sampleRate),
                                   channels: reader.format.channels, format: sampleFormat)
        }
        var analysis = try analyse(reader, copyingTo: writer)
        try writer?.close()
        if case .copy = pairing, let audioOutput {
            try FileCopy.stream(from: input, to: audioOutput.temporary)
        }

        // Only what the mapper reads is kept through mapping and writing: the onset novelty
        // and thresholds of an hour of audio are megabytes of the peak memory.
        analysis.features = analysis.features.filter { HapticMapper.inputs.contains($0.key) }
        let track = try preset.mapper().map(analysis)
        let context = HapticWriteContext(
            pairedAudio: pairing.audioName.map {
                PairedAudio(fileName: $0, volume: output.number(OutputSettings.audioVolume), useVolumeEnvelope: output.flag(OutputSettings.useVolumeEnvelope))
            },
            metadata: provenance.metadata(source: input.lastPathComponent),
            sound: DecodedSound(url: input, format: reader.format))
        let outputs = try write(track, context: context, to: hapticURLs) {
            // Audio first, then the haptics: a haptic file on disk never names audio that is not there.
            if let audioOutput {
                try Self.refuseToReplaceForeignAudio(audioOutput, besideSource: besideSource)
                try audioOutput.commit(recordingIn: log)
            }
        }
        return ConversionResult(source: input, outputs: outputs, audio: pairing.playedURL(in: outputDirectory),
                                audioFormat: reader.format, track: track)
    }

    /// Reads a haptic file and writes what it plays in every selected format.
    private func translate(_ input: URL, _ outputDirectory: URL, _ stem: String,
                           _ protectedPaths: Set<String>) throws -> ConversionResult {
        let imported = try HapticFormats.read(input)
        try OutputFolder.prepare(outputDirectory)
        let inputPath = input.standardizedFileURL.path
        let folder = outputDirectory.standardizedFileURL.path
        let hapticURLs = outputURLs(in: outputDirectory, stem: stem)
        try Self.refuseToOverwriteInputs(hapticURLs, in: folder, input: input, inputPath: inputPath,
                                         protectedPaths: protectedPaths)
        try refuseToReplaceForeignHaptics(hapticURLs, input: input)
        var warnings = imported.warnings
        if imported.track.playsNothing {
            warnings.append(FormatDiagnostic(severity: .warning, kind: "playsNothing", location: "",
                                             message: "plays nothing; the outputs play nothing too"))
        }
        func dropSound(_ reason: String) {
            warnings.append(FormatDiagnostic(severity: .warning, kind: "audioNotCarried", location: "",
                                             message: "its sound \(reason); the outputs play haptics only"))
        }
        // The paired sound: referenced where it is when the outputs sit beside the input,
        // else copied beside them (never replacing a different file of that name). The name
        // comes from the file: only a plain path below the input's folder is followed.
        var pairedAudio = pairsAudio ? imported.pairedAudio : nil
        if let audio = pairedAudio, !FilePaths.isPlainRelative(audio.fileName) {
            dropSound("\(audio.fileName) is not a plain path inside the file's folder")
            pairedAudio = nil
        }
        var audioCopy: (source: URL, staged: StagedFile)?
        if let audio = pairedAudio {
            let source = input.deletingLastPathComponent().appendingPathComponent(audio.fileName)
            if folder != FilePaths.parent(of: inputPath) {
                let destination = outputDirectory.appendingPathComponent(source.lastPathComponent)
                if protectedPaths.contains(destination.standardizedFileURL.path) {
                    pairedAudio = nil
                } else {
                    audioCopy = (source, StagedFile(destination))
                    pairedAudio?.fileName = destination.lastPathComponent
                }
            }
        }
        defer { audioCopy?.staged.discard() }
        if let copy = audioCopy {
            do {
                _ = try AudioFileReader(url: copy.source)  // a sound, not any file of that name
                try FileCopy.stream(from: copy.source, to: copy.staged.temporary)
            } catch {
                dropSound("\(copy.source.lastPathComponent) was not copied (\((error as? FileError)?.reason ?? "\(error)"))")
                pairedAudio = nil
                audioCopy = nil
            }
        }
        let metadata = imported.metadata + PresetProvenance.translation(of: input.lastPathComponent)
        let outputs = try write(imported.track, context: HapticWriteContext(pairedAudio: pairedAudio, metadata: metadata),
                                to: hapticURLs) {
            if let copy = audioCopy {
                try Self.refuseToReplaceForeignAudio(copy.staged, besideSource: true)
                try copy.staged.commit(recordingIn: log)
            }
        }
        return ConversionResult(source: input, outputs: outputs,
                                audio: pairedAudio.map { outputDirectory.appendingPathComponent($0.fileName) },
                                audioFormat: nil, track: imported.track, warnings: warnings)
    }

    /// Whether a selected format plays the paired audio file (`HapticFormat.pairsAudio`): only
    /// then is one written or copied.
    private var pairsAudio: Bool { formats.contains { type(of: $0).pairsAudio } }

    /// Every selected format's files, `<stem>.<ending>`, in format order (`HapticFormat.fileEndings`).
    private var fileEndings: [(format: any HapticFormat, ending: String)] {
        formats.flatMap { format in format.fileEndings.map { (format, $0) } }
    }

    private func outputURLs(in directory: URL, stem: String) -> [URL] {
        fileEndings.map { directory.appendingPathComponent(OutputNaming.fileName(stem: stem, ending: $0.ending)) }
    }

    /// Writes `track` in every format into staged files, runs `beforeCommit` (which commits
    /// whatever the haptics name), then commits the haptic files in format order.
    private func write(_ track: HapticTrack, context: HapticWriteContext, to urls: [URL],
                       beforeCommit: () throws -> Void) throws -> [FormatOutput] {
        let staged = urls.map(StagedFile.init)
        defer { staged.forEach { $0.discard() } }
        var outputs: [FormatOutput] = []
        for ((format, ending), file) in zip(fileEndings, staged) {
            let bytes: Int
            do {
                bytes = try file.write(bytes: { try format.write(track, context: context, file: ending, bytes: $0) })
            } catch let error as FileError {
                throw error
            } catch {
                throw FileError(file: file.destination.path, reason: "cannot be written as \(type(of: format).id): \(error)")
            }
            outputs.append(FormatOutput(formatID: type(of: format).id, url: file.destination, bytes: bytes))
        }
        // Checked before anything is committed: `beforeCommit` puts the paired audio in place.
        for file in staged { try file.checkDestination() }
        try beforeCommit()
        for file in staged { try file.commit(recordingIn: log) }
        return outputs
    }

    /// Streams the file through the analysis (and the paired-audio writer, if any). Files
    /// that pair unchanged and hold 16-bit PCM are read as integers, which libsndfile only
    /// copies; the rest as floats, which the paired WAV writer takes.
    private func analyse(_ reader: AudioFileReader, copyingTo writer: WAVWriter?) throws -> AnalysisResult {
        var configuration = preset.analysisConfiguration()
        configuration.transform = FFTWRealFFT.self
        let session = AnalysisSession(sampleRate: reader.format.sampleRate, configuration: configuration)
        session.expect(samples: Int(reader.format.frames))
        if writer == nil && reader.isSixteenBit {
            let blocks = MonoBlockReader<Int16>(reader, blockFrames: Self.blockFrames)
            while try blocks.next({ _, mono in session.push(mono) }) {}
        } else {
            let blocks = MonoBlockReader<Float>(reader, blockFrames: Self.blockFrames)
            while try blocks.next({ interleaved, mono in
                try writer?.write(interleaved)
                session.push(mono)
            }) {}
        }
        guard session.sampleCount > 0 else {
            throw AudioError(.empty, "holds no decodable audio frames")
        }
        return session.finish()
    }

    /// Refuses outputs that would replace the input or another input of the run.
    /// - Parameters:
    ///   - folder: the output folder's standardized path (the targets' parent).
    private static func refuseToOverwriteInputs(_ targets: [URL], in folder: String, input: URL, inputPath: String,
                                                protectedPaths: Set<String>) throws {
        for target in targets {
            let targetPath = folder + "/" + target.lastPathComponent
            if protectedPaths.contains(targetPath) || targetPath == inputPath {
                throw FileError(file: input.path, reason: "would overwrite the input \(target.lastPathComponent)",
                                hint: "choose another output folder with -o")
            }
        }
    }

    /// Refuses to replace a file at a haptic output's name that Tactus did not make: a pattern
    /// a designer wrote by hand beside the sound (`boom.ahap` next to `boom.wav`) is theirs.
    /// The file's own metadata, read by its format's reader from the file's start where the
    /// format keeps it there (`metadata(of:)`), tells (`PresetProvenance.marksTactus`); a file
    /// whose metadata that format cannot read is not Tactus's either. Replaced as before: a file in a
    /// format Tactus cannot read back or whose files hold no metadata (`recordsMaker`: the
    /// rendered WAVs), as nothing tells whose it is. A folder at that name is
    /// left to the write to report (`StagedFile.checkDestination`).
    private func refuseToReplaceForeignHaptics(_ targets: [URL], input: URL) throws {
        for ((format, _), target) in zip(fileEndings, targets) {
            var status = stat()
            guard stat(target.path, &status) == 0, status.st_mode & S_IFMT != S_IFDIR,
                  let reader = format as? any HapticReadableFormat, type(of: reader).recordsMaker else { continue }
            let metadata = (try? reader.metadata(of: target)) ?? []
            if !PresetProvenance.marksTactus(metadata) {
                throw FileError(file: input.path, reason: "would replace \(target.lastPathComponent), which Tactus did not make",
                                hint: "move it away, or write into another folder with -o")
            }
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

/// How the haptics get audio that Apple platforms play, sample for sample (AHAP's AudioCustom event).
enum AudioPairing {
    /// Pairing is off: haptics only.
    case none
    /// The source itself sits beside the haptic files and plays as it is.
    case reference(name: String)
    /// WAV/AIFF/CAF source copied unchanged next to the haptic files.
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
        return .transcode(directory.appendingPathComponent(OutputNaming.transcodedAudioName(stem: stem)), .preserving(reader.format.encoding))
    }

    /// The file this pairing writes, if it writes one.
    var destination: URL? {
        switch self {
        case .none, .reference: return nil
        case .copy(let url), .transcode(let url, _): return url
        }
    }

    /// The audio's name relative to the haptic files (AHAP's `EventWaveformPath`).
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
