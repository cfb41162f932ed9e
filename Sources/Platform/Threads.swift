#if canImport(Glibc)
import Glibc
#endif

/// Plain POSIX threads: a group run to completion, or one thread left running. A thread that
/// cannot be made (EAGAIN: a process or cgroup thread limit) is an error the caller sees; the work
/// is never run on the caller's thread instead, where a loop would never return.
public enum Threads {
    /// No thread could be made; `errno` says why (EAGAIN: a limit on threads or processes).
    public struct StartError: Error, Equatable, Sendable, CustomStringConvertible {
        public let errno: Errno

        public init(_ errno: Errno) { self.errno = errno }

        public var description: String { "cannot start a thread: \(errno)" }
    }

    /// Runs `body(0)` … `body(count - 1)` each on its own thread and waits for all of them. Either
    /// every body runs or none does: when a thread cannot be made, those already made return
    /// without running theirs and the error is thrown.
    public static func run(count: Int, stackSize: Int = 4 << 20, _ body: @escaping @Sendable (Int) -> Void) throws(StartError) {
        try run(stackSizes: Array(repeating: stackSize, count: count), body)
    }

    /// `run` with a stack size for each thread: tests make one of them impossible.
    static func run(stackSizes: [Int], _ body: @escaping @Sendable (Int) -> Void) throws(StartError) {
        // Each thread waits for the verdict: true once all are made, false when one could not be.
        let started = ConditionLock<Bool?>(nil)
        var threads: [pthread_t] = []
        var failure: StartError?
        for (index, stackSize) in stackSizes.enumerated() {
            do {
                threads.append(try start(stackSize: stackSize) {
                    guard started.wait(until: { $0 != nil }, then: { $0 == true }) ?? false else { return }
                    body(index)
                })
            } catch {
                failure = error
                break
            }
        }
        started.withLock { $0 = failure == nil }
        for thread in threads { pthread_join(thread, nil) }
        if let failure { throw failure }
    }

    /// Starts `body` on a thread of its own that nobody waits for. `body` is sent to that thread:
    /// what it captures (a camera, a connection) belongs to the new thread from then on.
    public static func detach(stackSize: Int = 1 << 20, _ body: sending @escaping () -> Void) throws(StartError) {
        pthread_detach(try start(stackSize: stackSize, body))
    }

    /// Carries a thread's body through pthread_create's context pointer. Unchecked: the body was
    /// sent by the caller (or is Sendable), and exactly one thread, the one made for it, runs it.
    private final class Box: @unchecked Sendable {
        let body: () -> Void
        init(_ body: sending @escaping () -> Void) { self.body = body }
    }

    private static func start(stackSize: Int, _ body: sending @escaping () -> Void) throws(StartError) -> pthread_t {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        let status = pthread_create(&thread, &attributes, { context in
            Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            throw StartError(Errno(status))
        }
        return thread
    }
}
