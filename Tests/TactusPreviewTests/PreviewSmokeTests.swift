import XCTest
@testable import TactusPreview

final class PreviewSmokeTests: XCTestCase {
    func testModuleLinks() {
        XCTAssertNotNil(TactusPreview.self)
    }
}
