/// A value worked out on a thread of its own while the caller does something else; `value()`
/// waits for it. The value is handed to the thread that takes it (fonts, which are not thread-safe
/// but may change threads between uses).
public final class Pending<Value>: @unchecked Sendable {
    /// Made by the working thread and then handed to the thread that takes it (see above).
    private struct Outcome: @unchecked Sendable {
        let result: Result<Value, any Error>
    }

    // Set once by the working thread, under the lock; read under it.
    private let result = ConditionLock<Outcome?>(nil)

    public init(_ work: @escaping @Sendable () throws -> Value) {
        let result = self.result
        do {
            try Threads.detach {
                let outcome = Result { try work() }
                result.withLock { $0 = Outcome(result: outcome) }
            }
        } catch {
            result.withLock { $0 = Outcome(result: .failure(error)) }
        }
    }

    /// The value, or what the work threw; waits until it is done.
    public func value() throws -> Value {
        try result.wait(until: { $0 != nil }, then: { $0! })!.result.get()
    }
}

/// A value one thread gives and another waits for, given once; nil says none will come, so the
/// waiting thread is not left waiting when the giver ends early.
public final class Handoff<Value: Sendable>: Sendable {
    // Set once, under the lock; read under it.
    private let slot = ConditionLock<(given: Bool, value: Value?)>((false, nil))

    public init() {}

    /// Gives `value` (nil: none will come); only the first call counts.
    public func give(_ value: Value?) {
        slot.withLock { if !$0.given { $0 = (true, value) } }
    }

    /// Waits for the value: nil when the giver said none will come.
    public func take() -> Value? {
        slot.wait(until: { $0.given }, then: { $0.value }) ?? nil
    }
}
