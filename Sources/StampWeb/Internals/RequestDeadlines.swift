import Platform

#if canImport(Glibc)
import Glibc
#endif

/// The time a connection has to send a whole request, head and body. libmicrohttpd closes only a
/// connection that sends nothing for a while, so a client sending a header line now and then
/// would hold its connection (and with enough of them, every connection) for as long as it likes.
/// A connection past its deadline is shut down: libmicrohttpd then closes it as if the client had.
/// One being answered (a stream too) has no deadline; after an answer, the next request on it
/// has a new one.
final class RequestDeadlines: Sendable {
    private struct Connection: Sendable {
        let socket: Int32
        var deadline: Double?
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

    /// Starts the thread that shuts connections down once their deadline has passed.
    init(seconds: Double) throws(Threads.StartError) {
        self.seconds = seconds
        try Threads.detach { [self] in watch() }
    }

    func opened(_ connection: OpaquePointer, socket: Int32) {
        guard socket >= 0 else { return }
        let deadline = WallClock.monotonic() + seconds
        state.withLock { $0.connections[Self.key(connection)] = Connection(socket: socket, deadline: deadline) }
    }

    /// The request has `seconds` more to arrive whole (a large upload).
    func extend(_ connection: OpaquePointer, by seconds: Double) {
        state.withLock { s in
            if let deadline = s.connections[Self.key(connection)]?.deadline {
                s.connections[Self.key(connection)]?.deadline = deadline + seconds
            }
        }
    }

    /// The request is in and being answered: no deadline while it is.
    func answering(_ connection: OpaquePointer) {
        state.withLock { $0.connections[Self.key(connection)]?.deadline = nil }
    }

    /// The answer is sent: the next request on the connection must come whole in time.
    func answered(_ connection: OpaquePointer) {
        let deadline = WallClock.monotonic() + seconds
        state.withLock { $0.connections[Self.key(connection)]?.deadline = deadline }
    }

    func closed(_ connection: OpaquePointer) {
        _ = state.withLock { $0.connections.removeValue(forKey: Self.key(connection)) }
    }

    /// Ends the watching thread (the daemon is stopped).
    func stop() {
        state.withLock { $0.stopped = true }
    }

    private static func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: connection) }

    /// Once a second, shuts down the connections whose time is up.
    private func watch() {
        while state.wait(timeout: 1, until: { $0.stopped }, then: { _ in }) == nil {
            let now = WallClock.monotonic()
            state.withLock { s in
                for (key, connection) in s.connections {
                    guard let deadline = connection.deadline, deadline <= now else { continue }
                    shutdown(connection.socket, Int32(SHUT_RDWR))
                    s.connections[key]?.deadline = nil
                }
            }
        }
    }
}
