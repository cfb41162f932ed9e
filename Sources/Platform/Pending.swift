/// A value worked out on a thread of its own while the caller does something else; `value()`
/// waits for it. The value is handed to the thread that takes it (fonts, which are not thread-safe
/// but may change threads between uses).
public final class Pending<Value>: @unchecked Sendable {
    // Set once by the working thread, under the lock; read under it.
    private let result = ConditionLock<Result<Value, any Error>?>(nil)

    public init(_ work: @escaping @Sendable () throws -> Value) {
        let result = self.result
        Threads.detach {
            let outcome = Result { try work() }
            result.withLock { $0 = outcome }
        }
    }

    /// The value, or what the work threw; waits until it is done.
    public func value() throws -> Value {
        try result.wait(until: { $0 != nil }, then: { $0! })!.get()
    }
}
