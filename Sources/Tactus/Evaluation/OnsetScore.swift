import TactusCore

/// Precision/recall/F-measure of detected onset times against ground truth, with greedy
/// one-to-one matching of the closest pairs within a tolerance (as mir_eval does).
public struct OnsetScore: CustomStringConvertible {
    /// Detections matched to an annotated onset.
    public var truePositives = 0
    /// Detections matched to none.
    public var falsePositives = 0
    /// Annotated onsets no detection matched.
    public var falseNegatives = 0
    /// Signed errors (detected − truth) of the matched pairs, in seconds.
    public var errors: [Double] = []

    /// No detections and no onsets: the start of a sum.
    public static let empty = OnsetScore()

    /// An empty score (`empty`).
    public init() {}

    /// - Parameters:
    ///   - detected: detected onset times, in seconds.
    ///   - truth: annotated onset times, in seconds.
    ///   - tolerance: the largest |detected − truth| of a match, in seconds.
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

    /// The counts and errors of both, pooled.
    public static func + (a: OnsetScore, b: OnsetScore) -> OnsetScore {
        var s = a
        s.truePositives += b.truePositives
        s.falsePositives += b.falsePositives
        s.falseNegatives += b.falseNegatives
        s.errors += b.errors
        return s
    }

    /// Share of detections that are hits, 0…1 (1 when nothing was detected).
    public var precision: Double {
        truePositives + falsePositives == 0 ? 1 : Double(truePositives) / Double(truePositives + falsePositives)
    }
    /// Share of annotated onsets found, 0…1 (1 when there are none).
    public var recall: Double {
        truePositives + falseNegatives == 0 ? 1 : Double(truePositives) / Double(truePositives + falseNegatives)
    }
    /// Harmonic mean of precision and recall, 0…1.
    public var fMeasure: Double {
        precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall)
    }
    /// Median absolute timing error of matched pairs, in seconds.
    public var medianAbsoluteError: Double {
        Statistics.median(errors.map(abs))
    }

    /// Precision, recall, F, the counts and the median error in ms, on one line.
    public var description: String {
        String(printf: "P %.3f R %.3f F %.3f (TP %d FP %d FN %d), median |error| %.2f ms",
               precision, recall, fMeasure, truePositives, falsePositives, falseNegatives, medianAbsoluteError * 1000)
    }
}
