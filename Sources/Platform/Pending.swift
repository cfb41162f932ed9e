import Synchronization

/// A value made on a thread of its own while the caller does something else, then taken, once, by
/// the thread that uses it (fonts: not thread-safe, but they may change threads between uses).
public final class Pending<Value>: Sendable {
    private let result = Mutex<Result<Value, any Error>?>(nil)
    private let done = ConditionLock(false)

    /// Starts `work` on a new thread.
    public init(_ work: @escaping @Sendable () throws -> sending Value) throws(Threads.StartError) {
        try Threads.detach { [self] in
            // Made under the lock, so it is the lock's from the start (the taker's once taken).
            result.withLock { $0 = Self.outcome(of: work) }
            done.withLock { $0 = true }
        }
    }

    private static func outcome(of work: () throws -> sending Value) -> sending Result<Value, any Error> {
        do { return .success(try work()) } catch { return .failure(error) }
    }

    /// Waits until the work has ended.
    public func wait() {
        done.wait(until: { $0 }, then: { _ in })
    }

    /// The value, or what the work threw; waits for it. Only one call may take it.
    public func take() throws -> sending Value {
        wait()
        guard let outcome = result.withLock({ $0.take() }) else { preconditionFailure("a pending value was taken twice") }
        return try outcome.get()
    }
}
