import CWeb
import Synchronization

/// Where streamed connections wait for their next piece without holding a thread: a connection
/// with nothing to send is suspended here (libmicrohttpd stops polling it) and resumed when the
/// gate opens (a new frame, a new state). Parking is refused when the gate opened since the
/// caller's `ticket`, so a piece published between "nothing new" and parking is never missed.
/// Every parked connection is resumed exactly once.
final class StreamGate: Sendable {
    private struct Parked: @unchecked Sendable { let connection: OpaquePointer }  // only used under the lock
    private struct State {
        var ticket = 0
        var parked: [Parked] = []
    }

    private let state = Mutex(State())

    init() {}

    /// Changes every time the gate opens.
    var ticket: Int { state.withLock { $0.ticket } }

    /// How many connections wait here.
    var parkedCount: Int { state.withLock { $0.parked.count } }

    /// Suspends `connection` until the next `open()`, unless the gate opened after `ticket` was
    /// read. Call only from the connection's own content callback.
    func park(_ connection: OpaquePointer, ticket: Int) -> Bool {
        state.withLock { state in
            guard state.ticket == ticket else { return false }
            WebLibraries.loaded.MHD_suspend_connection(connection)
            state.parked.append(Parked(connection: connection))
            return true
        }
    }

    /// Wakes every parked connection: their feeds are asked again.
    func open() {
        state.withLock { state in
            state.ticket &+= 1
            let web = state.parked.isEmpty ? nil : WebLibraries.loaded
            for parked in state.parked { web?.MHD_resume_connection(parked.connection) }
            state.parked = []
        }
    }
}
