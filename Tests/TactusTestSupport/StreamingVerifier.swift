import Foundation

/// Checks a streaming part the way swift-nio's `ByteToMessageDecoderVerifier` checks a
/// decoder: the same input handed over in blocks of 1, 3 and 1,024 samples and in seeded
/// random sizes must give bit-identical output to one single block, and that output must
/// agree with a naive reference.
///
/// `run` feeds the part the signal in blocks of the given sizes (cycled) and returns what it
/// produced; `Output` compares bit for bit (`[Float]` compares `==`, so use `bitPatterns` for
/// outputs that may hold NaN or signed zeros). A mismatch throws `Mismatch`, which fails the
/// calling test with the schedule that differed.
public enum StreamingVerifier {
    /// The block-size schedules every streaming part is fed.
    public static func schedules(count: Int, seed: UInt64 = 0x7AC7) -> [(name: String, blocks: [Int])] {
        var generator = SeededGenerator(seed: seed)
        let random = (0..<64).map { _ in Int.random(in: 1...777, using: &generator) }
        return [("1", [1]), ("3", [3]), ("1024", [1024]), ("random", random), ("one block", [max(1, count)])]
    }

    /// Blocks of some schedule gave other output than one block.
    public struct Mismatch: Error, CustomStringConvertible {
        public let schedule: String
        public var description: String { "blocks of \(schedule) differ from one block" }
    }

    /// Verifies `run` against its own one-block output, then hands that output to `reference`
    /// (which asserts what a naive implementation gives).
    public static func verify<Output: Equatable>(
        count: Int, run: ([Int]) throws -> Output, reference: (Output) throws -> Void
    ) throws {
        let whole = try run([max(1, count)])
        for schedule in schedules(count: count) where try run(schedule.blocks) != whole {
            throw Mismatch(schedule: schedule.name)
        }
        try reference(whole)
    }

    /// Splits `0..<count` into consecutive ranges of the given sizes, cycled.
    public static func ranges(count: Int, blocks: [Int]) -> [Range<Int>] {
        var ranges: [Range<Int>] = [], start = 0, index = 0
        while start < count {
            let end = min(count, start + blocks[index % blocks.count])
            ranges.append(start..<end)
            start = end
            index += 1
        }
        return ranges
    }

    /// Floats as their bit patterns, for comparisons that must be exact.
    public static func bitPatterns(_ values: [Float]) -> [UInt32] { values.map(\.bitPattern) }
}
