#if canImport(Glibc)
import Glibc
#endif

/// A few long-lived threads that take work from one queue, oldest first. Each worker makes its own
/// state once, on its own thread, and keeps it for every job it runs (fonts, which are not
/// thread-safe). However much work is handed out, only `workers` jobs run at once and the rest wait
/// as the values they are (an upload waits as its temp file, not as its decoded photo).
///
/// glibc gives each thread that allocates a malloc arena of its own and keeps what is freed there:
/// a thread per job would keep a job's peak memory per thread long after. A few workers keep a
/// few; and once the queue is empty and every worker idle, what they freed is given back.
///
/// ```swift
/// let pool = try WorkerPool(workers: 2) { try Watermarker(fontConfig: path) }
/// pool.submit { fonts in … }              // returns at once; runs on a free worker
/// let sizes = pool.map(photos) { fonts, photo in … }   // results in the order of `photos`
/// pool.close()                             // runs what is queued, then ends the workers
/// ```
public final class WorkerPool<State>: Sendable {
    /// One job: it gets the worker's state, or the error that kept the state from being made.
    public typealias Job = @Sendable (inout Result<State, any Error>) -> Void

    private struct Queue: Sendable {
        var jobs: [Job] = []
        var running = 0
        var closed = false
        var workersLeft = 0
    }

    private let queue = ConditionLock(Queue())

    /// The number of workers.
    public let workers: Int

    /// Starts `workers` threads (at least one); each calls `makeState` once, on itself, before its
    /// first job.
    public init(workers: Int, stackSize: Int = 4 << 20,
                makeState: @escaping @Sendable () throws -> State) throws(Threads.StartError) {
        self.workers = max(1, workers)
        queue.withLock { $0.workersLeft = self.workers }
        var started = 0
        do {
            for _ in 0..<self.workers {
                try Threads.detach(stackSize: stackSize) { [queue] in Self.work(queue, makeState: makeState) }
                started += 1
            }
        } catch {
            queue.withLock { q in
                q.closed = true
                q.workersLeft -= self.workers - started
            }
            throw error
        }
    }

    deinit { close() }

    /// Hands `job` to the next free worker and returns; false (and it never runs) once closed.
    @discardableResult
    public func submit(_ job: @escaping Job) -> Bool {
        queue.withLock { q in
            guard !q.closed else { return false }
            q.jobs.append(job)
            return true
        }
    }

    /// Jobs waiting and running.
    public var pending: Int { queue.withLock { $0.jobs.count + $0.running } }

    /// `work` run on the workers for each of `items`, the results in the order of `items`; waits
    /// for all of them. Empty once closed.
    public func map<Item: Sendable, Output: Sendable>(_ items: [Item],
                                                      _ work: @escaping @Sendable (inout Result<State, any Error>, Item) -> Output) -> [Output] {
        let results = ConditionLock((outputs: [Output?](repeating: nil, count: items.count), done: 0))
        var handedOut = 0
        for (index, item) in items.enumerated() {
            let accepted = submit { state in
                let output = work(&state, item)
                results.withLock { r in
                    r.outputs[index] = output
                    r.done += 1
                }
            }
            if accepted { handedOut += 1 }
        }
        return results.wait(until: { $0.done == handedOut }, then: { $0.outputs.compactMap { $0 } }) ?? []
    }

    /// Takes no more work, waits for what is queued and running to end, and ends the workers.
    public func close() {
        queue.withLock { $0.closed = true }
        queue.wait(until: { $0.workersLeft == 0 }, then: { _ in })
    }

    private static func work(_ queue: ConditionLock<Queue>, makeState: @Sendable () throws -> State) {
        var state = Result { try makeState() }
        while let job = queue.wait(until: { !$0.jobs.isEmpty || $0.closed }, then: { q -> Job? in
            guard !q.jobs.isEmpty else { return nil }
            q.running += 1
            return q.jobs.removeFirst()
        }) ?? nil {
            job(&state)
            let idle = queue.withLock { q in
                q.running -= 1
                return q.running == 0 && q.jobs.isEmpty
            }
            // Every worker idle: the memory their jobs freed goes back to the system.
            if idle { GNUCalls.trimHeap() }
        }
        queue.withLock { $0.workersLeft -= 1 }
    }
}
