import TactusCore

/// Precision/recall/F-measure of detected onset times against ground truth, with greedy
/// one-to-one matching of the closest pairs within a tolerance (as mir_eval does).
public struct OnsetScore: CustomStringConvertible {
    public var truePositives = 0
    public var falsePositives = 0
    public var falseNegatives = 0
    /// Signed errors (detected − truth) of the matched pairs, in seconds.
    public var errors: [Double] = []

    public static let empty = OnsetScore()

    public init() {}

    public init(detected: [Double], truth: [Double], tolerance: Double) {
        var pairs: [(Double, Int, Int)] = []
        for (i, d) in detected.enumerated() {
            for (j, t) in truth.enumerated() where abs(d - t) <= tolerance { pairs.append((abs(d - t), i, j)) }
        }
        pairs.sort { $0.0 < $1.0 || ($0.0 == $1.0 && ($0.1, $0.2) < ($1.1, $1.2)) }
        var usedD = Set<Int>(), usedT = Set<Int>()
        for (_, i, j) in pairs where !usedD.contains(i) && !usedT.contains(j) {
            usedD.insert(i)
            usedT.insert(j)
            errors.append(detected[i] - truth[j])
        }
        truePositives = errors.count
        falsePositives = detected.count - truePositives
        falseNegatives = truth.count - truePositives
    }

    public static func + (a: OnsetScore, b: OnsetScore) -> OnsetScore {
        var s = a
        s.truePositives += b.truePositives
        s.falsePositives += b.falsePositives
        s.falseNegatives += b.falseNegatives
        s.errors += b.errors
        return s
    }

    public var precision: Double {
        truePositives + falsePositives == 0 ? 1 : Double(truePositives) / Double(truePositives + falsePositives)
    }
    public var recall: Double {
        truePositives + falseNegatives == 0 ? 1 : Double(truePositives) / Double(truePositives + falseNegatives)
    }
    public var fMeasure: Double {
        precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall)
    }
    /// Median absolute timing error of matched pairs, in seconds.
    public var medianAbsoluteError: Double {
        Statistics.median(errors.map(abs))
    }

    public var description: String {
        String(printf: "P %.3f R %.3f F %.3f (TP %d FP %d FN %d), median |error| %.2f ms",
               precision, recall, fMeasure, truePositives, falsePositives, falseNegatives, medianAbsoluteError * 1000)
    }
}
