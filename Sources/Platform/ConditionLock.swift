#if canImport(Glibc)
import Glibc
#endif

/// A value behind a lock with a condition to wait on: for threads that hand work to each other and
/// wait for it (a camera thread waiting for commands, a test waiting for a state). Plain locking
/// without waiting uses `Synchronization.Mutex`.
///
/// Sendable because `value` is only touched with `mutex` held, and `Value` is Sendable itself: a
/// value that leaves the lock (a copy, or a reference inside it) may then be used on any thread.
public final class ConditionLock<Value: Sendable>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Only touched with `mutex` held.
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    /// Reads or changes the value; waiting threads are woken afterwards.
    @discardableResult
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return try body(&value)
    }

    /// Waits until `ready` says yes (then runs `body` under the same lock and returns its result), or
    /// until `timeout` seconds have passed (nil: no limit), then returns nil.
    public func wait<Result>(timeout: Double? = nil, until ready: (Value) -> Bool,
                             then body: (inout Value) throws -> Result) rethrows -> Result? {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        let deadline = timeout.map { WallClock.monotonic() + max(0, $0) }
        while !ready(value) {
            if let deadline {
                let left = deadline - WallClock.monotonic()
                if left <= 0 { return nil }
                var now = timespec()
                clock_gettime(CLOCK_MONOTONIC, &now)
                // A billion seconds at most: an endless timeout would trap in `Int(_:)`.
                let total = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 + min(left, 1e9)
                var until = timespec(tv_sec: Int(total), tv_nsec: Int((total - total.rounded(.down)) * 1e9))
                pthread_cond_timedwait(condition, mutex, &until)
            } else {
                pthread_cond_wait(condition, mutex)
            }
        }
        return try body(&value)
    }
}
