import Platform

/// Limits on what one client can make the server hold.
struct HTTPLimits: Sendable {
    /// Polling threads (libmicrohttpd's pool).
    var threads = 2
    /// Connections at once, in all and from one address.
    var connections = 64
    /// A quarter of them: one address (one client, or a flood from it) never takes them all.
    var connectionsPerAddress = 16
    /// A connection that sends or takes nothing for this long is closed (slow or vanished peers).
    var idleSeconds = 30
    /// A request's line and headers must arrive whole within this, however steadily they trickle
    /// in; its body then has as long again before it must keep up `bodyBytesPerSecond`.
    var requestSeconds = 10
    /// Request line and headers must fit in this (a larger request gets 431 from libmicrohttpd).
    var headerBytes = 32 * 1024
    /// A request body larger than this gets 413 without being read.
    var bodyBytes = 16 * 1024
    /// A photo uploaded (`POST /api/photos`) larger than this gets 413 (`--max-upload`).
    var uploadBytes = 50 << 20
    /// An upload's other fields: how many, and how long each.
    var uploadFields = 16
    var uploadFieldBytes = 1024
    /// A body, once its grace is over, must bring this much a second over each `requestSeconds`
    /// (a slow phone on a site's Wi-Fi goes on; a client sending a byte now and then does not hold
    /// on, whatever length it announces).
    var bodyBytesPerSecond = 32 * 1024
    /// Uploads read and stamped at once, by as many workers (the others wait in their temp files):
    /// a few, whatever the cores, as each holds a full-size photo's memory while it works.
    var uploadsAtOnce = min(3, max(1, Cores.count))
    /// Live-picture streams and event streams at once.
    var pictureStreams = 8
    var eventStreams = 16
}
