import Platform
import Synchronization

/// The latest fix from gpsd (through libgps), kept up to date by a thread of its own: a viewfinder
/// or a shutter asks `reading()` and never waits for the daemon. When gpsd goes away the receiver
/// reconnects every second; the last fix is kept (and ages: `FixRules` decide whether it is used).
public final class GPSDReceiver: FixSource {
    /// gpsd's own port (IANA).
    public static let defaultPort = "2947"

    public let address: String
    private let state: Mutex<FixReading>
    private let closed = Atomic<Bool>(false)

    /// Connects to gpsd at `host`:`port` now; throws when nothing answers there.
    public init(host: String = "localhost", port: String = GPSDReceiver.defaultPort) throws(LocationError) {
        address = "\(host):\(port)"
        let connection = try GPSDConnection(host: host, port: port)
        state = Mutex(FixReading(connected: true))
        let handOver = Handover(connection)
        Threads.detach { [self] in listen(handOver.take(), host: host, port: port) }
    }

    deinit { close() }

    public func reading() -> FixReading { state.withLock { $0 } }

    /// Waits up to `timeout` seconds for a first position; whether one came.
    @discardableResult
    public func waitForFix(timeout: Double) -> Bool {
        let end = WallClock.monotonic() + timeout
        while reading().fix == nil {
            guard WallClock.monotonic() < end, !closed.load(ordering: .relaxed) else { return false }
            WallClock.sleep(0.02)
        }
        return true
    }

    /// Stops listening (the thread ends within a quarter of a second).
    public func close() { closed.store(true, ordering: .relaxed) }

    private func listen(_ first: GPSDConnection, host: String, port: String) {
        var connection: GPSDConnection? = first
        while !closed.load(ordering: .relaxed) {
            guard let open = connection else {
                WallClock.sleep(1)
                do {
                    connection = try GPSDConnection(host: host, port: port)
                    state.withLock { $0.connected = true; $0.problem = nil }
                } catch {
                    state.withLock { $0.problem = Self.reason(error) }
                }
                continue
            }
            guard open.waiting(microseconds: 250_000) else { continue }
            do {
                take(try open.read())
            } catch {
                connection = nil
                state.withLock { $0.connected = false; $0.problem = Self.reason(error) }
            }
        }
    }

    private func take(_ report: GPSDConnection.Report) {
        let wall = WallClock.exactNow(), monotonic = WallClock.monotonic()
        state.withLock { reading in
            if report.deviceSeen { reading.receiverSeen = true }
            if var fix = report.position {
                reading.receiverSeen = true
                fix.receivedAt = wall
                fix.receivedMonotonic = monotonic
                // SKY and ATT reports come on their own; the latest of each goes with the position.
                fix.satellites = reading.fix?.satellites
                fix.compassHeading = reading.fix?.compassHeading
                reading.fix = fix
            }
            if report.noFix { reading.receiverSeen = true }
            if let used = report.satellitesUsed { reading.fix?.satellites = used }
            if let heading = report.compassHeading { reading.fix?.compassHeading = heading }
        }
    }

    private static func reason(_ error: LocationError) -> String {
        switch error {
        case .gpsdUnavailable(_, let reason), .gpsdLost(let reason): return reason
        }
    }
}

/// Hands the connection (not Sendable: it owns a C struct) to the listening thread, once.
private final class Handover: @unchecked Sendable {
    private var connection: GPSDConnection?
    init(_ connection: GPSDConnection) { self.connection = connection }
    func take() -> GPSDConnection {
        defer { connection = nil }
        return connection!
    }
}
