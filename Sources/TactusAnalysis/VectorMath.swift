// Sums here run in fixed independent lanes, so the loops vectorise (a single float
// accumulator would force strict left-to-right order) and, the lane order being fixed, give
// the same result on every run and thread.

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

/// `out[i] = a[i] * b[i]`, eight at a time; returns Σ a[i]² from the same pass (the frame's
/// energy before windowing), in eight fixed lanes.
@inline(__always) func multiply(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>,
                                into out: UnsafeMutablePointer<Float>, count: Int) -> Float {
    var energy = SIMD8<Float>(repeating: 0)
    var i = 0
    while i + 8 <= count {
        let x = UnsafeRawPointer(a + i).loadUnaligned(as: SIMD8<Float>.self)
        let y = UnsafeRawPointer(b + i).loadUnaligned(as: SIMD8<Float>.self)
        UnsafeMutableRawPointer(out + i).storeBytes(of: x * y, as: SIMD8<Float>.self)
        energy += x * x
        i += 8
    }
    var total = energy.sum()
    while i < count {
        out[i] = a[i] * b[i]
        total += a[i] * a[i]
        i += 1
    }
    return total
}

/// Power and magnitude of `count` complex values stored as (real, imaginary) pairs, each
/// part scaled by `scale` first: `power[k] = (re·s)² + (im·s)²`, `magnitude[k] = √power[k]`,
/// four bins per step in one pass. The square root's argument is clamped at zero (a NaN
/// gives 0): a plain `squareRoot()` keeps a scalar libm fallback per element for the
/// negative case, which cost more than the rest of the frame's bin arithmetic.
@inline(__always) func powerAndMagnitude(ofInterleaved complex: UnsafePointer<Float>, scale: Float,
                                         power: UnsafeMutablePointer<Float>, magnitude: UnsafeMutablePointer<Float>,
                                         count: Int) {
    var k = 0
    while k + 4 <= count {
        let v = UnsafeRawPointer(complex + 2 * k).loadUnaligned(as: SIMD8<Float>.self) * scale
        let squares = v * v
        let p = squares.evenHalf + squares.oddHalf
        UnsafeMutableRawPointer(power + k).storeBytes(of: p, as: SIMD4<Float>.self)
        UnsafeMutableRawPointer(magnitude + k).storeBytes(of: p.replacing(with: 0, where: .!(p .>= 0)).squareRoot(),
                                                          as: SIMD4<Float>.self)
        k += 4
    }
    while k < count {
        let re = complex[2 * k] * scale, im = complex[2 * k + 1] * scale
        power[k] = re * re + im * im
        magnitude[k] = (power[k] >= 0 ? power[k] : 0).squareRoot()
        k += 1
    }
}
