/// Values built once per process and shared by every thread: e.g. FFTW plans per size, the
/// analysis's filterbanks per settings (a batch meets only a few sample rates). `make` runs under the
/// cache's lock, which also serialises FFTW's planner (not thread-safe).
package final class ProcessCache<Key: Hashable, Value>: @unchecked Sendable {
    private let lock = Lock()
    private var values: [Key: Value] = [:]

    /// An empty cache.
    package init() {}

    /// The value kept for `key`, made by `make` (under the lock) the first time it is asked for.
    package func value(for key: Key, make: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        if let value = values[key] { return value }
        let value = make()
        values[key] = value
        return value
    }
}
