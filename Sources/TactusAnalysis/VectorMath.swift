// Sums here run in fixed independent lanes, so the loops vectorise (a single float
// accumulator would force strict left-to-right order) and, the lane order being fixed, give
// the same result on every run and thread. Loop counters step with wrapping arithmetic
// (`&+`, `&*`): counts are array lengths, far from overflow, and a checked step costs an
// add and a branch per vector.

/// Dot product of a length that is a multiple of four, in four fixed lanes.
@inline(__always) func dotInFours(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
    var lanes = SIMD4<Float>(repeating: 0)
    var i = 0
    while i < count {
        lanes += UnsafeRawPointer(a + i).loadUnaligned(as: SIMD4<Float>.self)
            * UnsafeRawPointer(b + i).loadUnaligned(as: SIMD4<Float>.self)
        i &+= 4
    }
    return lanes.sum()
}

/// The dot products of `a` with `b` and with `c` in one pass over `a`, of a length that is a
/// multiple of four, each in four fixed lanes.
@inline(__always) func dotPairInFours(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ c: UnsafePointer<Float>,
                                      count: Int) -> (Float, Float) {
    var first = SIMD4<Float>(repeating: 0), second = SIMD4<Float>(repeating: 0)
    var i = 0
    while i < count {
        let x = UnsafeRawPointer(a + i).loadUnaligned(as: SIMD4<Float>.self)
        first += x * UnsafeRawPointer(b + i).loadUnaligned(as: SIMD4<Float>.self)
        second += x * UnsafeRawPointer(c + i).loadUnaligned(as: SIMD4<Float>.self)
        i &+= 4
    }
    return (first.sum(), second.sum())
}

/// Σ a[i]² over `count` values: the whole groups of four as `dotInFours`, then the rest.
@inline(__always) func sumOfSquares(_ a: UnsafePointer<Float>, count: Int) -> Float {
    let whole = count & ~3
    var total = dotInFours(a, a, count: whole)
    for i in whole..<count { total += a[i] * a[i] }
    return total
}

/// `out[i] = a[i] * b[i]`, eight at a time; returns Σ a[i]² from the same pass (the frame's
/// energy before windowing), in eight fixed lanes.
@inline(__always) func multiply(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>,
                                into out: UnsafeMutablePointer<Float>, count: Int) -> Float {
    var energy = SIMD8<Float>(repeating: 0)
    var i = 0
    while i &+ 8 <= count {
        let x = UnsafeRawPointer(a + i).loadUnaligned(as: SIMD8<Float>.self)
        let y = UnsafeRawPointer(b + i).loadUnaligned(as: SIMD8<Float>.self)
        UnsafeMutableRawPointer(out + i).storeBytes(of: x * y, as: SIMD8<Float>.self)
        energy += x * x
        i &+= 8
    }
    var total = energy.sum()
    while i < count {
        out[i] = a[i] * b[i]
        total += a[i] * a[i]
        i += 1
    }
    return total
}

/// Power of `count` complex values stored as (real, imaginary) pairs, each part scaled by
/// `scale` first: `power[k] = (re·s)² + (im·s)²`, four bins per step.
@inline(__always) func power(ofInterleaved complex: UnsafePointer<Float>, scale: Float,
                             into power: UnsafeMutablePointer<Float>, count: Int) {
    var k = 0
    while k &+ 4 <= count {
        let v = UnsafeRawPointer(complex + 2 &* k).loadUnaligned(as: SIMD8<Float>.self) * scale
        let squares = v * v
        UnsafeMutableRawPointer(power + k).storeBytes(of: squares.evenHalf + squares.oddHalf, as: SIMD4<Float>.self)
        k &+= 4
    }
    while k < count {
        let re = complex[2 * k] * scale, im = complex[2 * k + 1] * scale
        power[k] = re * re + im * im
        k += 1
    }
}

/// |x| in every lane, exactly: the sign bits cleared (−0 and NaN included, without a compare).
@inline(__always) func absolute(_ x: SIMD4<Float>) -> SIMD4<Float> {
    unsafeBitCast(unsafeBitCast(x, to: SIMD4<UInt32>.self) & 0x7FFF_FFFF, to: SIMD4<Float>.self)
}

/// `absolute(_:)` eight lanes at a time.
@inline(__always) func absolute(_ x: SIMD8<Float>) -> SIMD8<Float> {
    unsafeBitCast(unsafeBitCast(x, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
}

/// The magnitude of a bin from its power, `√power`, with the argument clamped at zero (a
/// NaN gives 0): a plain `squareRoot()` keeps a scalar libm fallback per element for the
/// negative case, which cost more than the rest of the frame's bin arithmetic. Square roots
/// are correctly rounded, so the vector and scalar forms agree bit for bit.
@inline(__always) func magnitude(ofPower p: SIMD4<Float>) -> SIMD4<Float> {
    // The sign bit cleared first (a power spectrum has none: sums of squares are never −0),
    // so the compiler can see the argument is never negative and the square roots need no
    // libm fallback; the select keeps only the lanes where `p ≥ 0`, as before.
    absolute(p).replacing(with: 0, where: .!(p .>= 0)).squareRoot()
}

/// The scalar form of `magnitude(ofPower:)`, for the bins after the last whole group of four.
@inline(__always) func magnitude(ofPower p: Float) -> Float {
    (p >= 0 ? p : 0).squareRoot()
}

/// `magnitude[k] = magnitude(ofPower: power[k])` for `count` bins, four per step.
func magnitudes(ofPower power: UnsafePointer<Float>, into magnitude: UnsafeMutablePointer<Float>, count: Int) {
    var k = 0
    while k &+ 4 <= count {
        let p = UnsafeRawPointer(power + k).loadUnaligned(as: SIMD4<Float>.self)
        UnsafeMutableRawPointer(magnitude + k).storeBytes(of: TactusAnalysis.magnitude(ofPower: p), as: SIMD4<Float>.self)
        k &+= 4
    }
    while k < count {
        magnitude[k] = TactusAnalysis.magnitude(ofPower: power[k])
        k += 1
    }
}
