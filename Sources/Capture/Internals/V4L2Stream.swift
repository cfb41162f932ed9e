import Platform
/// Frames from a V4L2 node: a `BufferQueue` with poll, EAGAIN, unplug and I/O-error handling.
final class V4L2Stream: FrameSource {
    let node: V4L2Node
    let layout: FrameLayout
    private let host: any VideoDeviceHost
    private let bufferCount: Int
    private var queue: BufferQueue?
    private var restartAllowed = true
    private var notes: [String] = []

    /// Frames in a row that may arrive damaged before we give up.
    static let damagedFrameLimit = 30

    init(node: V4L2Node, layout: FrameLayout, host: any VideoDeviceHost, bufferCount: Int = 4) {
        self.node = node
        self.layout = layout
        self.host = host
        self.bufferCount = bufferCount
    }

    private var path: String { node.path }

    func start() throws(CaptureError) {
        if queue?.streaming == true { return }
        do throws(Errno) {
            if queue == nil { queue = try BufferQueue(io: node.io, count: bufferCount) }
            try queue?.start()
        } catch {
            throw CaptureError(error, device: path, call: "starting the stream")
        }
    }

    func stop() { queue?.stop() }

    func allowRestart() { restartAllowed = true }

    func takeNotes() -> [String] {
        defer { notes = [] }
        return notes
    }

    func withNextFrame<Result>(timeout: Double, _ body: (Frame) throws(CaptureError) -> Result) throws(CaptureError) -> Result {
        try start()
        let deadline = host.now() + timeout
        var damaged = 0
        while true {
            let buffer = try nextBuffer(deadline: deadline, timeout: timeout)
            // Back into the queue whatever the body does; a failure here (unplugged) shows at the next dequeue.
            defer { try? queue?.queue(buffer.index) }
            if buffer.flaggedError || buffer.bytes.isEmpty {
                damaged += 1
                if damaged >= Self.damagedFrameLimit {
                    throw .badFrames(path, detail: "\(damaged) frames in a row were empty or flagged as broken")
                }
                continue
            }
            return try body(Frame(bytes: buffer.bytes, layout: layout, timestamp: buffer.timestamp, sequence: buffer.sequence))
        }
    }

    private func nextBuffer(deadline: Double, timeout: Double) throws(CaptureError) -> BufferQueue.Dequeued {
        guard let queue else { throw .deviceCall(path, call: "VIDIOC_DQBUF", reason: "the stream is not running") }
        var idleWakeups = 0
        while true {
            let remaining = max(0, deadline - host.now())
            let events: PollEvents
            do { events = try node.io.wait(milliseconds: Int32(min(remaining, 3600) * 1000)) } catch {
                throw CaptureError(error, device: path, call: "poll")
            }
            if events.isEmpty { throw .timeout(path, seconds: timeout) }
            if events.contains(.hangUp) { throw .unplugged(path) }
            do {
                return try queue.dequeue()
            } catch Errno.wouldBlock {
                // poll said ready but nothing was: tolerate a few, but an error state that never
                // yields a buffer must not spin forever.
                idleWakeups += 1
                if idleWakeups > 1000 { throw .timeout(path, seconds: timeout) }
            } catch Errno.io {
                try restartAfterIOError()
            } catch {
                throw CaptureError(error, device: path, call: "VIDIOC_DQBUF")
            }
        }
    }

    /// A fatal streaming error (EIO): the driver recovers after STREAMOFF, so stop and start once.
    private func restartAfterIOError() throws(CaptureError) {
        guard restartAllowed, let queue else { throw .streamingFailed(path) }
        restartAllowed = false
        queue.stop()
        do { try queue.start() } catch {
            throw error == .noDevice ? .unplugged(path) : .streamingFailed(path)
        }
        notes.append("\(path): the camera reported a streaming error; the stream was restarted")
    }
}
