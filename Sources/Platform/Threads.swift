#if canImport(Glibc)
import Glibc
#endif

/// Plain POSIX threads: a group run to completion, or one thread left running.
public enum Threads {
    /// Runs `body(0)` … `body(count - 1)` each on its own thread and waits for all of them.
    public static func run(count: Int, stackSize: Int = 4 << 20, _ body: @escaping @Sendable (Int) -> Void) {
        let threads = (0..<count).map { index in start(stackSize: stackSize) { body(index) } }
        for thread in threads {
            if let thread { pthread_join(thread, nil) }
        }
    }

    /// Starts `body` on a thread of its own that nobody waits for.
    public static func detach(_ body: @escaping @Sendable () -> Void) {
        if let thread = start(stackSize: 1 << 20, body) { pthread_detach(thread) }
    }

    /// `detach`, for a body that runs until told to stop (a loop waiting for work): false, and
    /// `body` not run, when no thread can be made (run inline, it would never return).
    public static func detachLoop(_ body: @escaping @Sendable () -> Void) -> Bool {
        guard let thread = start(stackSize: 1 << 20, inlineWhenRefused: false, body) else { return false }
        pthread_detach(thread)
        return true
    }

    private final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    private static func start(stackSize: Int, inlineWhenRefused: Bool = true, _ body: @escaping @Sendable () -> Void) -> pthread_t? {
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
            // No thread: run it here rather than lose the work (unless the caller can do without).
            let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
            if inlineWhenRefused { box.body() }
            return nil
        }
        return thread
    }
}
