import Platform
import CV4L2

/// The driver's frame buffers, mapped into our memory, and the stream that fills them. Owns the
/// mappings (released in deinit, after the stream is stopped and before the buffers are freed).
final class BufferQueue {
    /// One dequeued frame buffer; its memory belongs to the queue until it is queued again.
    struct Dequeued {
        var index: Int
        var bytes: UnsafeRawBufferPointer
        var flaggedError: Bool
        /// CLOCK_MONOTONIC seconds when the frame was captured (0 when the driver gives none).
        var timestamp: Double
        var sequence: UInt32
    }

    private let io: any VideoDeviceIO
    private var mappings: [(address: UnsafeMutableRawPointer, length: Int)] = []
    private(set) var streaming = false

    /// Requests `count` MMAP buffers and maps each one.
    init(io: any VideoDeviceIO, count: Int) throws(Errno) {
        self.io = io
        var request = v4l2_requestbuffers()
        request.count = UInt32(count)
        request.type = UInt32(sc_BUF_TYPE_VIDEO_CAPTURE)
        request.memory = UInt32(sc_MEMORY_MMAP)
        try io.call(sc_VIDIOC_REQBUFS, &request)
        guard request.count > 0 else { throw Errno.noData }
        for index in 0..<Int(request.count) {
            var buffer = Self.buffer(index: index)
            try io.call(sc_VIDIOC_QUERYBUF, &buffer)
            switch io.map(length: Int(buffer.length), offset: Int(buffer.m.offset)) {
            case .success(let address): mappings.append((address, Int(buffer.length)))
            case .failure(let error): throw error
            }
        }
    }

    deinit {
        stop()
        for mapping in mappings { io.unmap(mapping.address, length: mapping.length) }
        var release = v4l2_requestbuffers()
        release.type = UInt32(sc_BUF_TYPE_VIDEO_CAPTURE)
        release.memory = UInt32(sc_MEMORY_MMAP)
        _ = try? io.call(sc_VIDIOC_REQBUFS, &release)
    }

    var count: Int { mappings.count }

    /// Queues every buffer and starts the stream.
    func start() throws(Errno) {
        for index in mappings.indices { try queue(index) }
        var type = Int32(sc_BUF_TYPE_VIDEO_CAPTURE)
        try io.call(sc_VIDIOC_STREAMON, &type)
        streaming = true
    }

    /// Stops the stream; the driver takes every buffer back out of the queue.
    func stop() {
        guard streaming else { return }
        streaming = false
        var type = Int32(sc_BUF_TYPE_VIDEO_CAPTURE)
        _ = try? io.call(sc_VIDIOC_STREAMOFF, &type)
    }

    func queue(_ index: Int) throws(Errno) {
        var buffer = Self.buffer(index: index)
        try io.call(sc_VIDIOC_QBUF, &buffer)
    }

    /// The next filled buffer; throws EAGAIN when none is ready yet.
    func dequeue() throws(Errno) -> Dequeued {
        var buffer = Self.buffer(index: 0)
        try io.call(sc_VIDIOC_DQBUF, &buffer)
        let index = Int(buffer.index)
        guard mappings.indices.contains(index) else { throw Errno.invalid }
        let used = min(Int(buffer.bytesused), mappings[index].length)
        let monotonic = buffer.flags & UInt32(sc_BUF_FLAG_TIMESTAMP_MASK) == UInt32(sc_BUF_FLAG_TIMESTAMP_MONOTONIC)
        let seconds = Double(buffer.timestamp.tv_sec) + Double(buffer.timestamp.tv_usec) / 1_000_000
        return Dequeued(index: index, bytes: UnsafeRawBufferPointer(start: mappings[index].address, count: used),
                        flaggedError: buffer.flags & UInt32(sc_BUF_FLAG_ERROR) != 0,
                        timestamp: monotonic ? seconds : 0, sequence: buffer.sequence)
    }

    private static func buffer(index: Int) -> v4l2_buffer {
        var buffer = v4l2_buffer()
        buffer.index = UInt32(index)
        buffer.type = UInt32(sc_BUF_TYPE_VIDEO_CAPTURE)
        buffer.memory = UInt32(sc_MEMORY_MMAP)
        return buffer
    }
}
