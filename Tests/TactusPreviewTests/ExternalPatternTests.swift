import Foundation
import TactusAHAP
import TactusCore
import TactusFiles
import TactusHaptic
import TactusPreview
import TactusTestSupport
import XCTest

/// AHAPs written by others (Apple's sample patterns, Lofelt's and Meta's converters) and
/// `.haptic` files exported by Lofelt Studio, from the development set beside the repository
/// (`../shared/external-haptics` or `$TACTUS_EXTERNAL_HAPTICS`, see its README): each validates with no error its own player
/// would not raise, and previews.
final class ExternalPatternTests: XCTestCase {
    static let folder = ExternalHaptics.folder.appendingPathComponent("ahap")

    private func patterns() throws -> [URL] { try files("ahap", in: Self.folder) }

    /// The development set's files ending in `.<kind>` in `folder`; skips where there are none.
    private func files(_ kind: String, in folder: URL) throws -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let found = names.filter { $0.hasSuffix("." + kind) }.sorted().map { folder.appendingPathComponent($0) }
        if found.isEmpty { throw XCTSkip(ExternalHaptics.absent("external .\(kind) files at \(folder.path)")) }
        return found
    }

    /// Lofelt Studio's exports pass the rules of Meta's legacy reader (what Haptics Studio loads
    /// files with): no errors; the frequency breakpoints past the amplitude envelope that 23 of
    /// them have are warnings (Meta's Strict mode refuses them). Each previews.
    func testOthersHapticFilesValidateAndPreview() throws {
        let hapticFiles = try files("haptic", in: Self.folder.deletingLastPathComponent().appendingPathComponent("haptic"))
        XCTAssertGreaterThanOrEqual(hapticFiles.count, 5)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("external-haptic-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        var warned = 0
        for file in hapticFiles {
            let findings = HapticFileFormat().validate(try Data(contentsOf: file), baseDirectory: nil)
            XCTAssertEqual(findings.filter { $0.severity == .error }, [], file.lastPathComponent)
            if !findings.isEmpty { warned += 1 }
            let summary = try PreviewRenderer.render(file: file, format: HapticFileFormat(), into: out, log: CommittedFiles())
            XCTAssertTrue(FileManager.default.fileExists(atPath: summary.page.path), file.lastPathComponent)
        }
        XCTAssertEqual(warned, 23, "the files whose frequency envelope outlasts the amplitude one")
    }

    func testOthersPatternsValidateWithoutErrors() throws {
        let ahaps = try patterns()
        XCTAssertGreaterThanOrEqual(ahaps.count, 20)
        for ahap in ahaps {
            let report = AHAPValidator(baseDirectory: ahap.deletingLastPathComponent()).validate(contentsOf: ahap)
            XCTAssertTrue(report.isValid, "\(ahap.lastPathComponent):\n\(report)")
        }
        let gravel = Self.folder.appendingPathComponent("hb_Gravel.ahap")
        XCTAssertEqual(AHAPValidator().validate(contentsOf: gravel).diagnostics.filter { $0.location == "Version" }.map(\.severity),
                       [.warning], "no Version: a warning, as it plays")
    }

    func testOthersPatternsPreview() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("external-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        for ahap in try patterns() {
            let summary = try PreviewRenderer.render(file: ahap, format: AHAPFormat(), into: out, log: CommittedFiles())
            XCTAssertTrue(FileManager.default.fileExists(atPath: summary.page.path), ahap.lastPathComponent)
            let page = try String(contentsOf: summary.page, encoding: .utf8)
            XCTAssertFalse(page.contains("<script src"), "self-contained")
        }
    }
}
