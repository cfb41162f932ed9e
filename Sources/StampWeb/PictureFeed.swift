import Synchronization

/// One client's live picture: multipart JPEG parts, always the newest frame (a slow client skips
/// frames rather than holding anyone up).
final class PictureFeed: StreamFeed {
    private let hub: LiveHub
    private let sent = Mutex(0)
    private let done = Mutex(false)

    init(hub: LiveHub) { self.hub = hub }

    var gate: StreamGate { hub.frames }

    func next() -> StreamStep {
        let last = sent.withLock { $0 }
        let (step, number) = hub.frame(after: last)
        sent.withLock { $0 = number }
        if last == 0, case .send(let part) = step {
            return .send(Array(LiveHub.partHeader.utf8) + part)  // the stream's first part opens here
        }
        return step
    }

    func finished() {
        let first = done.withLock { done in
            defer { done = true }
            return !done
        }
        if first { hub.viewerLeft() }
    }
}
