import TactusPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one place that makes sure an output folder can take files.
public enum OutputFolder {
    /// Creates `directory` (with its parents) if it is missing and checks that it is a folder
    /// this process can write into, before any work is done.
    /// - Throws: `FileError` naming the folder, with the POSIX reason and a hint to choose
    ///   another with `-o`.
    /// - Parameter directory: the output folder.
    public static func prepare(_ directory: URL) throws {
        var isDirectory = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory else {
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
}
