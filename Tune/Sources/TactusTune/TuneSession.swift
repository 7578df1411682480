import Tactus
import TactusAudio
import TactusCore
import TactusFiles
import TactusPresets
import TactusPreview
import TactusRender
import TactusPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Everything one `tactus tune` run serves, apart from HTTP: the base preset, the sounds with
/// their cached analyses, and what the page asks of them (tracks, sound, exports, saves,
/// dropped sounds). Safe to call from any thread.
public final class TuneSession: @unchecked Sendable {
    /// The preset the run starts from.
    public let base: TuneBase
    /// Where exports go (`--output`), created when the first one is written.
    public let exportFolder: URL
    /// Where "Save as new preset" writes `<name>.json`.
    public let presetFolder: URL
    /// This run's own folder for dropped sounds, removed by `close()`.
    public let temporaryFolder: URL
    private let library: PresetLibrary
    private let lock = Lock()
    private var sounds: [TuneSound] = []
    private var dropped = 0
    /// The files given that are not in the run, each with its one-line reason (as `tactus
    /// batch` reports it), in the order found: the page lists them.
    public private(set) var skipped: [FileError] = []

    /// Opens and analyses every sound of `found` with the base preset (on up to `jobs`
    /// threads) and makes the run's temporary folder.
    /// - Returns: the session, and one error per sound that could not be read.
    /// - Parameters:
    ///   - found: the sounds named on the command line.
    ///   - skipped: what finding them skipped (`FoundSound.find`'s problems), listed on the
    ///     page with the sounds that cannot be read.
    ///   - base: the starting preset.
    ///   - library: where presets are looked up.
    ///   - exportFolder: where exported haptic files go.
    ///   - presetFolder: where new presets are saved.
    ///   - jobs: threads that analyse the sounds, at least 1.
    /// - Throws: a `FileError` when the temporary folder cannot be made, or a `PresetError` when
    ///   the starting values do not resolve.
    public static func open(_ found: [FoundSound], skipped: [FileError] = [], base: TuneBase, library: PresetLibrary,
                            exportFolder: URL, presetFolder: URL, jobs: Int) throws -> (TuneSession, [FileError]) {
        let session = try TuneSession(base: base, library: library, exportFolder: exportFolder, presetFolder: presetFolder)
        let start = try session.startingPreset()
        var loaded = [Result<TuneSound, FileError>?](repeating: nil, count: found.count)
        let lock = Lock()
        var next = 0
        runOnThreads(min(max(1, jobs), max(1, found.count))) {
            while true {
                let index: Int = lock.withLock { defer { next += 1 }; return next }
                guard index < found.count else { return }
                let sound = found[index]
                let result: Result<TuneSound, FileError>
                do {
                    result = .success(try TuneSound(url: sound.url, name: sound.name, folder: sound.folder, preset: start))
                } catch {
                    result = .failure(error as? FileError ?? FileError(file: sound.name, error))
                }
                lock.withLock { loaded[index] = result }
            }
        }
        var problems: [FileError] = []
        for result in loaded {
            switch result! {
            case .success(let sound): session.sounds.append(sound)
            case .failure(let error): problems.append(error)
            }
        }
        session.skipped = skipped + problems
        return (session, problems)
    }

    private init(base: TuneBase, library: PresetLibrary, exportFolder: URL, presetFolder: URL) throws {
        self.base = base
        self.library = library
        self.exportFolder = exportFolder
        self.presetFolder = presetFolder
        var template = Array((FileManager.default.temporaryDirectory.path + "/tactus-tune-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw FileError(file: FileManager.default.temporaryDirectory.path, reason: "cannot make a temporary folder",
                            hint: String(cString: strerror(errno)))
        }
        temporaryFolder = URL(fileURLWithPath: String(cString: made), isDirectory: true)
    }

    /// Removes the run's temporary folder and the sounds dropped into it.
    public func close() {
        try? FileManager.default.removeItem(at: temporaryFolder)
    }

    /// Sounds in the run, dropped ones included.
    public var soundCount: Int { lock.withLock { sounds.count } }

    private func sound(_ index: Int) throws -> TuneSound {
        try lock.withLock {
            guard sounds.indices.contains(index) else { throw TuneRequestError("no sound \(index)") }
            return sounds[index]
        }
    }

    /// The base with `--set` applied: what the page shows first.
    private func startingPreset() throws -> ResolvedPreset {
        try ResolvedPreset(resolving: base.chain + (base.startingOverrides.isEmpty ? [] : [
            PresetFile(source: PresetFile.overrideSource, name: PresetFile.overrideSource, values: base.startingOverrides)]))
    }

    // MARK: What the page reads

    /// The run at a glance: the base, the starting values (as `--set` lines), the sounds with
    /// their outlines, the formats and the folders a `tactus.json` can be saved into.
    /// - Returns: the state as the page reads it.
    /// - Throws: a `PresetError` when the starting values do not resolve.
    public func state() throws -> JSONValue {
        let start = try startingPreset()
        let sounds = lock.withLock { self.sounds }
        var folders: [String] = []
        for folder in sounds.compactMap(\.folder?.path) where !folders.contains(folder) { folders.append(folder) }
        return .object([
            ("base", .string(base.resolved.name)), ("baseDescription", .string(base.resolved.description)),
            ("overwritable", .bool(overwritableBase() != nil)),
            ("start", .object(base.startingOverrides.flatMap { section, values in values.map { ($0.key, $0.value) }
                .map { (key: section + "." + $0.0, value: $0.1.jsonValue) } }.sorted { $0.key < $1.key })),
            ("parameters", TuneParameters.json(method: start.onsetMethod, values: start)),
            ("designer", TuneDesignerKnobs.json),
            ("presets", .array(library.names().map { .string($0) })),
            ("formats", .array(HapticFormats.all.map { .string($0.id) })),
            ("chosenFormats", .array(((try? HapticFormats.select(for: start)) ?? []).map { .string(type(of: $0).id) })),
            ("folders", .array(folders.map { .string($0) })),
            ("sounds", .array(sounds.indices.map { soundJSON(sounds[$0], index: $0) })),
            ("skipped", .array(skipped.map { .object([("file", .string($0.file)), ("line", .string($0.description))]) })),
        ])
    }

    func soundJSON(_ sound: TuneSound, index: Int) -> JSONValue {
        .object([("index", .number(Double(index))), ("name", .string(sound.name)),
                 ("duration", .number(JSONText.rounded(sound.format.duration, digits: 6))),
                 ("sampleRate", .number(sound.format.sampleRate)), ("channels", .number(Double(sound.format.channels))),
                 ("waveform", .array(sound.waveform.map { .number(JSONText.rounded(Double($0), digits: 4)) }))])
    }

    /// Every value of the preset `name` (`TuneParameters.values`): sent as the page's settings,
    /// they make that preset's values on top of the base, so the page can start from it.
    /// - Parameter name: a preset name on the search path.
    /// - Returns: an object of `section.name` → value.
    /// - Throws: a `PresetError` naming the preset when it cannot be found or resolved.
    public func values(ofPreset name: String) throws -> JSONValue {
        TuneParameters.values(of: try library.resolve(name))
    }

    /// The knobs for `settings` (another onset method has other onset parameters).
    /// - Parameter settings: the page's settings.
    /// - Returns: each parameter's section, name, unit, range, default and current value.
    /// - Throws: a `PresetError` when the settings do not resolve.
    public func parameters(_ settings: TuneSettings) throws -> JSONValue {
        let preset = try settings.resolve(on: base)
        return TuneParameters.json(method: preset.onsetMethod, values: preset)
    }

    /// The tracks `settings` give for the sounds at `indices`, mapped from the cached analyses
    /// (analysed again only when the analysis settings differ from every cached one), with the
    /// preset JSON and `--set` lines that reproduce them.
    /// - Parameters:
    ///   - settings: the page's settings.
    ///   - indices: the sounds, by index.
    ///   - target: `TuneTarget.mapped` for the mapped tracks, or a format id of `TuneTarget.ids`
    ///     for what that format plays of them (`TuneTarget.played`).
    /// - Returns: per sound, the track and the target format's findings; and the preset JSON and `--set` lines.
    /// - Throws: a `TuneRequestError` for an unknown index or target, a `TuneSettingsError` for
    ///   settings that do not resolve.
    public func render(_ settings: TuneSettings, sounds indices: [Int], target: String = TuneTarget.mapped) throws -> JSONValue {
        let preset = try settings.resolve(on: base)
        let key = TuneSound.analysisKey(preset)
        var analysed = 0
        var tracks: [JSONValue] = []
        for index in indices {
            let (mapped, fresh) = try sound(index).track(for: preset, key: key)
            if fresh { analysed += 1 }
            let (track, findings) = target == TuneTarget.mapped ? (mapped, []) : try TuneTarget.played(mapped, as: target, preset: preset)
            tracks.append(.object([("index", .number(Double(index))), ("track", Self.json(track)),
                                   ("findings", .array(findings.map { .string($0) }))]))
        }
        return .object([
            ("preset", .string(PresetPrinter.json(settings.file(extending: base), method: preset.onsetMethod))),
            ("setLines", .array(settings.setLines.map { .string($0) })),
            ("hash", .string(preset.hash)), ("analysed", .number(Double(analysed))), ("tracks", .array(tracks)),
        ])
    }

    /// A track as the page draws it: transients as flat (time, intensity, sharpness) triples,
    /// regions with flat (time, value) curves; times in seconds, 6 decimals.
    static func json(_ track: HapticTrack) -> JSONValue {
        func n(_ value: Double) -> JSONValue { .number(JSONText.rounded(value, digits: 6)) }
        func curve(_ points: [HapticTrack.Point]) -> JSONValue { .array(points.flatMap { [n($0.time), n($0.value)] }) }
        return .object([
            ("duration", n(track.duration)),
            ("transients", .array(track.transients.flatMap { [n($0.time), n($0.intensity), n($0.sharpness)] })),
            ("regions", .array(track.regions.map {
                .object([("start", n($0.start)), ("end", n($0.end)), ("intensity", curve($0.intensity)),
                         ("sharpness", curve($0.sharpness))])
            })),
        ])
    }

    /// The sound at `index`, mono, as WAV bytes.
    /// - Parameter index: the sound's index.
    /// - Returns: the WAV bytes, at the sound's sample rate.
    /// - Throws: a `TuneRequestError` for an unknown index, a `FileError` for a sound longer
    ///   than `TuneLimits.maxPlaybackSeconds` or one that cannot be decoded again.
    public func originalAudio(_ index: Int) throws -> Data {
        try sound(index).monoWAV()
    }

    /// What `settings`' haptics for the sound at `index` sound like (`HapticSound`, as
    /// `tactus preview` renders them), as WAV bytes at the sound's rate.
    /// - Parameters:
    ///   - settings: the page's settings.
    ///   - index: the sound's index.
    ///   - target: `TuneTarget.mapped`, or a format id of `TuneTarget.ids`: what that format plays.
    /// - Returns: the WAV bytes.
    /// - Throws: a `TuneRequestError` for an unknown index or target, a `TuneSettingsError` for
    ///   settings that do not resolve, a `FileError` when the haptics run too long to sonify.
    public func hapticAudio(_ settings: TuneSettings, sound index: Int, target: String = TuneTarget.mapped) throws -> Data {
        let sound = try sound(index)
        guard sound.format.duration <= TuneLimits.maxPlaybackSeconds else { return try sound.monoWAV() }
        let preset = try settings.resolve(on: base)
        let (mapped, _) = try sound.track(for: preset)
        let track = target == TuneTarget.mapped ? mapped : try TuneTarget.played(mapped, as: target, preset: preset).0
        return Data(try PCMWAVWriter.file(try HapticSound.samples(of: track, sampleRate: sound.format.sampleRate, name: sound.name),
                                          sampleRate: Int(sound.format.sampleRate)))
    }

    // MARK: What the page writes

    /// Converts the sound at `index` with `settings` into the export folder in `formats`,
    /// through `Converter` as `tactus convert` does.
    /// - Returns: the paths written.
    /// - Parameters:
    ///   - settings: the page's settings.
    ///   - index: the sound's index.
    ///   - ids: format ids, as `--format` takes them.
    /// - Throws: a `TuneRequestError` for an unknown index, a `FormatSelectionError` for an unknown
    ///   format, a `PresetError` or a `FileError` from the conversion.
    public func export(_ settings: TuneSettings, sound index: Int, formats ids: [String]) throws -> [String] {
        let sound = try sound(index)
        let preset = try recordedPreset(settings)
        let formats = try ids.isEmpty ? HapticFormats.select(for: preset) : HapticFormats.select(ids)
        let log = CommittedFiles()
        let result = try Converter(preset: preset, formats: formats, log: log)
            .convert(sound.url, to: exportFolder, protectedPaths: Set(lock.withLock { sounds.map { $0.url.standardizedFileURL.path } }))
        if let problem = log.flush().first { throw problem }
        return result.outputs.map(\.url.path) + (result.audio.map { [$0.path] } ?? [])
    }

    /// The preset an export of `settings` records in its files, so that `--preset-from` on
    /// any of them reproduces it: the saved preset `<presetFolder>/<name>.json` when the name
    /// finds that file on the search path as it is now (`PresetLibrary.standard()`, which
    /// takes in a `./Presets` made by the first save) and it holds exactly these values, else
    /// the base with the settings as `--set` overrides (the values are the same either way).
    /// - Parameter settings: the page's settings.
    /// - Returns: the resolved preset, named as its files will record it.
    /// - Throws: a `PresetError` when the settings do not resolve.
    func recordedPreset(_ settings: TuneSettings) throws -> ResolvedPreset {
        let tuned = try settings.resolve(on: base)
        let saved = presetFolder.appendingPathComponent(settings.name + ".json").standardizedFileURL
        let library = PresetLibrary.standard()
        if case .file(let found)? = try? library.locate(settings.name), found.path == saved.path,
           let preset = try? library.resolve(settings.name), preset.hash == tuned.hash {
            return preset
        }
        guard !settings.values.isEmpty else { return base.resolved }
        return try ResolvedPreset(resolving: base.chain + [
            PresetFile(source: PresetFile.overrideSource, name: PresetFile.overrideSource, values: settings.values)])
    }

    /// Where "Save" writes.
    public enum SaveTarget {
        /// `<presetFolder>/<name>.json`, a new file extending the base with the differences.
        case newPreset
        /// The `tactus.json` of the folder at this index of `state()`'s folders: the base and the differences.
        case folder(Int)
        /// The base preset's own file, when it is a user's file (`overwritableBase`).
        case base
    }

    /// Writes `settings` as `target` says (staged, then renamed into place).
    /// - Returns: the path written.
    /// - Parameters:
    ///   - settings: the page's settings.
    ///   - target: a new preset, the base preset's file, or a folder's `tactus.json`.
    /// - Throws: a `FileError` when the file exists (for a new preset) or cannot be written, a
    ///   `TuneRequestError` for a target that may not be written.
    public func save(_ settings: TuneSettings, to target: SaveTarget) throws -> String {
        let preset = try settings.resolve(on: base)
        let destination: URL
        let text: String
        switch target {
        case .newPreset:
            destination = presetFolder.appendingPathComponent(settings.name + ".json")
            guard !FileManager.default.fileExists(atPath: destination.path) else {
                throw FileError(file: destination.path, reason: "already exists", hint: "choose another name")
            }
            do { try FileManager.default.createDirectory(at: presetFolder, withIntermediateDirectories: true) } catch {
                throw FileError(file: presetFolder.path, reason: "cannot make the presets folder", hint: FileErrorReason.describe(error))
            }
            text = PresetPrinter.json(settings.file(extending: base), method: preset.onsetMethod)
        case .folder(let index):
            let folders = lock.withLock { sounds.compactMap(\.folder) }
            var distinct: [URL] = []
            for folder in folders where !distinct.contains(folder) { distinct.append(folder) }
            guard distinct.indices.contains(index) else { throw TuneRequestError("no folder \(index)") }
            destination = distinct[index].appendingPathComponent(FolderPresetFile.fileName)
            let set = JSONValue.object(settings.values.flatMap { section, entries in
                entries.map { (key: section + "." + $0.key, value: $0.value.jsonValue) }
            }.sorted { $0.key < $1.key })
            text = JSONValue.object([("preset", .string(base.extendsReference)), ("set", set)]).prettyText()
        case .base:
            guard let url = overwritableBase(), var file = base.chain.last else {
                throw TuneRequestError("the starting preset is not a user's preset file; save as a new preset instead")
            }
            if let method = settings.values[PresetSections.onset]?[PresetSections.methodKey],
               method != file.values[PresetSections.onset]?[PresetSections.methodKey] ?? .choice(base.resolved.onsetMethod.id) {
                file.values[PresetSections.onset] = nil  // the old method's values do not carry over
            }
            for (section, values) in settings.values { file.values[section, default: [:]].merge(values) { $1 } }
            destination = url
            text = PresetPrinter.json(file, method: preset.onsetMethod)
        }
        let staged = StagedFile(destination)
        defer { staged.discard() }
        let log = CommittedFiles()
        try staged.write(text)
        try staged.commit(recordingIn: log)
        if let problem = log.flush().first { throw problem }
        return destination.path
    }

    /// The base preset's file when saving over it is allowed: a file the user named with
    /// `--preset PATH` or found by name, that is not one of the presets Tactus ships.
    /// - Returns: the file, or nil when saving over the base is not allowed.
    public func overwritableBase() -> URL? {
        guard case .file(let url) = base.location else { return nil }
        let name = url.deletingPathExtension().lastPathComponent
        let shippedNames = Set(PresetLibrary.compiledIn.builtIn.keys)
        let inLibrary = library.directories.contains { $0.standardizedFileURL.path == url.deletingLastPathComponent().standardizedFileURL.path }
        return inLibrary && shippedNames.contains(name) ? nil : url
    }

    /// Adds a sound dropped on the page: written under a name of the run's own into the
    /// temporary folder, then opened and analysed as any input is (a file that is not a
    /// readable sound is removed again and refused with its reason).
    /// - Parameter name: the dropped file's own name, for display only (never a path).
    /// - Returns: the new sound's entry as `state()` lists it.
    /// - Parameter bytes: the file's bytes (the server bounds the request's size).
    /// - Throws: a `TuneRequestError` past `TuneLimits.maxDroppedSounds` (or `maxSounds`), a
    ///   `FileError` naming `name` when the bytes cannot be written or are not a sound Tactus reads.
    public func add(_ bytes: Data, name: String) throws -> JSONValue {
        let number: Int = try lock.withLock {
            guard dropped < TuneLimits.maxDroppedSounds, sounds.count < TuneLimits.maxSounds else {
                throw TuneRequestError("no more sounds can be added in this run (at most \(TuneLimits.maxDroppedSounds) dropped)")
            }
            dropped += 1
            return dropped
        }
        let shown = String(name.unicodeScalars.filter { $0.properties.generalCategory != .control }
            .prefix(TuneLimits.maxNameCharacters).map(Character.init))
        let display = shown.isEmpty ? "dropped-\(number)" : shown
        let url = temporaryFolder.appendingPathComponent("dropped-\(number)")
        let sound: TuneSound
        do {
            try bytes.write(to: url)
            sound = try TuneSound(url: url, name: display, folder: nil, preset: try startingPreset())
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error as? FileError ?? FileError(file: display, error)
        }
        let index = lock.withLock { () -> Int in sounds.append(sound); return sounds.count - 1 }
        return soundJSON(sound, index: index)
    }
}

/// A sound found on the command line, to be opened by `TuneSession.open`.
public struct FoundSound: Sendable {
    /// The sound file.
    public let url: URL
    /// The path as the user would recognise it.
    public let name: String
    /// The folder whose `tactus.json` would tune it in a batch.
    public let folder: URL

    /// Files and folders as `tactus batch` finds them (`SourceDiscovery`): a folder walked
    /// recursively, a file taken as it is; what cannot be walked is returned as problems.
    /// - Parameters:
    ///   - paths: files and folders, as the user typed them.
    ///   - jobs: threads that open the files found.
    /// - Returns: the sounds in path order, and the problems.
    public static func find(_ paths: [String], jobs: Int) -> (sounds: [FoundSound], problems: [FileError]) {
        var sounds: [FoundSound] = []
        var problems: [FileError] = []
        for path in paths {
            let url = URL(fileURLWithPath: path)
            var info = stat()
            guard stat(url.path, &info) == 0 else {
                problems.append(FileError(file: path, reason: String(cString: strerror(errno))))
                continue
            }
            if info.st_mode & S_IFMT == S_IFDIR {
                let discovery = SourceDiscovery(root: url, displayRoot: path, jobs: jobs)
                let tree = discovery.discover()
                problems += tree.problems + tree.rejected.map(\.error)
                sounds += tree.sources.map {
                    FoundSound(url: $0.url, name: discovery.display($0.relativePath), folder: $0.url.deletingLastPathComponent())
                }
            } else {
                sounds.append(FoundSound(url: url, name: path, folder: url.deletingLastPathComponent()))
            }
        }
        return (sounds, problems)
    }
}
