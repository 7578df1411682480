import AllocationCounter
import TactusLive
import XCTest

/// After set-up, pushing audio allocates nothing (with either `peaks.liveDecision`), takes no lock and reads or writes nothing
/// (counted on the pushing thread by the test-only `AllocationCounter`, which stands in for
/// libc's malloc, pthread_mutex_lock, read and write). Linux only: elsewhere the counter
/// counts nothing. Optimized builds only (`make check-live`: `swift test -c release`): without
/// optimization Swift boxes the variables a nested function or closure captures on the heap,
/// so a debug build allocates where the shipped code does not.
final class LiveAllocationTests: XCTestCase {
    func testPushingBlocksAllocatesNothing() throws {
        #if !os(Linux)
        throw XCTSkip("the allocation counter interposes glibc")
        #elseif DEBUG
        throw XCTSkip("counted in optimized builds only (swift test -c release): -Onone boxes captured variables")
        #else
        let sounds = [("clean/gunshots_stereo48k.wav", 512), ("multi/door_open_close.wav", 1031), ("clean/ui_clicks.wav", 64)]
        for ((path, block), decision) in sounds.flatMap({ sound in ["peak", "rise"].map { (sound, $0) } }) {
            let sound = try LiveFixtures.sound(path)
            let preset = try LiveFixtures.preset(overrides: ["peaks.liveDecision=\(decision)"])
            let live = try LiveHaptics(preset: preset, sampleRate: sound.rate, channels: sound.channels)
            var events: [LiveEvent] = []
            events.reserveCapacity(100_000)
            let warmUp = Int(sound.rate / 10) * sound.channels
            // The first pushes run the Swift runtime's one-time work (type metadata); the rest is counted.
            try sound.samples.withUnsafeBufferPointer { all in
                live.push(interleaved: UnsafeBufferPointer(rebasing: all[0..<warmUp])) { events.append($0) }
                var start = warmUp, blocks = 0
                allocation_counter_start()
                while start < all.count {
                    let end = min(all.count, start + block * sound.channels)
                    live.push(interleaved: UnsafeBufferPointer(rebasing: all[start..<end])) { events.append($0) }
                    start = end
                    blocks += 1
                }
                let counts = allocation_counter_stop()
                XCTAssertEqual(counts.allocations, 0, "\(path), \(decision): allocations over \(blocks) blocks")
                XCTAssertEqual(counts.locks, 0, "\(path), \(decision): locks")
                XCTAssertEqual(counts.inputOutput, 0, "\(path), \(decision): reads and writes")
                XCTAssertGreaterThan(blocks, 10)
                guard events.contains(where: { $0.kind == .transient }) else { throw XCTSkip("\(path) gave no transient") }
            }
        }
        #endif
    }
}
