import Platform
/// The one door to the kernel for an open device node (video, media or flash subdevice): every
/// ioctl, poll and mmap goes through it. `LibV4L2Device` is the real one; unit tests script a fake.
/// Implementations report failures as errno values and never retry; `Errno.retrying` does.
protocol VideoDeviceIO: AnyObject {
    /// The node's path, for messages.
    var path: String { get }
    /// One ioctl on `argument`; 0 or the errno it failed with (EINTR included).
    func ioctl(_ request: UInt, _ argument: UnsafeMutableRawPointer) -> Int32
    /// Waits up to `milliseconds` for the node to be readable or to report an error. Sets `events`
    /// to what happened (0 when the time ran out) and returns 0, or returns an errno.
    func poll(milliseconds: Int32, events: inout PollEvents) -> Int32
    /// Maps a driver buffer; the mapping is released with `unmap`.
    func map(length: Int, offset: Int) -> Result<UnsafeMutableRawPointer, Errno>
    func unmap(_ address: UnsafeMutableRawPointer, length: Int)
}

/// What poll reported for a video node.
struct PollEvents: OptionSet, Sendable {
    let rawValue: Int16
    static let readable = PollEvents(rawValue: 0x001)     // POLLIN
    static let error = PollEvents(rawValue: 0x008)        // POLLERR
    static let hangUp = PollEvents(rawValue: 0x010)       // POLLHUP
}

extension VideoDeviceIO {
    /// One ioctl on a C struct, retried on EINTR (by `Errno.retrying`); throws the errno it fails with.
    func call<Argument>(_ request: UInt, _ argument: inout Argument) throws(Errno) {
        try Errno.retrying { () throws(Errno) in
            let status = withUnsafeMutableBytes(of: &argument) { ioctl(request, $0.baseAddress!) }
            if status != 0 { throw Errno(status) }
        }
    }

    /// Poll, retried on EINTR.
    func wait(milliseconds: Int32) throws(Errno) -> PollEvents {
        var events = PollEvents()
        try Errno.retrying { () throws(Errno) in
            let status = poll(milliseconds: milliseconds, events: &events)
            if status != 0 { throw Errno(status) }
        }
        return events
    }
}

/// Which kind of node to open: a video node goes through libv4l2, the others stay plain.
enum NodeKind: Sendable {
    case video, media, subdevice
}

/// The machine's device nodes: opening them, listing them, telling their names and numbers, and
/// the monotonic clock buffer timestamps use. `LinuxDeviceHost` is the real one.
protocol VideoDeviceHost: Sendable {
    func open(_ path: String, kind: NodeKind) -> Result<any VideoDeviceIO, Errno>
    /// `/dev/PREFIXn` nodes in number order, e.g. prefix "video" or "media".
    func nodes(prefix: String) -> [String]
    /// The stable `/dev/v4l/by-id` name of each node that has one, keyed by the node's path.
    func stableNames() -> [String: String]
    /// The (major, minor) number of a character device node.
    func deviceNumber(of path: String) -> DeviceNumber?
    /// The `/dev` path of the character device with this number.
    func path(of number: DeviceNumber) -> String?
    /// Seconds on CLOCK_MONOTONIC.
    func now() -> Double
    /// The wall-clock time and the local zone's offset from UTC then, for a photo's metadata.
    func wallClock() -> (secondsSinceEpoch: Int, utcOffsetMinutes: Int)
}

struct DeviceNumber: Hashable, Sendable {
    let major: UInt32
    let minor: UInt32
}
