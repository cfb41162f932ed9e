import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The one owner of the signals that end a program: SIGINT, SIGTERM, SIGHUP and SIGQUIT. Whoever
/// holds something the process must not leave behind — a lit torch, a terminal in raw mode, photos
/// half written — registers a cleanup; when a signal arrives the cleanups run in their order, and the
/// process then ends the way the signal would have ended it (so a shell sees 130, 143 …).
///
/// A long job can intercept the first Ctrl-C to stop gracefully (no new work; what is in flight
/// finishes); a second Ctrl-C runs the cleanups and ends the process at once. A server can intercept
/// SIGTERM the same way, to end as a finished program (exit 0) rather than a killed one.
///
/// The C handler only writes the signal's number to a pipe; the cleanups run on a watcher thread,
/// so they may take locks and make system calls. Handlers (not SIG_IGN) are used so that programs
/// started with --exec get the default dispositions back.
public final class Signals: Sendable {
    public static let shared = Signals()

    public enum Signal: Int32, Sendable, CaseIterable {
        case interrupt = 2, hangUp = 1, quit = 3, terminate = 15

        public var name: String {
            switch self {
            case .interrupt: return "SIGINT"
            case .hangUp: return "SIGHUP"
            case .quit: return "SIGQUIT"
            case .terminate: return "SIGTERM"
            }
        }
    }

    /// When a cleanup runs: lower first. Lights go off before anything else, then the terminal is
    /// given back, then work in flight is finished.
    public struct Order: Comparable, Sendable {
        public let rank: Int
        public init(_ rank: Int) { self.rank = rank }
        public static func < (a: Order, b: Order) -> Bool { a.rank < b.rank }

        public static let lights = Order(0)
        public static let terminal = Order(10)
        public static let workInFlight = Order(20)
    }

    /// Keeps a cleanup or an interrupt handler registered until `cancel()` or deinit.
    public final class Registration: Sendable {
        private let signals: Signals
        private let key: Int

        fileprivate init(signals: Signals, key: Int) {
            self.signals = signals
            self.key = key
        }

        public func cancel() { signals.remove(key) }

        deinit { cancel() }
    }

    private struct Cleanup {
        let order: Order
        let key: Int
        let action: @Sendable () -> Void
    }

    private struct State {
        var cleanups: [Cleanup] = []
        var interruptHandlers: [(key: Int, signals: Set<Signal>, handler: @Sendable () -> Void)] = []
        var interrupts = 0
        var nextKey = 0
        var installed = false
    }

    private let state = Mutex(State())

    init() {}

    /// Registers `action` to run when a signal ends the process.
    public func onTermination(_ order: Order, _ action: @escaping @Sendable () -> Void) -> Registration {
        let key = state.withLock { state in
            state.nextKey += 1
            state.cleanups.append(Cleanup(order: order, key: state.nextKey, action: action))
            return state.nextKey
        }
        installOnce()
        return Registration(signals: self, key: key)
    }

    /// While registered, the first SIGINT calls `handler` (which should make the job stop taking
    /// new work) instead of ending the process.
    public func interceptInterrupt(_ handler: @escaping @Sendable () -> Void) -> Registration {
        intercept([.interrupt], handler)
    }

    /// While registered, the first of `signals` calls `handler` (which should make the job stop)
    /// instead of ending the process; another one of them runs the cleanups and ends it at once.
    public func intercept(_ signals: Set<Signal>, _ handler: @escaping @Sendable () -> Void) -> Registration {
        let key = state.withLock { state in
            state.nextKey += 1
            state.interruptHandlers.append((state.nextKey, signals, handler))
            state.interrupts = 0
            return state.nextKey
        }
        installOnce()
        return Registration(signals: self, key: key)
    }

    /// Whether an intercepted Ctrl-C (or another intercepted signal) has arrived.
    public var interrupted: Bool { state.withLock { $0.interrupts > 0 } }

    private func remove(_ key: Int) {
        state.withLock { state in
            state.cleanups.removeAll { $0.key == key }
            state.interruptHandlers.removeAll { $0.key == key }
        }
    }

    /// What a signal does: intercepted or not, then the cleanups and `terminate`. Tests call it with
    /// a `terminate` that records instead of ending the process.
    public func deliver(_ signal: Signal, terminate: (Signal) -> Void) {
        let (handlers, cleanups) = state.withLock { state -> ([@Sendable () -> Void], [Cleanup]) in
            let intercepting = state.interruptHandlers.filter { $0.signals.contains(signal) }
            if !intercepting.isEmpty {
                state.interrupts += 1
                if state.interrupts == 1 { return (intercepting.map(\.handler), []) }
            }
            return ([], state.cleanups.sorted { ($0.order, $0.key) < ($1.order, $1.key) })
        }
        if !handlers.isEmpty {
            for handler in handlers { handler() }
            return
        }
        for cleanup in cleanups { cleanup.action() }
        terminate(signal)
    }

    /// Writing past `ulimit -f` then fails with EFBIG (a full disk for our purposes) instead of
    /// killing the process in the middle of a batch.
    public static func ignoreFileSizeLimit() {
        signal(SIGXFSZ, SIG_IGN)
    }

    // MARK: the process's handlers

    /// The pipe the C handler writes signal numbers to (a handler may not touch Swift objects).
    nonisolated(unsafe) private static var pipeWriteEnd: Int32 = -1

    private func installOnce() {
        let first = state.withLock { state in
            defer { state.installed = true }
            return !state.installed
        }
        guard first else { return }
        // Without its pipe or the thread that reads it, no handler is installed: a signal then
        // does what it did before (ends the process), rather than being written where nobody reads.
        guard let ends = Self.makePipe() else { return state.withLock { $0.installed = false } }
        do {
            try Threads.detach { [self] in
                var byte: UInt8 = 0
                while true {
                    let count = read(ends.read, &byte, 1)
                    if count < 0 && errno == EINTR { continue }
                    guard count == 1, let signal = Signal(rawValue: Int32(byte)) else { return }
                    deliver(signal) { Self.endProcess($0) }
                }
            }
        } catch {
            close(ends.read)
            close(ends.write)
            return state.withLock { $0.installed = false }
        }
        Self.pipeWriteEnd = ends.write
        var owned = sigset_t()
        sigemptyset(&owned)
        for signal in Signal.allCases {
            // A signal ignored when we started stays ignored: `nohup` and a script's `cmd &` mean it.
            var previous = sigaction()
            sigaction(signal.rawValue, nil, &previous)
            if unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in Signals.forward(number, to: Signals.pipeWriteEnd) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signal.rawValue, &action, nil)
            sigaddset(&owned, signal.rawValue)
        }
        // A parent may have started us with these blocked (the mask is inherited): we handle them.
        pthread_sigmask(SIG_UNBLOCK, &owned, nil)
    }

    /// The self-pipe. Its write end never blocks: the handler may run on any thread, the watcher's
    /// included, and a full pipe (signals arriving faster than they are read) must not stop it.
    /// Neither end is inherited by a program started with --exec.
    static func makePipe() -> (read: Int32, write: Int32)? {
        guard let ends = GNUCalls.pipeClosedOnExec() else { return nil }
        let flags = fcntl(ends.write, F_GETFL)
        guard flags >= 0, fcntl(ends.write, F_SETFL, flags | O_NONBLOCK) == 0 else {
            close(ends.read)
            close(ends.write)
            return nil
        }
        return ends
    }

    /// What the C handler does: writes the signal's number to `fd`, and leaves errno as it found it
    /// (the handler may interrupt code between a failed call and its look at errno). When the pipe
    /// is full the number is dropped: signals are already waiting there to be handled.
    static func forward(_ number: Int32, to fd: Int32) {
        let saved = errno
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(fd, &byte, 1)
        errno = saved
    }

    /// Ends the process as `signal`'s default action does.
    private static func endProcess(_ signal: Signal) -> Never {
        Glibc.signal(signal.rawValue, SIG_DFL)
        kill(getpid(), signal.rawValue)
        // A signal blocked in every thread cannot end us: leave with the code a shell would show.
        _exit(128 + signal.rawValue)
    }
}
