import TactusCore
import TactusPlatform

/// A `<stem>.rumble.json` read from untrusted bytes against the rules of
/// `Integrations/Rumble/FORMAT.md`, every problem found (not only the first), and what it
/// plays as a track: the timeline's runs of motion as continuous regions holding each step's
/// intensity and sharpness (`RumbleFormat.track(low:high:)`), the listed transients as
/// transients at their pulses' starts.
struct RumbleFileReader {
    struct File {
        var track: HapticTrack
        var metadata: [MetadataEntry]
    }

    /// Most steps read (a day at 1 ms), so a hostile file cannot make the track unbounded.
    static let maxSteps = 86_400_000

    private var findings = FormatFindings()

    static func inspect(_ data: Data) -> (file: File?, diagnostics: [FormatDiagnostic]) {
        var reader = RumbleFileReader()
        guard let json = reader.findings.json(data) else { return (nil, reader.findings.all) }
        let file = reader.file(json)
        return (reader.findings.hasErrors ? nil : file, reader.findings.all)
    }

    private mutating func file(_ json: JSONValue) -> File? {
        guard case .object = json else {
            findings.error("wrongType", "", "expected an object, found \(json.kindName)")
            return nil
        }
        guard case .string("tactus-rumble")? = json["format"] else {
            findings.error("wrongFormat", "format", "expected \"tactus-rumble\"")
            return nil
        }
        guard case .number(1)? = json["version"] else {
            findings.error("unsupportedVersion", "version", "this reader knows version 1")
            return nil
        }
        var metadata: [MetadataEntry] = []
        if case .object(let members)? = json["metadata"] {
            for (key, value) in members {
                guard case .string(let text) = value else {
                    findings.error("wrongType", "metadata.\(key)", "expected a string, found \(value.kindName)")
                    continue
                }
                metadata.append(MetadataEntry(key: key, value: text))
            }
        } else if let other = json["metadata"] {
            findings.error("wrongType", "metadata", "expected an object, found \(other.kindName)")
        }
        guard let step = integer(json["stepMs"], "stepMs", 1...1000), let duration = integer(json["durationMs"], "durationMs", 0...Self.maxSteps) else {
            return nil
        }
        guard let low = speeds(json["lowFrequency"], "lowFrequency"), let high = speeds(json["highFrequency"], "highFrequency") else {
            return nil
        }
        if low.count != high.count || low.count * step != duration {
            findings.error("lengthMismatch", "", "lowFrequency (\(low.count)) and highFrequency (\(high.count)) must hold durationMs / stepMs = \(duration / step) steps")
            return nil
        }
        switch (json["leftTrigger"], json["rightTrigger"]) {
        case (nil, nil): break
        case (let left?, let right?):
            for (name, value) in [("leftTrigger", left), ("rightTrigger", right)] {
                if let values = speeds(value, name), values.count != low.count {
                    findings.error("lengthMismatch", name, "holds \(values.count) steps, the motors \(low.count)")
                }
            }
        default: findings.error("missingTrigger", "", "leftTrigger and rightTrigger come together")
        }
        let transients = self.transients(json["transients"], durationMs: duration)
        let seconds = Double(step) / 1000
        var track = HapticTrack(duration: Double(duration) / 1000, transients: transients ?? [])
        var n = 0
        while n < low.count {
            guard max(low[n], high[n]) > 0 else { n += 1; continue }
            let first = n
            var intensity: [HapticTrack.Point] = [], sharpness: [HapticTrack.Point] = []
            var previous: (intensity: Double, sharpness: Double)?
            while n < low.count, max(low[n], high[n]) > 0 {
                let now = RumbleFormat.track(low: low[n], high: high[n]), time = Double(n) * seconds
                if let previous, previous != now {
                    intensity.append(HapticTrack.Point(time: time, value: previous.intensity))
                    sharpness.append(HapticTrack.Point(time: time, value: previous.sharpness))
                }
                if previous == nil || previous! != now {
                    intensity.append(HapticTrack.Point(time: time, value: now.intensity))
                    sharpness.append(HapticTrack.Point(time: time, value: now.sharpness))
                }
                previous = now
                n += 1
            }
            let end = Double(n) * seconds
            intensity.append(HapticTrack.Point(time: end, value: previous!.intensity))
            sharpness.append(HapticTrack.Point(time: end, value: previous!.sharpness))
            track.regions.append(HapticTrack.ContinuousRegion(start: Double(first) * seconds, end: end,
                                                              intensity: intensity, sharpness: sharpness))
        }
        return File(track: track, metadata: metadata)
    }

    private mutating func integer(_ value: JSONValue?, _ place: String, _ range: ClosedRange<Int>) -> Int? {
        guard case .number(let x)? = value, x.rounded() == x, x >= Double(range.lowerBound), x <= Double(range.upperBound) else {
            findings.error("wrongValue", place, "expected a whole number \(range.lowerBound)…\(range.upperBound)")
            return nil
        }
        return Int(x)
    }

    private mutating func unit(_ value: JSONValue?, _ place: String) -> Double? {
        guard case .number(let x)? = value, x >= 0, x <= 1 else {
            findings.error("wrongValue", place, "expected a number 0…1")
            return nil
        }
        return x
    }

    private mutating func speeds(_ value: JSONValue?, _ place: String) -> [Double]? {
        guard case .array(let items)? = value else {
            findings.error("wrongType", place, "expected an array of speeds 0…1")
            return nil
        }
        guard items.count <= Self.maxSteps else {
            findings.error("tooLong", place, "more than \(Self.maxSteps) steps")
            return nil
        }
        var values: [Double] = []
        values.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard let x = unit(item, "\(place)[\(index)]") else { return nil }
            values.append(x)
        }
        return values
    }

    private mutating func transients(_ value: JSONValue?, durationMs: Int) -> [HapticTrack.Transient]? {
        guard case .array(let items)? = value else {
            findings.error("wrongType", "transients", "expected an array")
            return nil
        }
        var transients: [HapticTrack.Transient] = []
        for (index, item) in items.enumerated() {
            let place = "transients[\(index)]"
            guard let start = integer(item["startMs"], place + ".startMs", 0...durationMs),
                  let intensity = unit(item["intensity"], place + ".intensity"),
                  let sharpness = unit(item["sharpness"], place + ".sharpness") else { continue }
            let time = Double(start) / 1000
            if let last = transients.last, last.time > time {
                findings.error("unsorted", place + ".startMs", "transients must be sorted by startMs")
            }
            transients.append(HapticTrack.Transient(time: time, intensity: intensity, sharpness: sharpness))
        }
        return transients
    }
}
