import Platform
import Synchronization

/// One page's event stream (Server-Sent Events): `state` events with the state JSON when it
/// changes, `notice` events with camera notes and warnings, and a comment line every 15 s.
final class EventFeed: StreamFeed {
    static let keepAliveSeconds = 15.0

    private struct Cursor {
        var version = -1
        var notice: Int
        var lastSend = 0.0
        var started = false
        var done = false
    }

    private let app: WebApp
    private let client: ControlSeat.Client
    private let cursor: Mutex<Cursor>

    init(app: WebApp, client: ControlSeat.Client) {
        self.app = app
        self.client = client
        // Only notices from now on: older ones were for the pages open then.
        cursor = Mutex(Cursor(notice: app.hub.notices(after: 0).last?.number ?? 0))
    }

    var gate: StreamGate { app.hub.events }

    func next() -> StreamStep {
        if app.hub.isClosed { return .end }
        let now = WallClock.monotonic()
        var position = cursor.withLock { $0 }
        var text = ""
        if !position.started {
            text += "retry: 2000\n\n"
            position.started = true
        }
        let version = app.hub.version
        if version != position.version {
            position.version = version
            text += "event: state\ndata: " + String(decoding: WebJSON.bytes(app.stateJSON(for: client)), as: UTF8.self) + "\n\n"
        }
        for numbered in app.hub.notices(after: position.notice) {
            position.notice = numbered.number
            let notice = WebJSON.Notice(text: PathEncoding.display(numbered.notice.text), warning: numbered.notice.isWarning)
            text += "event: notice\ndata: " + String(decoding: WebJSON.bytes(notice), as: UTF8.self) + "\n\n"
        }
        if text.isEmpty && now - position.lastSend >= Self.keepAliveSeconds { text = ": keep-alive\n\n" }
        if !text.isEmpty { position.lastSend = now }
        let updated = position
        cursor.withLock { $0 = updated }
        return text.isEmpty ? .wait : .send(Array(text.utf8))
    }

    func finished() {
        let first = cursor.withLock { cursor in
            defer { cursor.done = true }
            return !cursor.done
        }
        if first { app.listenerLeft(client) }
    }
}
