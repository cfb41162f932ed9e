import Platform
import Synchronization

/// The latest fix from gpsd (through libgps), kept up to date by a thread of its own: a viewfinder
/// or a shutter asks `reading()` and never waits for the daemon. When gpsd goes away the receiver
/// reconnects every second; the last fix is kept (and ages: `FixRules` decide whether it is used).
/// The thread holds the receiver until `close()` (a command's receiver lives as long as the process).
public final class GPSDReceiver: FixSource {
    /// gpsd's own port (IANA).
    public static let defaultPort = "2947"

    public let address: String
    private let state: Mutex<State>

    /// The reading, and the latest SKY and ATT values (they may come before the first position).
    private struct State {
        var reading: FixReading
        var satellites: Int?
        var compassHeading: Double?
    }
    private let closed = Atomic<Bool>(false)

    /// Connects to gpsd at `host`:`port` now; throws when nothing answers there (`LocationError`)
    /// or no thread can be made to listen (`Threads.StartError`).
    public init(host: String = "localhost", port: String = GPSDReceiver.defaultPort) throws {
        address = "\(host):\(port)"
        let connection = try GPSDConnection(host: host, port: port)
        state = Mutex(State(reading: FixReading(connected: true)))
        try Threads.detach { [self] in listen(connection, host: host, port: port) }
    }

    public func reading() -> FixReading { state.withLock { $0.reading } }

    /// Waits up to `timeout` seconds for a reading that `ready` accepts (by default: one with a
    /// position); whether one came.
    @discardableResult
    public func waitForFix(timeout: Double, until ready: (FixReading) -> Bool = { $0.fix != nil }) -> Bool {
        let end = WallClock.monotonic() + timeout
        while !ready(reading()) {
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
                    state.withLock { $0.reading.connected = true; $0.reading.problem = nil }
                } catch {
                    state.withLock { $0.reading.problem = Self.reason(error) }
                }
                continue
            }
            guard open.waiting(microseconds: 250_000) else { continue }
            do {
                take(try open.read())
            } catch {
                connection = nil
                state.withLock { $0.reading.connected = false; $0.reading.problem = Self.reason(error) }
            }
        }
    }

    private func take(_ report: GPSDConnection.Report) {
        let wall = WallClock.exactNow(), monotonic = WallClock.monotonic()
        state.withLock { state in
            if report.deviceSeen || report.noFix { state.reading.receiverSeen = true }
            if let used = report.satellitesUsed {
                state.satellites = used
                state.reading.fix?.satellites = used
            }
            if let heading = report.compassHeading {
                state.compassHeading = heading
                state.reading.fix?.compassHeading = heading
            }
            if var fix = report.position {
                state.reading.receiverSeen = true
                fix.receivedAt = wall
                fix.receivedMonotonic = monotonic
                // SKY and ATT reports come on their own; the latest of each goes with the position,
                // and so do the course and speed of the last report when this one has none (gpsd
                // may report a cycle's GGA before its RMC).
                fix.satellites = state.satellites
                fix.compassHeading = state.compassHeading
                fix.track = fix.track ?? state.reading.fix?.track
                fix.speed = fix.speed ?? state.reading.fix?.speed
                state.reading.fix = fix
            }
        }
    }

    private static func reason(_ error: LocationError) -> String {
        switch error {
        case .gpsdUnavailable(_, let reason), .gpsdLost(let reason), .projection(let reason): return reason
        case .libraryMissing(let missing): return missing.description
        }
    }
}

extension GPSDReceiver {
    /// Loads libgps now (`doctor`); throws when it is missing. Live GPS needs it; the rest does not.
    public static func loadLibrary() throws(MissingLibrary) {
        _ = try GPSDConnection.library()
    }
}
