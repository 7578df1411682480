import TactusCore
import TactusFiles
import TactusPlatform

/// One finding of `AHAPValidator`, printable on one line.
public struct AHAPDiagnostic: Equatable, Sendable, CustomStringConvertible {
    /// Error or warning, as for every format.
    public typealias Severity = FormatDiagnostic.Severity

    /// What was found; stable, for tools and tests (messages may be reworded).
    public enum Kind: String, Sendable {
        /// Not JSON; a number too large for a Double; a value of the wrong JSON type; a required key missing; a key Core Haptics ignores; a key given twice.
        case invalidJSON, numberOutOfRange, wrongType, missingKey, unknownKey, duplicateKey
        /// `Version` not 1.0; a `Pattern` entry not exactly one element; an `EventType` or `ParameterID` Core Haptics does not know; a value outside its range.
        case unsupportedVersion, elementShape, unknownEventType, unknownParameter, valueOutOfRange
        /// A time before 0; a time past `AHAPWriter.maxTime`; a continuous event without `EventDuration`, or with one ≤ 0 or over 30 s.
        case negativeTime, timeTooLate, missingDuration, nonPositiveDuration, durationTooLong
        /// An `AudioCustom` event without `EventWaveformPath`; its file missing; a path leaving the AHAP's folder.
        case missingWaveformPath, audioFileNotFound, waveformPathOutsideFolder
        /// A curve without points, or with more than 16; point times going back; point times that look absolute rather than relative to the curve.
        case emptyCurve, tooManyControlPoints, decreasingControlPointTime, absoluteControlPointTimes
        /// A haptic event without intensity or sharpness; a transient played scaled by the intensity control or shifted by the sharpness control.
        case missingParameter, transientScaledByControl, transientSharpnessShiftedByControl
        /// A control still non-neutral when a later event starts; a control left non-neutral after the last event.
        case controlLeaksIntoLaterEvents, controlLeftSetAfterLastEvent
    }

    /// Error (Core Haptics refuses or plays it wrongly) or warning.
    public var severity: Severity
    /// What was found.
    public var kind: Kind
    /// JSON path such as `Pattern[3].Event.EventDuration`; empty for the whole file.
    public var location: String
    /// What is wrong, in words.
    public var message: String

    /// - Parameters:
    ///   - severity: error or warning.
    ///   - kind: what was found.
    ///   - location: the JSON path, or empty for the whole file.
    ///   - message: what is wrong, in words.
    public init(severity: Severity, kind: Kind, location: String, message: String) {
        self.severity = severity
        self.kind = kind
        self.location = location
        self.message = message
    }

    /// The finding in the form every format reports (`kind` as its name).
    public var formatDiagnostic: FormatDiagnostic {
        FormatDiagnostic(severity: severity, kind: kind.rawValue, location: location, message: message)
    }

    /// The finding on one line.
    public var description: String { formatDiagnostic.description }
}

/// All findings for one file.
public struct AHAPValidationReport: Equatable, Sendable, CustomStringConvertible {
    /// The findings, in file order.
    public var diagnostics: [AHAPDiagnostic]

    /// - Parameter diagnostics: the findings.
    public init(diagnostics: [AHAPDiagnostic]) {
        self.diagnostics = diagnostics
    }

    /// Findings of severity error.
    public var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }
    /// Findings of severity warning.
    public var warningCount: Int { diagnostics.filter { $0.severity == .warning }.count }
    /// True when there is no error (warnings allowed).
    public var isValid: Bool { errorCount == 0 }

    /// One line per diagnostic, then a summary line.
    public var description: String {
        let summary = "\(errorCount) error\(errorCount == 1 ? "" : "s"), \(warningCount) warning\(warningCount == 1 ? "" : "s")"
        return (diagnostics.map(\.description) + [summary]).joined(separator: "\n")
    }
}

/// Checks an AHAP file against what Core Haptics accepts and plays as written.
///
/// Core Haptics silently clamps out-of-range values and ignores unknown keys, so a file
/// can load and still feel wrong; this validator names each such problem with its JSON
/// path. It reads raw bytes (not an `AHAPDocument`) so that it can see what the model
/// cannot hold: wrong types, duplicate keys, unknown keys, numbers that overflow. Ranges
/// come from `AHAPParameterID` (CHHapticParameter.h). After the structural checks, the
/// pattern is played through `PatternEvaluator` to warn about transients that a control
/// scales or shifts and about controls left non-neutral after the events they shape.
public struct AHAPValidator: Sendable {
    /// Directory `EventWaveformPath` is resolved against; nil skips the file-exists check.
    public var baseDirectory: URL?

    /// How far a transient may play from its written values before it is worth a warning.
    public static let transientTolerance = 0.01

    /// - Parameter baseDirectory: where `EventWaveformPath` is looked for; nil skips that check.
    public init(baseDirectory: URL? = nil) {
        self.baseDirectory = baseDirectory
    }

    /// Validates a file on disk, resolving audio paths next to it unless `baseDirectory` is set.
    /// - Parameter url: the AHAP file, read within `AHAPLimits.maxFileBytes`.
    /// - Returns: the findings; a file that cannot be read is one `invalidJSON` error.
    public func validate(contentsOf url: URL) -> AHAPValidationReport {
        let data: Data
        do { data = try InputFile.contents(of: url, maxBytes: AHAPLimits.maxFileBytes) } catch {
            return AHAPValidationReport(diagnostics: [AHAPDiagnostic(
                severity: .error, kind: .invalidJSON, location: "", message: (error as? FileError)?.reason ?? "\(error)")])
        }
        var validator = self
        validator.baseDirectory = baseDirectory ?? url.deletingLastPathComponent()
        return validator.validate(consume data)
    }

    /// Validates bytes already read, resolving audio paths against `baseDirectory`.
    /// - Parameter data: the file's bytes, let go once parsed.
    /// - Returns: the findings.
    public func validate(_ data: consuming Data) -> AHAPValidationReport {
        inspect(consume data).report
    }

    /// Validates and decodes in one reading of the file: the findings, and the pattern when
    /// its shape can be decoded at all (files with value errors still play, clamped).
    /// - Parameter data: the file's bytes, let go once parsed.
    /// - Returns: the findings, and the document (nil when its shape cannot be decoded).
    public func inspect(_ data: consuming Data) -> (report: AHAPValidationReport, document: AHAPDocument?) {
        var check = Checker(baseDirectory: baseDirectory)
        var document: AHAPDocument?
        switch Self.checkStructure(consume data, &check) {
        case .success(let decoded)?:
            document = decoded
            check.playback(decoded)
        case .failure(let error)?:
            // A shape error the checks above have named already; never let one pass unnamed.
            if check.diagnostics.allSatisfy({ $0.severity == .warning }) {
                check.error(.wrongType, (error as? AHAPDecodingError)?.path ?? "", "\(error)")
            }
        case nil:
            break
        }
        return (AHAPValidationReport(diagnostics: check.diagnostics), document)
    }

    /// Parses `data`, checks the tree and decodes it: nil when it is not JSON (named in
    /// `check`). The bytes go once parsed; the tree, about twice their size, is gone when this
    /// returns, before the document plays.
    private static func checkStructure(_ data: consuming Data, _ check: inout Checker) -> Result<AHAPDocument, Error>? {
        let json: JSONValue
        do {
            json = try JSONReader.parse(data)
            _ = consume data
        } catch {
            check.error(.invalidJSON, "", "\(error)")
            return nil
        }
        var path: [PathComponent] = []
        check.duplicateKeys(json, &path)
        check.document(Node(json))
        return Result { try AHAPDecoder().decode(json) }
    }
}

extension AHAPValidator {
    /// Past `AHAPWriter.maxTime` (10⁸ s, about three years) nothing plays, and time arithmetic
    /// stops being exact: the reader refuses such a pattern (`AHAPFormat.unplayableTimes`).
    static func tooLate(_ what: String, _ value: Double) -> String {
        "\(what) \(value) s is past \(JSONText.shortest(AHAPWriter.maxTime)) s, the latest Tactus reads"
    }
}

/// The keys Core Haptics reads in each kind of object.
private enum Keys {
    static let document = ["Version", "Metadata", "Pattern"]
    static let element = ["Event", "Parameter", "ParameterCurve"]
    static let event = ["Time", "EventType", "EventDuration", "EventWaveformPath", "EventWaveformUseVolumeEnvelope",
                        "EventWaveformLoopEnabled", "EventParameters"]
    static let eventParameter = ["ParameterID", "ParameterValue"]
    static let dynamicParameter = ["ParameterID", "Time", "ParameterValue"]
    static let curve = ["ParameterID", "Time", "ParameterCurveControlPoints"]
    static let controlPoint = ["Time", "ParameterValue"]
}

/// The checks, accumulating diagnostics as they walk the file.
private struct Checker {
    let baseDirectory: URL?
    var diagnostics: [AHAPDiagnostic] = []

    mutating func error(_ kind: AHAPDiagnostic.Kind, _ location: JSONPath, _ message: String) {
        error(kind, location.text, message)
    }

    mutating func warning(_ kind: AHAPDiagnostic.Kind, _ location: JSONPath, _ message: String) {
        warning(kind, location.text, message)
    }

    mutating func error(_ kind: AHAPDiagnostic.Kind, _ location: String, _ message: String) {
        diagnostics.append(AHAPDiagnostic(severity: .error, kind: kind, location: location, message: message))
    }

    mutating func warning(_ kind: AHAPDiagnostic.Kind, _ location: String, _ message: String) {
        diagnostics.append(AHAPDiagnostic(severity: .warning, kind: kind, location: location, message: message))
    }

    // MARK: Typed reads that report instead of throwing

    /// The members of an object, or nil after reporting that it is not one.
    mutating func members(_ node: Node, allowed: [String]) -> [(key: String, value: JSONValue)]? {
        guard case .object(let members) = node.json else {
            error(.wrongType, node.path, "expected an object, found \(node.json.kindName)")
            return nil
        }
        for (key, _) in members where !allowed.contains(key) {
            warning(.unknownKey, node.child(key), "unknown key; Core Haptics ignores it")
        }
        return members
    }

    /// The value under `key` read by `get` (a `Node` accessor), or nil after reporting
    /// a missing required key or a wrong type.
    mutating func read<T>(_ node: Node, _ key: String, required: Bool, _ get: (Node) throws -> T) -> T? {
        guard let child = node.optional(key) else {
            if required { error(.missingKey, node.child(key), "missing required key") }
            return nil
        }
        do {
            return try get(child)
        } catch {
            self.error(.wrongType, child.path, (error as? AHAPDecodingError)?.message ?? "\(error)")
            return nil
        }
    }

    /// A finite number under `key`; a number that overflows to infinity is reported as such.
    mutating func number(_ node: Node, _ key: String, required: Bool) -> Double? {
        if case .number(let value)? = node.json[key], !value.isFinite {
            error(.numberOutOfRange, node.child(key), "number out of range (overflows to infinity)")
            return nil
        }
        return read(node, key, required: required) { try $0.number() }
    }

    mutating func time(_ node: Node, _ key: String = "Time") -> Double? {
        let value = number(node, key, required: true)
        if let value, value < 0 { error(.negativeTime, node.child(key), "time \(value) is negative") }
        if let value, value > AHAPWriter.maxTime { error(.timeTooLate, node.child(key), AHAPValidator.tooLate("time", value)) }
        return value
    }

    mutating func inRange(_ value: Double, _ range: ClosedRange<Double>, _ location: @autoclosure () -> JSONPath,
                          _ id: String) {
        guard !range.contains(value) else { return }
        error(.valueOutOfRange, location(),
              "\(id) \(value) is outside \(range.lowerBound)…\(range.upperBound); Core Haptics clamps it silently")
    }

    // MARK: Structure

    /// Warns about every key that appears twice in one object, anywhere in the file. The
    /// path is kept as a stack of components and built only for a finding.
    mutating func duplicateKeys(_ json: JSONValue, _ path: inout [PathComponent]) {
        switch json {
        case .object(let members):
            for index in Self.repeatedKeys(members) {
                warning(.duplicateKey, PathComponent.text(path + [.key(members[index].key)]),
                        "key appears more than once; only the last counts")
            }
            for member in members where member.value.isContainer {
                path.append(.key(member.key))
                duplicateKeys(member.value, &path)
                path.removeLast()
            }
        case .array(let items):
            for (index, item) in items.enumerated() where item.isContainer {
                path.append(.index(index))
                duplicateKeys(item, &path)
                path.removeLast()
            }
        default:
            break
        }
    }

    /// The indices of members whose key an earlier member already has: a scan for the
    /// handful of keys AHAP objects hold, one set for a large object.
    private static func repeatedKeys(_ members: [(key: String, value: JSONValue)]) -> [Int] {
        if members.count <= 16 {
            return members.indices.filter { index in members[..<index].contains { $0.key == members[index].key } }
        }
        var seen = Set<String>()
        return members.indices.filter { !seen.insert(members[$0].key).inserted }
    }

    mutating func document(_ root: Node) {
        guard members(root, allowed: Keys.document) != nil else { return }
        // Apple's own sample patterns omit `Version` and play; a version of 0 does not load on iOS 17.
        if root.optional("Version") == nil {
            warning(.missingKey, "Version", "missing Version; Core Haptics reads it as 1.0 (write \"Version\": 1.0)")
        } else if let version = number(root, "Version", required: true), version != 1 {
            if version <= 0 {
                error(.unsupportedVersion, "Version", "version \(version) is refused by Core Haptics; write 1.0")
            } else {
                warning(.unsupportedVersion, "Version", "Core Haptics documents only version 1.0, found \(version)")
            }
        }
        // Metadata keys are free-form; only the values' type is checked.
        for entry in read(root, "Metadata", required: false, { try $0.object() }) ?? [] {
            if case .string = entry.value.json { continue }
            warning(.wrongType, entry.value.path, "metadata values should be strings, found \(entry.value.json.kindName)")
        }
        guard let pattern = read(root, "Pattern", required: true, { try $0.array() }) else { return }
        for element in pattern { self.element(element) }
    }

    mutating func element(_ node: Node) {
        let kinds = Keys.element
        guard let members = members(node, allowed: kinds) else { return }
        let present = kinds.filter { kind in members.contains { $0.key == kind } }
        guard present.count == 1, let kind = present.first, let body = node.optional(kind) else {
            error(.elementShape, node.path, "must hold exactly one of Event, Parameter, ParameterCurve; found "
                  + (present.isEmpty ? "none" : present.joined(separator: " and ")))
            return
        }
        switch kind {
        case "Event": event(body)
        case "Parameter": dynamicParameter(body)
        default: curve(body)
        }
    }

    mutating func event(_ node: Node) {
        guard members(node, allowed: Keys.event) != nil else { return }
        let start = time(node)
        let typeName = read(node, "EventType", required: true) { try $0.string() }
        let type = typeName.map(AHAPEventType.init(rawValue:))
        if let type, !AHAPEventType.known.contains(type) {
            error(.unknownEventType, node.child("EventType"), "unknown event type \"\(type)\"; expected one of "
                  + AHAPEventType.known.map(\.rawValue).sorted().joined(separator: ", "))
        }
        let durationPath = node.child("EventDuration")
        let duration = number(node, "EventDuration", required: false)
        if let duration, duration <= 0 {
            error(.nonPositiveDuration, durationPath, "duration \(duration) must be greater than 0")
        }
        if let duration, duration > AHAPWriter.maxTime {
            error(.timeTooLate, durationPath, AHAPValidator.tooLate("duration", duration))
        } else if let start, let duration, start <= AHAPWriter.maxTime, start + duration > AHAPWriter.maxTime {
            error(.timeTooLate, durationPath, AHAPValidator.tooLate("the event's end", start + duration))
        }
        if let type, type.isContinuous {
            if duration == nil, node.optional("EventDuration") == nil {
                error(.missingDuration, durationPath, "\(type) events need an EventDuration")
            } else if let duration, duration > AHAPLimits.maxContinuousDuration {
                error(.durationTooLong, durationPath,
                      "duration \(duration) s is over \(Int(AHAPLimits.maxContinuousDuration)) s; split the event")
            }
        }
        if type == .audioCustom, node.optional("EventWaveformPath") == nil {
            error(.missingWaveformPath, node.child("EventWaveformPath"), "AudioCustom events need an EventWaveformPath")
        }
        let path = read(node, "EventWaveformPath", required: false) { try $0.string() }
        if let path, path.hasPrefix("/") || path.split(separator: "/").contains("..") {
            warning(.waveformPathOutsideFolder, node.child("EventWaveformPath"),
                    "\(path) is \(path.hasPrefix("/") ? "absolute" : "outside the AHAP's folder"); "
                        + "an app bundle resolves the path relative to the AHAP, so it will not load there")
        }
        if let path, let baseDirectory {
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : baseDirectory.appendingPathComponent(path)
            if !FileManager.default.fileExists(atPath: url.path) {
                error(.audioFileNotFound, node.child("EventWaveformPath"), "no file at \(url.path)")
            }
        }
        _ = read(node, "EventWaveformUseVolumeEnvelope", required: false) { try $0.bool() }
        _ = read(node, "EventWaveformLoopEnabled", required: false) { try $0.bool() }

        var ids: [String] = []
        for item in read(node, "EventParameters", required: false, { try $0.array() }) ?? [] {
            guard members(item, allowed: Keys.eventParameter) != nil else { continue }
            let id = read(item, "ParameterID", required: true) { try $0.string() }
            let value = number(item, "ParameterValue", required: true)
            guard let id else { continue }
            ids.append(id)
            guard let range = AHAPParameterID.eventRanges[id] else {
                error(.unknownParameter, item.child("ParameterID"), "unknown event parameter \"\(id)\"")
                continue
            }
            if let value { inRange(value, range, item.child("ParameterValue"), id) }
        }
        if let type, type.isHaptic {
            for id in [AHAPParameterID.hapticIntensity, AHAPParameterID.hapticSharpness] where !ids.contains(id) {
                warning(.missingParameter, node.child("EventParameters"),
                        "no \(id); the event plays at Core Haptics' undocumented default")
            }
        }
    }

    /// A dynamic parameter ID and its description, or nil after reporting an unknown one.
    mutating func dynamicID(_ node: Node) -> (String, AHAPParameterID.Dynamic)? {
        guard let id = read(node, "ParameterID", required: true, { try $0.string() }) else { return nil }
        guard let info = AHAPParameterID.dynamic[id] else {
            error(.unknownParameter, node.child("ParameterID"), "unknown dynamic parameter \"\(id)\"")
            return nil
        }
        return (id, info)
    }

    mutating func dynamicParameter(_ node: Node) {
        guard members(node, allowed: Keys.dynamicParameter) != nil else { return }
        let known = dynamicID(node)
        _ = time(node)
        if let value = number(node, "ParameterValue", required: true), let (id, info) = known {
            inRange(value, info.range, node.child("ParameterValue"), id)
        }
    }

    mutating func curve(_ node: Node) {
        guard members(node, allowed: Keys.curve) != nil else { return }
        let known = dynamicID(node)
        let start = time(node)
        let pointsKey = "ParameterCurveControlPoints"
        guard let points = read(node, pointsKey, required: true, { try $0.array() }) else { return }
        if points.isEmpty { error(.emptyCurve, node.child(pointsKey), "a curve needs at least one control point") }
        // Meta's converter and Haptics Studio write hundreds of points per curve in files that
        // ship; older iOS versions refused more than 16.
        if points.count > AHAPLimits.maxControlPoints {
            warning(.tooManyControlPoints, node.child(pointsKey),
                    "\(points.count) control points; iOS before 16 plays at most \(AHAPLimits.maxControlPoints) per curve, split it")
        }
        var previous: Double?
        for point in points {
            guard members(point, allowed: Keys.controlPoint) != nil else { continue }
            let time = self.time(point)
            if let value = number(point, "ParameterValue", required: true), let (id, info) = known {
                inRange(value, info.range, point.child("ParameterValue"), id)
            }
            guard let time else { continue }
            if let previous, time < previous {
                error(.decreasingControlPointTime, point.child("Time"),
                      "time \(time) is before the previous point's \(previous); times must not decrease")
            }
            if previous == nil, let start, start > 0, abs(time - start) < 1e-6 {
                warning(.absoluteControlPointTimes, point.child("Time"),
                        "the first point's time equals the curve's Time (\(start)); control-point times are "
                        + "relative to the curve, so absolute times here make the curve play late")
            }
            previous = time
        }
    }

    // MARK: Playback

    /// Warnings that need the pattern played: transients a control changes, and
    /// controls left non-neutral beyond the haptic events they shape.
    ///
    /// A transient plays at its `HapticIntensity` × `HapticIntensityControl`. Where a
    /// continuous event plays, the control shapes that body and a writer may have written the
    /// transient's intensity against it (Tactus does: intensity ÷ control, so the body keeps its
    /// shape under the transient); a file cannot say whether it did, so that is not warned
    /// about. Where no continuous event plays, the control shapes nothing but the transient:
    /// an envelope left over from an earlier event, warned about when it scales the transient.
    mutating func playback(_ document: AHAPDocument) {
        let evaluator = PatternEvaluator(document)
        let tolerance = AHAPValidator.transientTolerance
        for transient in evaluator.transients {
            let location = "Pattern[\(transient.patternIndex)].Event"
            if abs(transient.effectiveIntensity - transient.eventIntensity) > tolerance,
               !evaluator.continuousPlays(at: transient.time) {
                warning(.transientScaledByControl, location,
                        "plays at intensity \(rounded(transient.effectiveIntensity)), not its HapticIntensity "
                        + "\(rounded(transient.eventIntensity)): HapticIntensityControl is \(rounded(transient.intensityControl)) here")
            }
            let shifted = transient.effectiveSharpness(.allHapticEvents)
            if abs(shifted - transient.eventSharpness) > tolerance {
                warning(.transientSharpnessShiftedByControl, location,
                        "if HapticSharpnessControl reaches transients (framework header), plays at sharpness "
                        + "\(rounded(shifted)), not \(rounded(transient.eventSharpness))")
            }
        }

        // Haptic event intervals, sorted by start.
        let events = document.pattern.compactMap { element -> ClosedRange<Double>? in
            guard case .event(let event) = element, event.type.isHaptic else { return nil }
            return event.time...(event.time + max(0, event.duration ?? 0))
        }.sorted { $0.lowerBound < $1.lowerBound }
        for (id, sources) in evaluator.sources.sorted(by: { $0.key < $1.key }) {
            guard let info = AHAPParameterID.dynamic[id], info.actsOnHaptics else { continue }
            for (k, source) in sources.enumerated() {
                let value = min(max(source.finalValue, info.range.lowerBound), info.range.upperBound)
                guard abs(value - info.neutral) > 1e-4 else { continue }
                let kind = document.pattern[source.patternIndex].isCurve ? "ParameterCurve" : "Parameter"
                let location = "Pattern[\(source.patternIndex)].\(kind)"
                let holdEnd = k + 1 < sources.count ? sources[k + 1].start : Double.infinity
                if k + 1 == sources.count {
                    warning(.controlLeftSetAfterLastEvent, location,
                            "leaves \(id) at \(rounded(value)) after the last haptic event ends (\(rounded(evaluator.hapticEndTime)) s); "
                            + "a pattern should end with its controls neutral (\(rounded(info.neutral)))")
                }
                // A curve shapes the events it spans; its last value reaching later events is a leak.
                if kind == "ParameterCurve",
                   let leak = events.first(where: { $0.lowerBound > source.end && $0.lowerBound < holdEnd }) {
                    warning(.controlLeaksIntoLaterEvents, location,
                            "ends at \(id) \(rounded(value)) and that value persists: it also acts on the haptic event "
                            + "at \(rounded(leak.lowerBound)) s, after the curve ended at \(rounded(source.end)) s")
                }
            }
        }
    }

    /// A number for a message: 4 decimals, or Swift's text when not finite (a time plus a
    /// huge duration can overflow).
    private func rounded(_ x: Double) -> String { x.isFinite ? JSONText.fixed(x, digits: 4) : "\(x)" }
}

private extension AHAPElement {
    var isCurve: Bool {
        if case .curve = self { return true }
        return false
    }
}
