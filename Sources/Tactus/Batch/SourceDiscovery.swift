import TactusAudio
import TactusCore

/// An audio file found under the batch's input folder.
public struct BatchSource: Sendable {
    /// Path below the input folder, `/`-separated: `ui/click.wav`.
    public let relativePath: String
    public let url: URL
    public let format: AudioFormat
    public let byteCount: Int

    /// The folder below the input folder (`ui`, or "" at the top).
    public var relativeFolder: String { FilePaths.deletingLastComponent(relativePath) }
}

/// A file that looked like audio but cannot be converted, found while walking the tree.
public struct RejectedFile {
    public let relativePath: String
    public let error: FileError
}

/// Everything `SourceDiscovery` found, in sorted path order.
public struct SourceTree {
    public var sources: [BatchSource] = []
    public var rejected: [RejectedFile] = []
    /// Folders and links that could not be walked (symbolic link loops, unreadable folders).
    public var problems: [FileError] = []
}

/// Walks the input folder and keeps every file libsndfile can open, judged by content.
///
/// Rules, chosen so a run never hangs, loops or recurses into its own output:
/// - Names starting with `.` are skipped (`.DS_Store`, `._hit.wav` resource forks, `.git`,
///   Tactus's own temporaries and manifest), as are `tactus.json` folder settings.
/// - A file is audio if libsndfile opens it, whatever its extension (`boom.bin` holding WAV
///   counts). A file it cannot open is skipped silently unless its extension says audio
///   (`broken.wav`), which is reported: that file was surely meant to be converted.
/// - Symbolic links are followed; a link back to a folder being walked is reported as a
///   loop and skipped, as are dangling links and unreadable folders.
/// - Only regular files are opened (a FIFO or device would block the run).
/// - The output folder is not entered when it lies inside the input folder.
public struct SourceDiscovery {
    /// Extensions whose files are reported, rather than skipped, when they cannot be read.
    public static let audioExtensions: Set<String> = [
        "wav", "wave", "bwf", "aif", "aiff", "aifc", "caf", "flac", "ogg", "oga", "opus", "mp3", "mp2",
        "w64", "rf64", "au", "snd", "m4a", "aac", "wma",
    ]

    public let root: URL
    /// How the root is shown in messages (the path as the user typed it).
    public let displayRoot: String
    public let filter: PathFilter
    /// A folder never to enter (the output folder), unless it is the root itself.
    public let skippedFolder: URL?

    public init(root: URL, displayRoot: String, filter: PathFilter = PathFilter(), skippedFolder: URL? = nil) {
        self.root = root
        self.displayRoot = displayRoot
        self.filter = filter
        self.skippedFolder = skippedFolder
    }

    public func discover() -> SourceTree {
        var tree = SourceTree()
        guard let rootID = FileID(path: root.path) else {
            tree.problems.append(FileError(file: displayRoot, reason: "cannot be read"))
            return tree
        }
        let skippedID = skippedFolder.flatMap { FileID(path: $0.path) }.flatMap { $0 == rootID ? nil : $0 }
        walk(root, relative: "", ancestors: [rootID], skipping: skippedID, into: &tree)
        return tree
    }

    /// The path shown in messages for a path below the root.
    public func display(_ relativePath: String) -> String {
        relativePath.isEmpty ? displayRoot : displayRoot.trimmingSuffix("/") + "/" + relativePath
    }

    private func walk(_ folder: URL, relative: String, ancestors: [FileID], skipping skippedID: FileID?,
                      into tree: inout SourceTree) {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() } catch {
            tree.problems.append(FileError(file: display(relative), reason: "folder cannot be read",
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
                tree.rejected.append(RejectedFile(relativePath: path, error: FileError(file: display(path), reason: reason)))
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                let id = FileID(info)
                guard filter.entersFolder(path), id != skippedID else { continue }
                guard !ancestors.contains(id) else {
                    tree.problems.append(FileError(file: display(path), reason: "is a symbolic link loop (a link to a folder that contains it)",
                                                         hint: "skipped"))
                    continue
                }
                walk(url, relative: path, ancestors: ancestors + [id], skipping: skippedID, into: &tree)
            case S_IFREG where filter.includesFile(path):
                probe(url, relativePath: path, byteCount: Int(info.st_size), into: &tree)
            default:
                continue
            }
        }
    }

    private func probe(_ url: URL, relativePath: String, byteCount: Int, into tree: inout SourceTree) {
        do {
            let reader = try AudioFileReader(url: url)
            tree.sources.append(BatchSource(relativePath: relativePath, url: url, format: reader.format, byteCount: byteCount))
        } catch let error as AudioError {
            let claimsAudio = Self.audioExtensions.contains(url.pathExtension.lowercased())
            let recognised = [.unreadable, .unsupported, .decodeFailed].contains(error.kind)
            if claimsAudio || recognised {
                tree.rejected.append(RejectedFile(relativePath: relativePath,
                                                  error: FileError(file: display(relativePath), reason: error.reason,
                                                                         hint: error.hint)))
            }
        } catch {
            tree.rejected.append(RejectedFile(relativePath: relativePath,
                                              error: FileError(file: display(relativePath), reason: "\(error)")))
        }
    }
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
