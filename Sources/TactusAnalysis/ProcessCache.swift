import TactusCore

/// Values built once per process and shared by every thread: FFTW plans per size,
/// filterbanks per settings (a batch meets only a few sample rates). `make` runs under the
/// cache's lock, which also serialises FFTW's planner (not thread-safe).
final class ProcessCache<Key: Hashable, Value>: @unchecked Sendable {
    private let lock = Lock()
    private var values: [Key: Value] = [:]

    func value(for key: Key, make: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        if let value = values[key] { return value }
        let value = make()
        values[key] = value
        return value
    }
}
