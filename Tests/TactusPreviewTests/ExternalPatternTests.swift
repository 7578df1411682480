import Foundation
import TactusAHAP
import TactusCore
import TactusPreview
import XCTest

/// AHAPs written by others (Apple's sample patterns, Lofelt's and Meta's converters), from the
/// development set beside the repository (`../shared/external-haptics`, see its README): each
/// validates with no error Core Haptics would not raise, and previews.
final class ExternalPatternTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/external-haptics/ahap")

    private func patterns() throws -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Self.folder.path)) ?? []
        let ahaps = names.filter { $0.hasSuffix(".ahap") }.sorted().map { Self.folder.appendingPathComponent($0) }
        if ahaps.isEmpty { throw XCTSkip("no external AHAPs at \(Self.folder.path) (the development set is not beside the repository)") }
        return ahaps
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
            let summary = try PreviewRenderer.render(ahap: ahap, into: out, log: CommittedFiles())
            XCTAssertTrue(FileManager.default.fileExists(atPath: summary.page.path), ahap.lastPathComponent)
            let page = try String(contentsOf: summary.page, encoding: .utf8)
            XCTAssertFalse(page.contains("<script src"), "self-contained")
        }
    }
}
