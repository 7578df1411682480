/// Dot product in eight independent lanes, so the loop vectorises (a single float
/// accumulator would force strict left-to-right order). The lane order is fixed, so the
/// result is the same on every run and thread.
@inline(__always) func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
    var lanes = SIMD8<Float>(repeating: 0)
    let whole = count / 8 * 8
    var i = 0
    while i < whole {
        let x = UnsafeRawPointer(a + i).loadUnaligned(as: SIMD8<Float>.self)
        let y = UnsafeRawPointer(b + i).loadUnaligned(as: SIMD8<Float>.self)
        lanes += x * y
        i += 8
    }
    var total = lanes.sum()
    while i < count {
        total += a[i] * b[i]
        i += 1
    }
    return total
}
