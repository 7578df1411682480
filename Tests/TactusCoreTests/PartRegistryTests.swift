import TactusCore
import XCTest

final class PartRegistryTests: XCTestCase {
    private struct Part: Equatable { let id: String; let version: Int }

    private func registry() -> PartRegistry<Part> {
        PartRegistry(builtIn: [Part(id: "a", version: 1), Part(id: "b", version: 1)], id: { $0.id })
    }

    /// Built-in parts come first, in their order; registered ones follow, in registration order.
    func testAllListsBuiltInThenRegistered() {
        let parts = registry()
        parts.register(Part(id: "z", version: 1))
        parts.register(Part(id: "c", version: 1))
        XCTAssertEqual(parts.all.map(\.id), ["a", "b", "z", "c"])
        XCTAssertEqual(parts.builtIn.map(\.id), ["a", "b"])
    }

    /// Registering an id again replaces the earlier part instead of listing it twice.
    func testRegisteringAnIdAgainReplacesIt() {
        let parts = registry()
        parts.register(Part(id: "c", version: 1))
        parts.register(Part(id: "c", version: 2))
        XCTAssertEqual(parts.all.filter { $0.id == "c" }, [Part(id: "c", version: 2)])
        XCTAssertEqual(parts.named("c")?.version, 2)
    }

    /// Unregistering removes a registered part; a built-in part stays.
    func testUnregisterRemovesOnlyRegisteredParts() {
        let parts = registry()
        parts.register(Part(id: "c", version: 1))
        parts.unregister("c")
        parts.unregister("a")
        XCTAssertNil(parts.named("c"))
        XCTAssertEqual(parts.named("a"), Part(id: "a", version: 1))
        XCTAssertNil(parts.named("missing"))
    }

    /// Registrations from many threads at once are all kept, none lost to a race.
    func testConcurrentRegistrationsAreAllKept() {
        let parts = registry()
        let counter = Lock()
        var next = 0
        runOnThreads(8) {
            for _ in 0..<50 {
                let n = counter.withLock { () -> Int in next += 1; return next }
                parts.register(Part(id: "p\(n)", version: n))
            }
        }
        XCTAssertEqual(parts.all.count, 2 + 400)
        XCTAssertEqual(Set(parts.all.map(\.id)).count, 402)
    }
}
