/// Levels of short blocks of the recent waveform, for judging a hit over a noise bed: a
/// 20 ms frame dilutes a click's first milliseconds with the bed around them, a 2.5 ms block
/// does not.
enum BlockLevels {
    /// How far, in dB, the loudest `block`-sample block of samples `from..<to` stands above
    /// the loudest block of the `before` samples ending at `from`. Blocks are counted from
    /// each span's start; a partial block at a span's end is left out. 0 when the history no
    /// longer (or not yet) holds both spans, or a span has no whole block.
    static func jump(in history: SampleHistory, from: Int, to: Int, before: Int, block: Int) -> Float {
        guard let after = loudestBlockPower(in: history, from: from, to: to, block: block),
              let bed = loudestBlockPower(in: history, from: from - before, to: from, block: block) else { return 0 }
        return decibels(power: after) - decibels(power: bed)
    }

    /// Mean power of the loudest whole block of `block` samples in `from..<to`, or nil when the
    /// history does not hold the whole span or it has no whole block.
    static func loudestBlockPower(in history: SampleHistory, from: Int, to: Int, block: Int) -> Float? {
        guard from >= history.start, to <= history.end, to - from >= block else { return nil }
        var loudest: Float = 0
        for blockStart in stride(from: from, through: to - block, by: block) {
            loudest = max(loudest, history.energy(from: blockStart, to: blockStart + block))
        }
        return loudest / Float(block)
    }
}
