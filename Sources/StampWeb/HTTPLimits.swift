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
    /// A request's head and body must arrive whole within this, however steadily they trickle in
    /// (a slow client holds a connection no longer).
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
    /// An upload has `requestSeconds` and one more second for each this many bytes it announces
    /// (a slow phone on a site's Wi-Fi finishes; a client sending a byte now and then does not hold on).
    var uploadBytesPerSecond = 32 * 1024
    /// Uploads read into memory and stamped at once (the others wait in their temp files): memory
    /// stays bounded however many phones send at the same moment.
    var uploadsAtOnce = max(1, Cores.count)
    /// Live-picture streams and event streams at once.
    var pictureStreams = 8
    var eventStreams = 16
}
