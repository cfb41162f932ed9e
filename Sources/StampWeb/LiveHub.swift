import Capture
import Imaging
import Library
import Platform
import Session
import Synchronization

/// Follows the shoot controller for every browser at once, on a thread of its own: turns each new
/// picture into one JPEG that all live streams share (only while someone watches), numbers the
/// states and notices the event streams send, keeps this session's saved photos with their
/// thumbnails, and asks the controller for pictures only while a page is open. Streams never
/// wait for the camera and the camera never waits for a stream: each stream takes the latest
/// frame when its client is ready for one.
final class LiveHub: Sendable {
    /// A photo saved in this session, as `/shots/` serves it.
    struct Shot: Sendable {
        /// The file name (byte-exact, see `PathEncoding`).
        var name: String
        var path: String
        /// The file as it was saved: `/shots/` serves nothing that has replaced it since.
        var identity: FileIdentity?
        var thumbnail: [UInt8]?
        /// Whose phone sent it (`WebApp.uploadOwner`); nil for the server's camera.
        var owner: String?
    }

    /// A notice for the event streams, numbered.
    struct NumberedNotice: Sendable {
        var number: Int
        var notice: ShootController.Notice
    }

    private struct State {
        var frame: (number: Int, part: [UInt8])?
        var version = 0
        var view: WebState?
        var notices: [NumberedNotice] = []
        var shots: [Shot] = []
        /// How many of the controller's saved photos are among `shots` (uploads are there too).
        var controllerShots = 0
        var viewers = 0
        var listeners = 0
        var closed = false
    }

    /// The server's camera; nil when it has none (a team's phones bring their own).
    let controller: ShootController?
    let frames = StreamGate()
    let events = StreamGate()
    private let state = Mutex(State())
    private let stopped = ConditionLock(false)
    private let previewLongSide: Int
    private let quality: Int
    static let boundary = "stampcamframe"
    /// What opens each part of the live picture.
    static let partHeader = "--\(boundary)\r\nContent-Type: image/jpeg\r\n\r\n"

    /// `previewLongSide`: the live picture fits in a square this big (960: 960×540 from a 16:9 camera).
    init(controller: ShootController?, previewLongSide: Int, quality: Int = 80) throws(Threads.StartError) {
        self.controller = controller
        self.previewLongSide = previewLongSide
        self.quality = quality
        guard let controller else {
            stopped.withLock { $0 = true }
            return
        }
        try Threads.detach { [self] in
            run(controller)
            stopped.withLock { $0 = true }
        }
    }

    /// Ends every stream and the hub's thread; the controller is left to its owner.
    func close() {
        let first = state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        frames.open()
        events.open()
        if first { stopped.wait(timeout: 5, until: { $0 }, then: { _ in }) }
    }

    var isClosed: Bool { state.withLock { $0.closed } }

    /// Counts the changes of what the pages show (their event streams send the state when it moves).
    var version: Int { state.withLock { $0.version } }
    var shots: [Shot] { state.withLock { $0.shots } }
    var streamCounts: (viewers: Int, listeners: Int) { state.withLock { ($0.viewers, $0.listeners) } }

    /// Something the state JSON shows changed outside the controller (who controls the camera).
    func touch() {
        state.withLock { $0.version += 1 }
        events.open()
    }

    // MARK: streams

    /// A live-picture stream, or nil when `limit` are open already.
    func openPictureStream(limit: Int) -> PictureFeed? {
        let admitted = state.withLock { state -> Bool in
            guard !state.closed, state.viewers < limit else { return false }
            state.viewers += 1
            return true
        }
        return admitted ? PictureFeed(hub: self) : nil
    }

    /// Admits an event stream (nil when `limit` are open); `render` makes its state events.
    func admitListener(limit: Int) -> Bool {
        state.withLock { state in
            guard !state.closed, state.listeners < limit else { return false }
            state.listeners += 1
            return true
        }
    }

    func listenerLeft() { state.withLock { $0.listeners -= 1 } }

    func viewerLeft() { state.withLock { $0.viewers -= 1 } }

    /// The newest frame after `number`, `.end` once closed, else `.wait`.
    func frame(after number: Int) -> (StreamStep, Int) {
        state.withLock { state in
            if state.closed { return (.end, number) }
            guard let frame = state.frame, frame.number > number else { return (.wait, number) }
            return (.send(frame.part), frame.number)
        }
    }

    /// Notices after `number` (at most the last 20 are kept).
    func notices(after number: Int) -> [NumberedNotice] {
        state.withLock { $0.notices.filter { $0.number > number } }
    }

    // MARK: the thread

    private func run(_ controller: ShootController) {
        var seen = -1
        var lastPicture: Bitmap?
        var lastAudience = WallClock.monotonic()
        var lastTick = WallClock.monotonic()
        var noticeNumber = 0
        var frameNumber = 0  // never reused, also after the frame is dropped
        var previewOn = false
        while !isClosed {
            let snapshot = controller.waitForChange(after: seen, timeout: 0.5)
            seen = snapshot.generation
            let now = WallClock.monotonic()
            let (viewers, listeners) = streamCounts
            // Pictures only while a page is open (and a little after, so a reload does not stop them).
            if viewers + listeners > 0 { lastAudience = now }
            let wanted = now - lastAudience < 10
            if wanted != previewOn {
                controller.previewSize = wanted ? (previewLongSide, previewLongSide) : nil
                previewOn = wanted
                if !wanted {
                    // A page opened later waits for a fresh frame rather than get this old one.
                    state.withLock { $0.frame = nil }
                    lastPicture = nil
                }
            }
            // Frames are made while a page is open (its picture stream may be reconnecting), so a
            // stream that opens gets the current picture, not an old one.
            if viewers + listeners > 0, let picture = snapshot.picture,
               !(lastPicture.map { $0.sharesMemory(with: picture) } ?? false) {
                lastPicture = picture
                if let jpeg = try? Photo(bitmap: picture).encoded(quality: quality).bytes {
                    // Each part is followed at once by the next part's boundary and headers: a browser
                    // shows a part only when the next one has begun, and the picture under review is
                    // the last part for a while. (So the parts carry no Content-Length.)
                    let part = jpeg + Array(("\r\n" + Self.partHeader).utf8)
                    state.withLock { state in
                        frameNumber += 1
                        state.frame = (number: frameNumber, part: part)
                    }
                    frames.open()
                }
            } else if snapshot.picture == nil {
                lastPicture = nil
            }
            let news = controller.snapshot(takeNotices: true).notices
            updateShots(controller)
            let view = WebState(snapshot, shots: shots.count)
            var changed = state.withLock { state -> Bool in
                guard state.view != view else { return false }
                state.view = view
                state.version += 1
                return true
            }
            if !news.isEmpty {
                state.withLock { state in
                    for notice in news {
                        noticeNumber += 1
                        state.notices.append(NumberedNotice(number: noticeNumber, notice: notice))
                    }
                    state.notices = Array(state.notices.suffix(20))
                }
                changed = true
            }
            // Event streams send a keep-alive line now and then: a vanished phone is noticed, and
            // nothing in between closes a quiet connection.
            if now - lastTick > EventFeed.keepAliveSeconds / 3 {
                lastTick = now
                changed = true
            }
            if changed { events.open() }
        }
        if previewOn { controller.previewSize = nil }
    }

    /// Thumbnails kept in memory (the newest); older ones are made again when asked for.
    static let keptThumbnails = 100

    /// Adds the photos saved since the last look, with a thumbnail each.
    private func updateShots(_ controller: ShootController) {
        let saved = controller.saved
        let known = state.withLock { $0.controllerShots }
        guard saved.count > known else { return }
        for written in saved[known...] {
            add(written.path)
            state.withLock { $0.controllerShots += 1 }
        }
    }

    /// Adds a photo saved in this session (by the camera or uploaded), with its thumbnail.
    func add(_ path: String, owner: String? = nil) {
        var shot = Shot(name: PhotoName.lastComponent(path), path: path, owner: owner)
        if let file = try? FileContents(path: FilePath(path)) {
            shot.identity = file.status.identity
            shot.thumbnail = Self.thumbnail(of: file)
        }
        state.withLock { state in
            state.shots.append(shot)
            let old = state.shots.count - Self.keptThumbnails - 1
            if old >= 0 { state.shots[old].thumbnail = nil }
            state.version += 1
        }
        events.open()
    }

    /// A small JPEG of a saved photo (shrunk on load: a large photo costs little).
    static func thumbnail(of file: FileContents) -> [UInt8]? {
        guard let small = try? Photo(jpeg: file, options: LoadOptions(maxSize: 320)) else { return nil }
        return try? small.encoded(quality: 75).bytes
    }
}
