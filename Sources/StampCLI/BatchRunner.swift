import Foundation

/// Runs a batch on N worker threads. Each worker owns what is not thread-safe (its fonts, via the
/// `Context` it makes) and holds one photo at a time, so memory stays bounded whatever the batch size.
final class BatchRunner<Context>: @unchecked Sendable {
    enum Status: String, Sendable { case done, skipped, failed }

    struct Outcome: Sendable {
        let item: BatchItem
        let status: Status
        var output: String?
        var failure: Failure?
    }

    private let items: [BatchItem]
    private let workers: Int
    private let lock = NSLock()
    private var next = 0
    private var stopped = false

    init(items: [BatchItem], workers: Int) {
        self.items = items
        self.workers = max(1, min(workers, items.count))
    }

    /// No new photo is started after this; those in flight finish.
    func stop() { lock.withLock { stopped = true } }

    private func take() -> BatchItem? {
        lock.withLock {
            guard !stopped, next < items.count else { return nil }
            defer { next += 1 }
            return items[next]
        }
    }

    /// Processes every item; `report` is called once per item, serialised, in completion order.
    func run(makeContext: @escaping @Sendable () throws -> Context,
             process: @escaping @Sendable (Context, BatchItem) -> Outcome,
             report: @escaping @Sendable (Outcome) -> Void) throws {
        // Each worker's context is made up front so a setup error (a bad template) is one error, not N.
        var contexts: [Context] = []
        for _ in 0..<workers { contexts.append(try makeContext()) }
        let group = DispatchGroup()
        let reporting = NSLock()
        for context in contexts {
            group.enter()
            let box = UncheckedBox(context)
            let thread = Thread { [self] in
                while let item = take() {
                    let outcome = process(box.value, item)
                    reporting.withLock { report(outcome) }
                }
                group.leave()
            }
            thread.stackSize = 4 << 20
            thread.start()
        }
        group.wait()
    }
}

/// Hands a non-Sendable value to exactly one thread.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
