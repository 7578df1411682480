import TactusPlatform

/// The parts of one kind that presets and options can select by id (onset methods, output
/// formats): a fixed list of built-in parts plus those a library user registers at run time
/// (no dynamic loading). Thread-safe.
public final class PartRegistry<Part>: @unchecked Sendable {
    /// The built-in parts, in the order they are listed.
    public let builtIn: [Part]
    private let id: (Part) -> String
    private let lock = Lock()
    private var registered: [Part] = []

    /// - Parameters:
    ///   - builtIn: the built-in parts, ids distinct.
    ///   - id: a part's id.
    public init(builtIn: [Part], id: @escaping (Part) -> String) {
        self.builtIn = builtIn
        self.id = id
    }

    /// Every selectable part: built-in first, then registered ones.
    public var all: [Part] {
        lock.lock()
        defer { lock.unlock() }
        return builtIn + registered
    }

    /// Makes a part of your own selectable by its id; replaces one registered with the same id.
    /// - Precondition: no built-in part has that id.
    /// - Parameter part: the part.
    public func register(_ part: Part) {
        lock.lock()
        defer { lock.unlock() }
        let key = id(part)
        precondition(!builtIn.contains { id($0) == key }, "\(key) is a built-in part")
        registered.removeAll { id($0) == key }
        registered.append(part)
    }

    /// Removes a part registered with `register` (built-in parts stay).
    /// - Parameter key: the registered part's id.
    public func unregister(_ key: String) {
        lock.lock()
        defer { lock.unlock() }
        registered.removeAll { id($0) == key }
    }

    /// The part with this id, if any.
    /// - Parameter key: an id.
    /// - Returns: the part, or nil when none has that id.
    public func named(_ key: String) -> Part? {
        all.first { id($0) == key }
    }
}
