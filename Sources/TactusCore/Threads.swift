import TactusPlatform
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutual-exclusion lock on a pthread mutex: what `NSLock` gave, without Foundation
/// (`Synchronization.Mutex` needs macOS 15; the package supports macOS 13). Public for the
/// `Tune/` package's server; not reentrant.
public final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// An unlocked lock.
    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Waits until the lock is free and takes it; the same thread must not hold it already.
    public func lock() { pthread_mutex_lock(mutex) }
    /// Frees the lock, which the calling thread must hold.
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the lock.
    /// - Parameter body: what to run; it must not take this lock again.
    /// - Returns: what `body` returned.
    /// - Throws: what `body` threw (the lock is freed first).
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

private final class ThreadBody {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

/// Runs `body` on a new detached thread of its own (what `Thread { }.start()` did), with a
/// stack of `stackSize` bytes when given (else the system's default).
package func startThread(stackSize: Int? = nil, _ body: @escaping () -> Void) {
    let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
    #if canImport(Glibc)
    var thread = pthread_t()
    let result = pthread_create(&thread, &attributes, { argument in
        Unmanaged<ThreadBody>.fromOpaque(argument!).takeRetainedValue().run()
        return nil
    }, box)
    #else
    var thread: pthread_t? = nil
    let result = pthread_create(&thread, &attributes, { argument in
        Unmanaged<ThreadBody>.fromOpaque(argument).takeRetainedValue().run()
        return nil
    }, box)
    #endif
    precondition(result == 0, "cannot start a thread: error \(result)")
    #if canImport(Glibc)
    pthread_detach(thread)
    #else
    pthread_detach(thread!)
    #endif
}

/// Runs `body` on `count` new threads at once and returns when every one has returned. Each
/// gets the main thread's usual 8 MiB of stack, not the 512 KiB secondary threads get on
/// macOS: decoders parse untrusted headers and the analysis runs on these threads.
/// - Parameters:
///   - count: how many threads.
///   - body: what each thread runs.
public func runOnThreads(_ count: Int, _ body: @escaping () -> Void) {
    let group = DispatchGroup()
    for _ in 0..<count {
        group.enter()
        startThread(stackSize: 8 << 20) {
            body()
            group.leave()
        }
    }
    group.wait()
}
