#if canImport(Glibc)
import Glibc
#endif

/// Plain POSIX threads: a group run to completion, or one thread left running. A thread that
/// cannot be made is an error (the system's limit on threads or memory), never work run inline.
public enum Threads {
    /// Runs `body(0)` … `body(count - 1)` each on its own thread and waits for all of them. All or
    /// nothing: when one of the threads cannot be made, no `body` runs and this throws.
    public static func run(count: Int, stackSize: Int = 4 << 20, _ body: @escaping @Sendable (Int) -> Void) throws(ThreadError) {
        // Held closed until every thread is made; nil once a thread could not be.
        let gate = ConditionLock<Bool?>(false)
        var threads: [pthread_t] = []
        var failure: ThreadError?
        for index in 0..<count {
            do {
                threads.append(try start(stackSize: stackSize) {
                    guard gate.wait(until: { $0 != false }, then: { $0 }) == true else { return }
                    body(index)
                })
            } catch {
                failure = error
                break
            }
        }
        gate.withLock { $0 = failure == nil ? true : nil }
        for thread in threads { pthread_join(thread, nil) }
        if let failure { throw failure }
    }

    /// Starts `body` on a thread of its own that nobody waits for. `body` is sent to that thread:
    /// what it captures (a camera, a connection) belongs to the new thread from then on.
    public static func detach(_ body: sending @escaping () -> Void) throws(ThreadError) {
        pthread_detach(try start(stackSize: 1 << 20, body))
    }

    /// Carries a thread's body through pthread_create's context pointer. Unchecked: the body was
    /// sent by the caller, and exactly one thread (the one made for it) takes and runs it.
    private final class Box: @unchecked Sendable {
        let body: () -> Void
        init(_ body: sending @escaping () -> Void) { self.body = body }
    }

    private static func start(stackSize: Int, _ body: sending @escaping () -> Void) throws(ThreadError) -> pthread_t {
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
            throw ThreadError(errno: Errno(status))
        }
        return thread
    }
}

/// A thread the system would not make (its limit on threads, or memory).
public struct ThreadError: Error, Sendable, CustomStringConvertible {
    public let errno: Errno

    public var description: String { "cannot start a thread: \(errno)" }
}
