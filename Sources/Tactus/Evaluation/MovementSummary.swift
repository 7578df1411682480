import TactusCore

/// `Movement` summarised over a group of files (a folder, a category, all): means over the
/// files where each measure is defined, and the moving sounds apart.
public struct MovementSummary: Sendable, Equatable {
    /// The group's name, as the report prints it (`ALL`, `folder X`, `category X`).
    public var name: String
    /// Files in the group.
    public var files = 0
    /// Files with body frames (their sharpness measured).
    public var bodyFiles = 0
    /// Mean over files of `Movement.sharpnessSpread` (0…1).
    public var sharpnessSpread: Double?
    /// Mean over files of `Movement.sharpnessPearson` (−1…1).
    public var sharpnessPearson: Double?
    /// Mean over files of `Movement.sharpnessSlopePerOctave` (sharpness per octave).
    public var sharpnessSlopePerOctave: Double?
    /// Mean over files of `Movement.sharpnessRailShare` (0…1).
    public var sharpnessRailShare: Double?
    /// Transients played, over the files.
    public var transients = 0
    /// Share of them at `Movement.transientTopSharpness` or above (0…1); nil without transients.
    public var transientTopShare: Double?
    /// Moving sounds (`Movement.isMovingSound`) in the group.
    public var movingFiles = 0
    /// Median `Movement.sharpnessSpread` of the moving sounds (0…1).
    public var movingSpreadMedian: Double?
    /// Share of the moving sounds whose sharpness spread is at least `movingSpreadTarget` (0…1).
    public var movingSpreadShare: Double?
    /// Median `Movement.sharpnessPearson` of the moving sounds (−1…1).
    public var movingPearsonMedian: Double?
    /// Files where the envelope measure is defined.
    public var envelopeFiles = 0
    /// Mean over files of `Movement.intensitySpread` (0…1).
    public var intensitySpread: Double?
    /// Mean over files of `Movement.intensitySlopePer10Db` (intensity per 10 dB).
    public var intensitySlopePer10Db: Double?
    /// Mean over files of `Movement.intensityLowRailShare` (0…1).
    public var intensityLowRailShare: Double?
    /// Mean over files of `Movement.intensityHighRailShare` (0…1).
    public var intensityHighRailShare: Double?
    /// Mean over files of `Movement.envelope` (−1…1).
    public var envelope: Double?
    /// Lowest `Movement.envelope` of a file (−1…1).
    public var lowestEnvelope: Double?

    /// A moving sound's sharpness spread counts as moving with it from this (0…1).
    public static let movingSpreadTarget = 0.1

    /// - Parameters:
    ///   - name: the group's name.
    ///   - movements: each file's measures.
    public init(name: String, _ movements: [Movement]) {
        self.name = name
        files = movements.count
        func mean(_ metric: (Movement) -> Double?) -> Double? {
            let values = movements.compactMap(metric)
            return values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
        }
        bodyFiles = movements.filter { $0.bodyFrames > 0 }.count
        sharpnessSpread = mean(\.sharpnessSpread)
        sharpnessPearson = mean(\.sharpnessPearson)
        sharpnessSlopePerOctave = mean(\.sharpnessSlopePerOctave)
        sharpnessRailShare = mean(\.sharpnessRailShare)
        transients = movements.reduce(0) { $0 + $1.transients }
        let top = movements.reduce(0) { $0 + $1.transientsAtTopSharpness }
        transientTopShare = transients > 0 ? Double(top) / Double(transients) : nil
        let moving = movements.filter(\.isMovingSound)
        movingFiles = moving.count
        let spreads = moving.compactMap(\.sharpnessSpread), pearsons = moving.compactMap(\.sharpnessPearson)
        movingSpreadMedian = spreads.isEmpty ? nil : Statistics.median(spreads)
        movingSpreadShare = spreads.isEmpty ? nil : Movement.share(spreads) { $0 >= Self.movingSpreadTarget }
        movingPearsonMedian = pearsons.isEmpty ? nil : Statistics.median(pearsons)
        envelopeFiles = movements.filter { $0.envelope != nil }.count
        intensitySpread = mean(\.intensitySpread)
        intensitySlopePer10Db = mean(\.intensitySlopePer10Db)
        intensityLowRailShare = mean(\.intensityLowRailShare)
        intensityHighRailShare = mean(\.intensityHighRailShare)
        envelope = mean(\.envelope)
        lowestEnvelope = movements.compactMap(\.envelope).min()
    }

    /// The header of `line`'s columns.
    public static let header = "group                   files | sharpness: body spread      r /octave  rails top≥.99 | moving: files spread ≥0.1 "
        + "     r | intensity: spread /10 dB  <0.05  >0.95 | envelope  lowest"

    /// The summary on one line, under `header`; "–" where a measure is undefined.
    public var line: String {
        func value(_ x: Double?, _ format: String = "%6.3f") -> String { x.map { String(printf: format, $0) } ?? "     –" }
        return name.padded(toLength: 23) + String(printf: " %5d |            %4d ", files, bodyFiles)
            + value(sharpnessSpread) + " " + value(sharpnessPearson) + " " + value(sharpnessSlopePerOctave, "%7.3f")
            + " " + value(sharpnessRailShare) + "  " + value(transientTopShare) + " |" + String(printf: "  %5d ", movingFiles)
            + value(movingSpreadMedian) + " " + value(movingSpreadShare, "%5.2f") + " " + value(movingPearsonMedian) + " |          "
            + value(intensitySpread) + " " + value(intensitySlopePer10Db) + " " + value(intensityLowRailShare) + " "
            + value(intensityHighRailShare) + " |   " + value(envelope) + "  " + value(lowestEnvelope)
    }

    /// The summary as a JSON object, numbers to 6 decimals (null where undefined).
    public var json: JSONValue {
        .object([("group", .string(name)), ("files", .number(Double(files))), ("bodyFiles", .number(Double(bodyFiles))),
                 ("sharpnessSpread", .decimal(sharpnessSpread)), ("sharpnessPearson", .decimal(sharpnessPearson)),
                 ("sharpnessSlopePerOctave", .decimal(sharpnessSlopePerOctave)), ("sharpnessRailShare", .decimal(sharpnessRailShare)),
                 ("transients", .number(Double(transients))), ("transientTopShare", .decimal(transientTopShare)),
                 ("movingFiles", .number(Double(movingFiles))), ("movingSpreadMedian", .decimal(movingSpreadMedian)),
                 ("movingSpreadShare", .decimal(movingSpreadShare)), ("movingPearsonMedian", .decimal(movingPearsonMedian)),
                 ("envelopeFiles", .number(Double(envelopeFiles))), ("intensitySpread", .decimal(intensitySpread)),
                 ("intensitySlopePer10Db", .decimal(intensitySlopePer10Db)),
                 ("intensityLowRailShare", .decimal(intensityLowRailShare)),
                 ("intensityHighRailShare", .decimal(intensityHighRailShare)),
                 ("envelope", .decimal(envelope)), ("lowestEnvelope", .decimal(lowestEnvelope))])
    }
}

extension Movement {
    /// The file's measures as a JSON object, numbers to 6 decimals (null where undefined).
    public var json: JSONValue {
        .object([("bodyFrames", .number(Double(bodyFrames))), ("sharpnessSpread", .decimal(sharpnessSpread)),
                 ("sharpnessPearson", .decimal(sharpnessPearson)), ("sharpnessSlopePerOctave", .decimal(sharpnessSlopePerOctave)),
                 ("sharpnessRailShare", .decimal(sharpnessRailShare)), ("centroidSpreadOctaves", .decimal(centroidSpreadOctaves)),
                 ("movingSound", .bool(isMovingSound)),
                 ("transients", .number(Double(transients))), ("transientsAtTopSharpness", .number(Double(transientsAtTopSharpness))),
                 ("envelopeFrames", .number(Double(envelopeFrames))), ("intensitySpread", .decimal(intensitySpread)),
                 ("intensitySlopePer10Db", .decimal(intensitySlopePer10Db)),
                 ("intensityLowRailShare", .decimal(intensityLowRailShare)),
                 ("intensityHighRailShare", .decimal(intensityHighRailShare)),
                 ("envelope", .decimal(envelope)), ("envelopeLag", .number(Double(envelopeLag))),
                 ("peakIntensity", .decimal(peakIntensity)), ("meanBodySharpness", .decimal(meanBodySharpness))])
    }
}

extension JSONValue {
    /// A number rounded to 6 decimals, or null for nil or a value that is not finite.
    /// - Parameter x: the number.
    /// - Returns: `.number` or `.null`.
    static func decimal(_ x: Double?) -> JSONValue {
        guard let x, x.isFinite else { return .null }
        return .number((x * 1e6).rounded() / 1e6)
    }
}
