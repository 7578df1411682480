import TactusCore

/// Small statistics used by the evaluation: correlation and ranks.
public enum Statistics {
    /// Pearson correlation; nil when either series is constant (correlation undefined).
    /// - Parameters:
    ///   - x: one series.
    ///   - y: the other, as long (extra values of the longer are ignored).
    /// - Returns: the correlation, −1…1, or nil (also for fewer than 3 pairs).
    public static func pearson(_ x: [Double], _ y: [Double]) -> Double? {
        let n = Double(min(x.count, y.count))
        guard n > 2 else { return nil }
        let mx = x.reduce(0, +) / n, my = y.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for (a, b) in zip(x, y) {
            sxy += (a - mx) * (b - my)
            sxx += (a - mx) * (a - mx)
            syy += (b - my) * (b - my)
        }
        guard sxx > 1e-12, syy > 1e-12 else { return nil }
        return sxy / (sxx * syy).squareRoot()
    }

    /// Least-squares slope of `y` on `x`: the change of y per unit of x.
    /// - Parameters:
    ///   - x: the predictor.
    ///   - y: the predicted series, as long (extra values of the longer are ignored).
    /// - Returns: the slope, or nil when x is constant or there are fewer than 2 pairs.
    public static func slope(_ x: [Double], _ y: [Double]) -> Double? {
        let n = Double(min(x.count, y.count))
        guard n > 1 else { return nil }
        let mx = x.prefix(Int(n)).reduce(0, +) / n, my = y.prefix(Int(n)).reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0
        for (a, b) in zip(x, y) {
            sxy += (a - mx) * (b - my)
            sxx += (a - mx) * (a - mx)
        }
        return sxx > 1e-12 ? sxy / sxx : nil
    }

    /// Spearman rank correlation (Pearson on average ranks).
    /// - Parameters:
    ///   - x: one series.
    ///   - y: the other, as long.
    /// - Returns: the rank correlation, −1…1, or nil when either series is constant.
    public static func spearman(_ x: [Double], _ y: [Double]) -> Double? {
        pearson(ranks(x), ranks(y))
    }

    /// Ranks from 1, ties sharing their average rank.
    /// - Parameter values: any values.
    /// - Returns: each value's rank, in the values' order.
    public static func ranks(_ values: [Double]) -> [Double] {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = [Double](repeating: 0, count: values.count)
        var i = 0
        while i < order.count {
            var j = i
            while j + 1 < order.count, values[order[j + 1]] == values[order[i]] { j += 1 }
            let rank = Double(i + j) / 2 + 1
            for k in i...j { ranks[order[k]] = rank }
            i = j + 1
        }
        return ranks
    }

    /// The median (`TactusCore.median`), 0 for no values.
    /// - Parameter values: any values.
    /// - Returns: the median.
    public static func median(_ values: [Double]) -> Double {
        TactusCore.median(ofSorted: values.sorted()) ?? 0
    }

    /// The value below which `fraction` of the values lie (nearest rank).
    /// - Parameters:
    ///   - values: any values.
    ///   - fraction: 0…1 (0.5 is about the median).
    /// - Returns: the value at that rank, 0 for no values.
    public static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.down)))]
    }
}
