import TactusAudio
import TactusCore
import TactusFiles
import TactusPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An audio file found under the batch's input folder.
public struct BatchSource: Sendable {
    /// Path below the input folder, `/`-separated: `ui/click.wav`.
    public let relativePath: String
    /// The file.
    public let url: URL
    /// Its header, read when it was found.
    public let format: AudioFormat
    /// Its size in bytes.
    public let byteCount: Int

    /// The folder below the input folder (`ui`, or "" at the top).
    public var relativeFolder: String { FilePaths.deletingLastComponent(relativePath) }
}

/// A file that looked like audio but cannot be converted, found while walking the tree.
public struct RejectedFile {
    /// Path below the input folder.
    public let relativePath: String
    /// Why it cannot be converted.
    public let error: FileError
}

/// Everything `SourceDiscovery` found, in sorted path order.
public struct SourceTree {
    /// The audio files to convert.
    public var sources: [BatchSource] = []
    /// Files with an audio extension that cannot be read.
    public var rejected: [RejectedFile] = []
    /// Folders and links that could not be walked (symbolic link loops, unreadable folders).
    public var problems: [FileError] = []
}

/// Walks the input folder and keeps every file libsndfile can open, judged by content.
///
/// Rules, chosen so a run never hangs, loops or recurses into its own output:
/// - Names starting with `.` are skipped (`.DS_Store`, `._hit.wav` resource forks, `.git`,
///   Tactus's own temporaries and manifest), as are `tactus.json` folder settings.
/// - A file named as a haptic format's output (`<stem>.pcm.wav`, `<stem>.dualsense.wav`,
///   `<stem>.ahap`, … : `isHapticOutput`) is skipped: the rendered WAVs are audio to libsndfile,
///   but they are Tactus's own outputs (a previous run's, in a folder converted again), read
///   back as haptic files, never converted as sounds.
/// - A file is audio if libsndfile opens it, whatever its extension (`boom.bin` holding WAV
///   counts). A file it cannot open is skipped silently unless its extension says audio
///   (`broken.wav`), which is reported: that file was surely meant to be converted.
/// - Symbolic links are followed; a link back to a folder being walked is reported as a
///   loop and skipped, as are dangling links and unreadable folders.
/// - Only regular files are opened (a FIFO or device would block the run).
/// - The output folder is not entered when it lies inside the input folder.
///
/// The walk is serial; the files it finds are opened on `jobs` threads, because opening is
/// most of the cost (an Ogg Vorbis file's open builds its codebooks, about 4 M instructions)
/// and nothing is converted until every file has been opened. The tree comes out in path
/// order, the same for any number of threads.
public struct SourceDiscovery {
    /// Extensions whose files are reported, rather than skipped, when they cannot be read.
    public static let audioExtensions: Set<String> = [
        "wav", "wave", "bwf", "aif", "aiff", "aifc", "caf", "flac", "ogg", "oga", "opus", "mp3", "mp2",
        "w64", "rf64", "au", "snd", "m4a", "aac", "wma",
    ]

    /// The input folder.
    public let root: URL
    /// How the root is shown in messages (the path as the user typed it).
    public let displayRoot: String
    /// Which files and folders take part.
    public let filter: PathFilter
    /// A folder never to enter (the output folder), unless it is the root itself.
    public let skippedFolder: URL?
    /// Threads that open the files found, at least 1.
    public let jobs: Int

    /// - Parameters:
    ///   - root: the input folder.
    ///   - displayRoot: the root as the user typed it.
    ///   - filter: which files and folders take part.
    ///   - skippedFolder: a folder never entered (the output folder).
    ///   - jobs: threads that open the files found.
    public init(root: URL, displayRoot: String, filter: PathFilter = PathFilter(), skippedFolder: URL? = nil,
                jobs: Int = 1) {
        self.root = root
        self.displayRoot = displayRoot
        self.filter = filter
        self.skippedFolder = skippedFolder
        self.jobs = max(1, jobs)
    }

    /// Walks the tree once (links followed, loops reported) and opens every audio file found.
    /// - Returns: the sources, the rejected files and the problems, in path order.
    public func discover() -> SourceTree {
        var tree = SourceTree()
        guard let rootID = FileID(path: root.path) else {
            tree.problems.append(FileError(file: displayRoot, reason: "cannot be read"))
            return tree
        }
        let skippedID = skippedFolder.flatMap { FileID(path: $0.path) }.flatMap { $0 == rootID ? nil : $0 }
        var found: [Found] = []
        walk(root, relative: "", ancestors: [rootID], skipping: skippedID, into: &found, problems: &tree.problems)
        let files = found.compactMap { if case .file(let file) = $0 { file } else { nil } }
        var probes = probeAll(files).makeIterator()
        for entry in found {
            switch entry {
            case .refused(let file): tree.rejected.append(file)
            case .file:
                switch probes.next()! {
                case .source(let source): tree.sources.append(source)
                case .rejected(let file): tree.rejected.append(file)
                case .skipped: continue
                }
            }
        }
        return tree
    }

    /// Whether a file name ends in a selectable format's extension (case-insensitive): a haptic
    /// file, which discovery never takes for a sound.
    /// - Parameter name: a file name (not a path).
    /// - Returns: true when a format writes files of that ending (`.ahap`, `.pcm.wav`, …).
    public static func isHapticOutput(_ name: String) -> Bool {
        let name = name.lowercased()
        return HapticFormats.all.contains { name.hasSuffix("." + $0.fileExtension.lowercased()) }
    }

    /// The path shown in messages for a path below the root.
    /// - Parameter relativePath: a path below the root.
    /// - Returns: the path under `displayRoot`.
    public func display(_ relativePath: String) -> String {
        relativePath.isEmpty ? displayRoot : displayRoot.trimmingSuffix("/") + "/" + relativePath
    }

    /// Appends what it meets below `folder` to `found` in path order; folders it cannot walk
    /// go to `problems`.
    private func walk(_ folder: URL, relative: String, ancestors: [FileID], skipping skippedID: FileID?,
                      into found: inout [Found], problems: inout [FileError]) {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() } catch {
            problems.append(FileError(file: display(relative), reason: "folder cannot be read",
                                      hint: FileErrorReason.describe(error)))
            return
        }
        for name in names where !name.hasPrefix(".") && name != FolderPresetFile.fileName {
            let url = folder.appendingPathComponent(name)
            let path = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            guard stat(url.path, &info) == 0 else {
                let reason = errno == ELOOP ? "is a symbolic link loop" : lstat(url.path, &info) == 0
                    ? "is a symbolic link to something that does not exist" : String(cString: strerror(errno))
                found.append(.refused(RejectedFile(relativePath: path, error: FileError(file: display(path), reason: reason))))
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                let id = FileID(info)
                guard filter.entersFolder(path), id != skippedID else { continue }
                guard !ancestors.contains(id) else {
                    problems.append(FileError(file: display(path), reason: "is a symbolic link loop (a link to a folder that contains it)",
                                              hint: "skipped"))
                    continue
                }
                walk(url, relative: path, ancestors: ancestors + [id], skipping: skippedID, into: &found, problems: &problems)
            case S_IFREG where filter.includesFile(path) && !Self.isHapticOutput(name):
                found.append(.file(FoundFile(url: url, relativePath: path, byteCount: Int(info.st_size))))
            default:
                continue
            }
        }
    }

    /// Each file opened, in the order given: on `jobs` threads, each taking the next file.
    /// The threads open at once (not exclusively: see `AudioFileReader.init(url:exclusive:)`),
    /// so every file refused with a reason is opened again afterwards, exclusively, for its own.
    private func probeAll(_ files: [FoundFile]) -> [Probe] {
        let threads = min(jobs, files.count)
        guard threads > 1 else { return files.map { probe($0) } }
        var probes = [Probe](repeating: .skipped, count: files.count)
        let lock = Lock()
        var next = 0
        runOnThreads(threads) {
            while true {
                let index: Int = lock.withLock { defer { next += 1 }; return next }
                guard index < files.count else { return }
                let outcome = probe(files[index], exclusive: false)
                lock.withLock { probes[index] = outcome }
            }
        }
        // Only a refusal carries libsndfile's words; whether a file is a source, or passed
        // over as not audio, does not depend on them.
        for index in probes.indices {
            guard case .rejected = probes[index] else { continue }
            probes[index] = probe(files[index])
        }
        return probes
    }

    private func probe(_ file: FoundFile, exclusive: Bool = true) -> Probe {
        let (url, relativePath) = (file.url, file.relativePath)
        do {
            let reader = try AudioFileReader(url: url, exclusive: exclusive)
            return .source(BatchSource(relativePath: relativePath, url: url, format: reader.format, byteCount: file.byteCount))
        } catch let error as AudioError {
            let claimsAudio = Self.audioExtensions.contains(url.pathExtension.lowercased())
            let recognised = [.unreadable, .unsupported, .decodeFailed].contains(error.kind)
            guard claimsAudio || recognised else { return .skipped }
            return .rejected(RejectedFile(relativePath: relativePath,
                                          error: FileError(file: display(relativePath), reason: error.reason, hint: error.hint)))
        } catch {
            return .rejected(RejectedFile(relativePath: relativePath,
                                          error: FileError(file: display(relativePath), reason: "\(error)")))
        }
    }
}

/// A regular file the walk found, to be opened.
private struct FoundFile {
    let url: URL
    let relativePath: String
    let byteCount: Int
}

/// What the walk met at one path.
private enum Found {
    case file(FoundFile)
    /// Refused as it was met (a dangling link, a link loop), without opening anything.
    case refused(RejectedFile)
}

/// What opening a found file showed.
private enum Probe {
    case source(BatchSource)
    case rejected(RejectedFile)
    /// Not audio, and not named as audio: passed over in silence.
    case skipped
}

/// A file's or folder's identity (device and inode): the same whichever path reaches it,
/// through links or `..`, so a folder reached again through a link is recognised.
struct FileID: Equatable {
    let device: UInt64
    let inode: UInt64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        var text = self
        while text.count > 1, text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }
}
