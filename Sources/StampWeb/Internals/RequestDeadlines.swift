import Platform

#if canImport(Glibc)
import Glibc
#endif

/// How long a connection may take to send a request. libmicrohttpd closes only a connection that
/// sends nothing for a while, so a client sending a byte now and then would hold its connection
/// (and with enough of them, every connection) for as long as it likes. Here time follows the
/// progress a client actually makes, never what it announces:
///
/// - the request line and headers must arrive whole within `headSeconds`;
/// - a body then has `headSeconds` of grace, and after that must keep arriving at `bytesPerSecond`
///   or more over each `headSeconds` (a phone on a site's Wi-Fi goes on; one sending a byte every
///   few seconds is cut once the grace is over, whatever Content-Length it gave).
///
/// A connection out of time is shut down: libmicrohttpd then closes it as if the client had. One
/// being answered (a stream too) has no deadline; after an answer, the next request on it starts again.
final class RequestDeadlines: Sendable {
    private struct Connection: Sendable {
        let socket: Int32
        /// The head must be in by then; nil while a body is coming or an answer is being made.
        var deadline: Double?
        /// The body: when the current stretch of it ends, and the bytes received before it began.
        var stretchEnds: Double?
        var bytesBefore = 0
        var bytes = 0
        var graceOver = false
    }

    private struct State: Sendable {
        /// By libmicrohttpd's connection pointer. An entry is made when a connection opens and
        /// removed when it closes; libmicrohttpd closes the socket only after that, so a socket
        /// shut down under the lock is always still the connection's own.
        var connections: [UInt: Connection] = [:]
        var stopped = false
    }

    private let state = ConditionLock(State())
    private let seconds: Double
    private let bytesPerSecond: Double
    private let clock: @Sendable () -> Double

    /// Starts the thread that shuts connections down once they are out of time (none for tests
    /// that call `expired(at:)` themselves).
    init(headSeconds: Double, bytesPerSecond: Double, watching: Bool = true,
         clock: @escaping @Sendable () -> Double = { WallClock.monotonic() }) throws(Threads.StartError) {
        seconds = headSeconds
        self.bytesPerSecond = bytesPerSecond
        self.clock = clock
        if watching { try Threads.detach { [self] in watch() } }
    }

    func opened(_ connection: OpaquePointer, socket: Int32) {
        guard socket >= 0 else { return }
        let deadline = clock() + seconds
        state.withLock { $0.connections[Self.key(connection)] = Connection(socket: socket, deadline: deadline) }
    }

    /// The head is in and a body follows: its grace starts now.
    func bodyStarts(_ connection: OpaquePointer) {
        let now = clock()
        state.withLock { s in
            let key = Self.key(connection)
            guard s.connections[key] != nil else { return }
            s.connections[key]?.deadline = nil
            s.connections[key]?.stretchEnds = now + seconds
            s.connections[key]?.bytesBefore = 0
            s.connections[key]?.bytes = 0
            s.connections[key]?.graceOver = false
        }
    }

    /// `count` more bytes of the body have arrived.
    func received(_ connection: OpaquePointer, bytes count: Int) {
        state.withLock { $0.connections[Self.key(connection)]?.bytes += count }
    }

    /// The request is in and being answered: no deadline while it is.
    func answering(_ connection: OpaquePointer) {
        state.withLock { s in
            s.connections[Self.key(connection)]?.deadline = nil
            s.connections[Self.key(connection)]?.stretchEnds = nil
        }
    }

    /// The answer is sent: the next request on the connection must come whole in time.
    func answered(_ connection: OpaquePointer) {
        let deadline = clock() + seconds
        state.withLock { s in
            s.connections[Self.key(connection)]?.deadline = deadline
            s.connections[Self.key(connection)]?.stretchEnds = nil
        }
    }

    func closed(_ connection: OpaquePointer) {
        _ = state.withLock { $0.connections.removeValue(forKey: Self.key(connection)) }
    }

    /// Ends the watching thread (the daemon is stopped).
    func stop() {
        state.withLock { $0.stopped = true }
    }

    private static func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: connection) }

    /// The sockets of the connections out of time at `now`, shut down; each is judged once.
    @discardableResult
    func expire(at now: Double) -> [Int32] {
        state.withLock { s in
            var late: [Int32] = []
            for (key, connection) in s.connections {
                if let deadline = connection.deadline, deadline <= now {
                    late.append(connection.socket)
                    s.connections[key]?.deadline = nil
                } else if let ends = connection.stretchEnds, ends <= now {
                    // The first stretch is the grace; from then on, each must bring its share.
                    if connection.graceOver && Double(connection.bytes - connection.bytesBefore) < bytesPerSecond * seconds {
                        late.append(connection.socket)
                        s.connections[key]?.stretchEnds = nil
                        continue
                    }
                    s.connections[key]?.graceOver = true
                    s.connections[key]?.bytesBefore = connection.bytes
                    s.connections[key]?.stretchEnds = now + seconds
                }
            }
            for socket in late { shutdown(socket, Int32(SHUT_RDWR)) }
            return late
        }
    }

    /// Once a second, shuts down the connections out of time.
    private func watch() {
        while state.wait(timeout: 1, until: { $0.stopped }, then: { _ in }) == nil {
            expire(at: clock())
        }
    }
}
