import Foundation
import TactusFiles
import XCTest

final class InputFileTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("InputFileTests-\(getpid())-\(name.hashValue)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func reason(_ body: () throws -> Any) -> String? {
        do { _ = try body(); return nil } catch let error as FileError { return error.reason } catch { return "\(error)" }
    }

    /// A regular file is read whole, byte for byte.
    func testReadsARegularFileWhole() throws {
        let url = folder.appendingPathComponent("a.bin")
        let bytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try bytes.write(to: url)
        XCTAssertEqual(try InputFile.contents(of: url), bytes)
        XCTAssertEqual(try InputFile.contents(of: url, maxBytes: bytes.count), bytes)
    }

    /// A file's start is its first bytes across the 64 KB reads, and says whether it is the
    /// whole file (also when the file is exactly that long); a FIFO is refused as for a whole read.
    func testReadsAFilesStart() throws {
        let url = folder.appendingPathComponent("a.bin")
        let bytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try bytes.write(to: url)
        for count in [0, 1, 65_536, 70_000, 199_999] {
            let start = try InputFile.start(of: url, count: count)
            XCTAssertEqual(start.data, bytes.prefix(count), "\(count)")
            XCTAssertFalse(start.whole, "\(count)")
        }
        for count in [200_000, 300_000] {
            let start = try InputFile.start(of: url, count: count)
            XCTAssertEqual(start.data, bytes, "\(count)")
            XCTAssertTrue(start.whole, "\(count)")
        }
        let fifo = folder.appendingPathComponent("fifo")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        XCTAssertEqual(reason { _ = try InputFile.start(of: fifo, count: 10) },
                       "is not a regular file (a FIFO, device or socket); refusing to read it")
    }

    /// A file one byte over the limit is refused, naming the limit.
    func testRefusesAFileOverTheLimit() throws {
        let url = folder.appendingPathComponent("big.bin")
        try Data(count: 1001).write(to: url)
        let refused = reason { try InputFile.contents(of: url, maxBytes: 1000) }
        XCTAssertEqual(refused, "is 1001 bytes, over the 1000-byte limit for this kind of file")
    }

    /// A missing file, a folder and a FIFO are refused with their reasons; the FIFO is not
    /// waited on (this test would hang if it were).
    func testRefusesWhatIsNotARegularFile() throws {
        XCTAssertEqual(reason { try InputFile.openRegular(self.folder.appendingPathComponent("none")) }, "no such file")
        XCTAssertEqual(reason { try InputFile.openRegular(self.folder) }, "is a folder, not a file")
        let fifo = folder.appendingPathComponent("fifo")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        XCTAssertEqual(reason { try InputFile.contents(of: fifo) },
                       "is not a regular file (a FIFO, device or socket); refusing to read it")
        XCTAssertEqual(reason { try InputFile.contents(of: URL(fileURLWithPath: "/dev/zero")) },
                       "is not a regular file (a FIFO, device or socket); refusing to read it")
    }

    /// The descriptor returned is read-only and blocking again.
    func testOpenRegularGivesAReadOnlyBlockingDescriptor() throws {
        let url = folder.appendingPathComponent("r.txt")
        try Data("x".utf8).write(to: url)
        let descriptor = try InputFile.openRegular(url)
        defer { close(descriptor) }
        let flags = fcntl(descriptor, F_GETFL)
        XCTAssertEqual(flags & O_ACCMODE, O_RDONLY)
        XCTAssertEqual(flags & O_NONBLOCK, 0)
    }
}
