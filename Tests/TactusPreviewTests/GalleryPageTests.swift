import Foundation
import TactusTestSupport
@testable import TactusPreview
import XCTest
import TactusAHAP
import TactusCore
import TactusFiles

final class GalleryPageTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = AudioFixture.temporaryDirectory(name)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testOneRowPerFileSortedByNameWithRelativeLinksAndWarningCounts() throws {
        let sub = folder.appendingPathComponent("ui", isDirectory: true)
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let tap = try PreviewFixtures.writeAHAP([PreviewFixtures.transient(0.05, intensity: 1, sharpness: 1)],
                                               named: "tap", in: sub)
        let hum = try PreviewFixtures.writeAHAP([PreviewFixtures.continuous(0, duration: 0.2, intensity: 0.5, sharpness: 0)],
                                               named: "Hum", in: folder)
        let rows = [
            GalleryRow(name: "ui/tap.wav", status: .ok, warnings: ["one", "two"],
                       preview: try PreviewRenderer.render(file: tap, format: AHAPFormat(), into: sub, log: CommittedFiles())),
            GalleryRow(name: "broken.ogg", status: .failed("is not audio libsndfile can read")),
            GalleryRow(name: "Hum.wav", status: .ok, preview: try PreviewRenderer.render(file: hum, format: AHAPFormat(), into: folder, log: CommittedFiles())),
        ]
        let index = folder.appendingPathComponent("index.html")
        try GalleryPage.write(rows: rows, to: index, log: CommittedFiles())

        let text = try String(contentsOf: index, encoding: .utf8)
        let page = try ParsedMarkup(text)
        let tableRows = page.all("tr").filter { $0.attributes["data-name"] != nil }
        XCTAssertEqual(tableRows.map { $0.attributes["data-name"] }, ["broken.ogg", "hum.wav", "ui/tap.wav"])
        XCTAssertEqual(tableRows.map { $0.attributes["data-warnings"] }, ["0", "0", "2"])
        XCTAssertEqual(page.all("img").compactMap { $0.attributes["src"] }, ["Hum.svg", "ui/tap.svg"])
        XCTAssertEqual(page.all("button", class: "play").compactMap { $0.attributes["data-src"] },
                       ["Hum.haptics.wav", "ui/tap.haptics.wav"])
        XCTAssertEqual(Set(page.all("button").compactMap { $0.attributes["data-sort"] }), ["name", "warnings"])
        XCTAssertTrue(page.all("span", class: "muted").contains { $0.text == "is not audio libsndfile can read" })
        for reference in page.references(in: text) {
            XCTAssertTrue(isLocalRelative(reference), reference)
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent(reference).path), reference)
        }
        XCTAssertEqual(try PreviewFixtures.names(in: folder).filter { $0.hasPrefix(".") }, [], "no temporaries left")
    }

    func testRelativeReferencesClimbOutOfTheFolderAndEscapeSpecialCharacters() {
        let page = URL(fileURLWithPath: "/work/out/sub", isDirectory: true)
        XCTAssertEqual(RelativePath.reference(to: URL(fileURLWithPath: "/work/sounds/a b#1.wav"), from: page),
                       "../../sounds/a%20b%231.wav")
        XCTAssertEqual(RelativePath.reference(to: URL(fileURLWithPath: "/work/out/sub/x:y.svg"), from: page), "x%3Ay.svg")
    }
}
