import TactusPlatform

/// A value a preset can give to a parameter.
public enum ParameterValue: Equatable, Sendable, CustomStringConvertible {
    /// A number (whole numbers too), in the parameter's unit.
    case number(Double)
    /// On or off.
    case flag(Bool)
    /// One of a choice parameter's options, or a text parameter's text.
    case choice(String)

    /// The value as JSON writes it: choices quoted.
    public var description: String {
        switch self {
        case .number(let value): return JSONText.shortest(value)
        case .flag(let value): return value ? "true" : "false"
        case .choice(let value): return "\"\(value)\""
        }
    }

    /// The value as a JSON value: a number, `true`/`false` or a string.
    public var jsonValue: JSONValue {
        switch self {
        case .number(let value): return .number(value)
        case .flag(let value): return .bool(value)
        case .choice(let value): return .string(value)
        }
    }

    /// The value as typed after `--set key=`: choices without quotes.
    public var plainText: String {
        if case .choice(let value) = self { return value }
        return description
    }
}

/// Describes one tunable parameter of a part: what a preset may set and what it means.
///
/// Units live in the name (`minIntervalMs`, `lowHz`, `floorDb`) so a preset reads the same
/// at any sample rate; `unit` repeats it for help text and the generated schema.
public struct ParameterDescriptor: Sendable {
    /// What values the parameter takes.
    public enum Kind: Sendable, Equatable {
        /// A number within the range.
        case number(ClosedRange<Double>)
        /// A whole number within the range.
        case integer(ClosedRange<Double>)
        /// `true` or `false`.
        case flag
        /// One of the options, by name.
        case choice([String])
        /// Free text matching `pattern` (a regular expression over the whole value), checked
        /// further by the part that reads it (such as a list of format ids).
        case text(pattern: String)
    }

    /// The key in its preset section, with its unit in it (`minIntervalMs`).
    public let name: String
    /// The values it takes, with the range or options.
    public let kind: Kind
    /// The unit (`ms`, `Hz`, `dB`), empty for unitless values.
    public let unit: String
    /// The value when no preset sets it.
    public let defaultValue: ParameterValue
    /// What it does, in a sentence or two (help, schema, `presets show`, `tactus tune`).
    public let help: String

    /// A number parameter.
    /// - Parameters:
    ///   - name: the key, unit included.
    ///   - range: the values allowed.
    ///   - value: the default, within `range`.
    ///   - unit: the unit, or empty.
    ///   - help: what it does.
    /// - Returns: the descriptor.
    public static func number(_ name: String, _ range: ClosedRange<Double>, default value: Double,
                              unit: String = "", help: String) -> ParameterDescriptor {
        ParameterDescriptor(name: name, kind: .number(range), unit: unit, defaultValue: .number(value), help: help)
    }

    /// A whole-number parameter (read with `ParameterSet.number(_:)`).
    /// - Parameters:
    ///   - name: the key, unit included.
    ///   - range: the values allowed.
    ///   - value: the default, a whole number within `range`.
    ///   - unit: the unit, or empty.
    ///   - help: what it does.
    /// - Returns: the descriptor.
    public static func integer(_ name: String, _ range: ClosedRange<Double>, default value: Double,
                               unit: String = "", help: String) -> ParameterDescriptor {
        ParameterDescriptor(name: name, kind: .integer(range), unit: unit, defaultValue: .number(value), help: help)
    }

    /// An on/off parameter.
    /// - Parameters:
    ///   - name: the key.
    ///   - value: the default.
    ///   - help: what it does.
    /// - Returns: the descriptor.
    public static func flag(_ name: String, default value: Bool, help: String) -> ParameterDescriptor {
        ParameterDescriptor(name: name, kind: .flag, unit: "", defaultValue: .flag(value), help: help)
    }

    /// A parameter that takes one of a list of names.
    /// - Parameters:
    ///   - name: the key.
    ///   - options: the names allowed.
    ///   - value: the default, one of `options`.
    ///   - help: what it does.
    /// - Returns: the descriptor.
    public static func choice(_ name: String, _ options: [String], default value: String,
                              help: String) -> ParameterDescriptor {
        ParameterDescriptor(name: name, kind: .choice(options), unit: "", defaultValue: .choice(value), help: help)
    }

    /// A choice among the cases of `Choice`, in their declared order: the options a preset,
    /// the schema and `--set` see are the raw values, and a part reads the value back as a
    /// case (`ParameterSet.choice(_:as:)`), never by comparing text.
    /// - Parameters:
    ///   - name: the key.
    ///   - type: the enum whose cases are the options.
    ///   - value: the default case.
    ///   - help: what it does.
    /// - Returns: the descriptor.
    public static func choice<Choice: RawRepresentable & CaseIterable>(
        _ name: String, _ type: Choice.Type, default value: Choice, help: String) -> ParameterDescriptor
        where Choice.RawValue == String {
        choice(name, type.allCases.map(\.rawValue), default: value.rawValue, help: help)
    }

    /// This parameter set to `value`: a typed entry for a layer of defaults (such as an onset
    /// method's peak-picking defaults), whose name cannot be misspelt.
    /// - Parameter value: the value, of this parameter's kind and within its range.
    /// - Returns: the setting.
    public func setting(_ value: ParameterValue) -> ParameterSetting {
        ParameterSetting(descriptor: self, value: value)
    }

    /// A free-text parameter (read with `ParameterSet.choice(_:)`).
    /// - Parameters:
    ///   - name: the key.
    ///   - pattern: a regular expression the whole value must match.
    ///   - value: the default, matching `pattern`.
    ///   - help: what it does.
    /// - Returns: the descriptor.
    public static func text(_ name: String, pattern: String, default value: String,
                            help: String) -> ParameterDescriptor {
        ParameterDescriptor(name: name, kind: .text(pattern: pattern), unit: "", defaultValue: .choice(value), help: help)
    }

    /// Checks a value against this descriptor; the message names the value and the allowed range.
    /// - Parameter value: a value a preset gives.
    /// - Returns: the problem, or nil when the value is allowed.
    public func check(_ value: ParameterValue) -> String? {
        switch (kind, value) {
        case (.number(let range), .number(let v)):
            guard v.isFinite, range.contains(v) else { return "\(value) is outside \(Self.describe(range))" }
        case (.integer(let range), .number(let v)):
            guard v.isFinite, v == v.rounded() else { return "\(value) is not a whole number" }
            guard range.contains(v) else { return "\(value) is outside \(Self.describe(range))" }
        case (.flag, .flag):
            break
        case (.choice(let options), .choice(let v)):
            guard options.contains(v) else {
                return "\(value) is not one of \(options.map { "\"\($0)\"" }.joined(separator: ", "))"
            }
        case (.text(let pattern), .choice(let v)):
            guard let regex = try? Regex("(?:\(pattern))"), (try? regex.wholeMatch(in: v)) != nil else {
                return "\(value) is not \(expectedType)"
            }
        default:
            return "\(value) has the wrong type (expected \(expectedType))"
        }
        return nil
    }

    /// What the parameter takes, in words for messages ("a number", "one of …").
    public var expectedType: String {
        switch kind {
        case .number: return "a number"
        case .integer: return "a whole number"
        case .flag: return "true or false"
        case .choice(let options): return "one of " + options.map { "\"\($0)\"" }.joined(separator: ", ")
        case .text(let pattern): return "text matching \(pattern)"
        }
    }

    static func describe(_ range: ClosedRange<Double>) -> String {
        "\(JSONText.shortest(range.lowerBound))…\(JSONText.shortest(range.upperBound))"
    }
}

/// A part of the pipeline that a preset selects and tunes: an analyzer, an onset method,
/// a mapper stage or a writer. `parameters` is its whole public surface.
public protocol TunablePart {
    /// Stable identifier used in presets.
    static var id: String { get }
    /// One line for `presets list`, help and the schema.
    static var summary: String { get }
    /// Every parameter the part reads, in the order presets list them.
    static var parameters: [ParameterDescriptor] { get }
    /// Pairs of `parameters` whose values must keep their order (the two ends of a range).
    static var orderedPairs: [OrderedPair] { get }
}

extension TunablePart {
    /// None, unless a part declares some.
    public static var orderedPairs: [OrderedPair] { [] }
}

/// Two parameters of one part that are the ends of one range, so `lower` must stay below
/// `upper` (or at most equal to it, when `allowsEqual`): a preset, `--set` or folder
/// `tactus.json` that inverts them is refused with both keys named. Declared beside the
/// descriptors (`TunablePart.orderedPairs`), so the schema and every checker read one list.
public struct OrderedPair: Sendable {
    /// The range's lower end.
    public let lower: ParameterDescriptor
    /// The range's upper end.
    public let upper: ParameterDescriptor
    /// Whether equal values are allowed (an intensity range may be one value; a scale from a
    /// level or frequency to itself has no slope).
    public let allowsEqual: Bool

    /// - Parameters:
    ///   - lower: the lower end, a number parameter.
    ///   - upper: the upper end, a number parameter of the same part.
    ///   - allowsEqual: whether the two may be equal.
    public init(_ lower: ParameterDescriptor, below upper: ParameterDescriptor, allowsEqual: Bool = false) {
        self.lower = lower
        self.upper = upper
        self.allowsEqual = allowsEqual
    }

    /// Whether `values` keep the order; names absent from `values` keep it.
    /// - Parameter values: a part's values.
    /// - Returns: true when `lower` is below (or at most) `upper`.
    public func holds(in values: ParameterSet) -> Bool {
        guard case .number(let low)? = values.values[lower.name], case .number(let high)? = values.values[upper.name] else { return true }
        return allowsEqual ? low <= high : low < high
    }

    /// The relation `upper` must have to `lower`, for messages: "below" or "at most".
    public var relation: String { allowsEqual ? "at most" : "below" }
}

/// Validated parameter values for one part. Built once, then read-only (Vamp's `initialise`).
public struct ParameterSet: Equatable, Sendable {
    /// Every parameter's value, by name.
    public private(set) var values: [String: ParameterValue]

    /// Resolves `given` over the descriptors' defaults; refuses unknown names and bad values.
    /// - Parameters:
    ///   - descriptors: the part's parameters.
    ///   - given: the values set, by name; the others take their defaults.
    /// - Throws: `ParameterError.unknown` for a name no descriptor has (with the closest name),
    ///   `ParameterError.invalid` for a value of the wrong kind or out of range.
    public init(_ descriptors: [ParameterDescriptor], _ given: [String: ParameterValue] = [:]) throws {
        var values: [String: ParameterValue] = [:]
        for d in descriptors { values[d.name] = d.defaultValue }
        for (name, value) in given {
            guard let d = descriptors.first(where: { $0.name == name }) else {
                throw ParameterError.unknown(name: name, suggestion: closestName(to: name, in: descriptors.map(\.name)))
            }
            if let problem = d.check(value) { throw ParameterError.invalid(name: name, problem: problem) }
            values[name] = value
        }
        self.values = values
    }

    /// The value of a number or whole-number parameter. Parameters are read through their
    /// descriptors (each part's `static let`s), so a misspelt name does not compile.
    /// - Parameter descriptor: a number or integer parameter of this set's part (any other is a
    ///   programming error).
    /// - Returns: its value, in its unit.
    public func number(_ descriptor: ParameterDescriptor) -> Double {
        guard case .number(let v)? = values[descriptor.name] else { preconditionFailure("no number parameter \(descriptor.name)") }
        return v
    }

    /// The value of an on/off parameter.
    /// - Parameter descriptor: a flag parameter of this set's part (any other is a programming error).
    /// - Returns: its value.
    public func flag(_ descriptor: ParameterDescriptor) -> Bool {
        guard case .flag(let v)? = values[descriptor.name] else { preconditionFailure("no flag parameter \(descriptor.name)") }
        return v
    }

    /// This set with `descriptor`'s number replaced by `value`, unchecked: for values a part
    /// derives from validated ones (such as the `feel` controls' effective values), which may
    /// leave the range a preset may write.
    /// - Parameters:
    ///   - descriptor: a parameter of this set's part.
    ///   - value: the new number.
    /// - Returns: the changed copy.
    public func replacing(_ descriptor: ParameterDescriptor, with value: Double) -> ParameterSet {
        precondition(values[descriptor.name] != nil, "no parameter \(descriptor.name)")
        var copy = self
        copy.values[descriptor.name] = .number(value)
        return copy
    }

    /// The value of a choice or text parameter.
    /// - Parameter descriptor: a choice or text parameter of this set's part (any other is a
    ///   programming error).
    /// - Returns: its value.
    public func choice(_ descriptor: ParameterDescriptor) -> String {
        guard case .choice(let v)? = values[descriptor.name] else { preconditionFailure("no choice parameter \(descriptor.name)") }
        return v
    }

    /// The value of a choice declared with `ParameterDescriptor.choice(_:_:default:help:)`, as
    /// its case. The set was checked against the descriptor's options, the enum's raw values,
    /// so every stored value names a case.
    /// - Parameters:
    ///   - descriptor: a choice declared with `type`'s cases.
    ///   - type: the enum to read the value as.
    /// - Returns: the case the set holds.
    public func choice<Choice: RawRepresentable>(_ descriptor: ParameterDescriptor, as type: Choice.Type) -> Choice
        where Choice.RawValue == String {
        guard let value = Choice(rawValue: choice(descriptor)) else {
            preconditionFailure("\(descriptor.name) is not declared with \(Choice.self)'s cases")
        }
        return value
    }
}

/// One parameter given one value, keyed by its descriptor (`PeakPicker.delta.setting(.number(6))`).
public struct ParameterSetting: Sendable {
    /// The parameter set.
    public let descriptor: ParameterDescriptor
    /// Its value; checked where the setting is applied (`ParameterSet.init`).
    public let value: ParameterValue
}

extension Sequence where Element == ParameterSetting {
    /// The settings by parameter name, as `ParameterSet.init` takes them (a later setting of
    /// the same parameter wins).
    public var byName: [String: ParameterValue] {
        Dictionary(map { ($0.descriptor.name, $0.value) }) { $1 }
    }
}

/// Why a value cannot be given to a parameter.
public enum ParameterError: Error, Equatable, CustomStringConvertible {
    /// No parameter has this name; the closest one, if close enough to be a typo.
    case unknown(name: String, suggestion: String?)
    /// The value is of the wrong kind or out of range.
    case invalid(name: String, problem: String)

    /// The problem on one line, with the suggestion.
    public var description: String {
        switch self {
        case .unknown(let name, let suggestion):
            return "unknown parameter \"\(name)\"" + (suggestion.map { " (did you mean \"\($0)\"?)" } ?? "")
        case .invalid(let name, let problem):
            return "\(name) = \(problem)"
        }
    }
}

/// The candidate closest to `name` by edit distance, if it is close enough to be a plausible typo.
/// - Parameters:
///   - name: what was typed.
///   - candidates: the names that exist.
/// - Returns: the closest candidate (case-insensitive edit distance at most 2, or a third of
///   the name's length), or nil.
public func closestName(to name: String, in candidates: [String]) -> String? {
    let scored = candidates.map { ($0, editDistance(name.lowercased(), $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }) else { return nil }
    return best.1 <= max(2, name.count / 3) ? best.0 : nil
}

func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in stride(from: 1, through: b.count, by: 1) {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}
