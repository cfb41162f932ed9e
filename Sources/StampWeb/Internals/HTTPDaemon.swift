import CWeb
import Platform
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The one owner of a libmicrohttpd daemon: it parses HTTP, keeps connections alive, chunks
/// streamed answers and enforces the connection limits; this class turns each complete request
/// into an `HTTPRequest` value, asks `handler` for the answer and hands that to libmicrohttpd.
/// Request bodies are collected up to `limits.bodyBytes`: every body must say its length
/// (Content-Length; a chunked one gets 411 at once: libmicrohttpd cannot answer in the middle of a
/// body, so one without an end could only be read forever or cut without a word), and a longer one
/// than may come gets 413 before it is read. A request that does not keep arriving is cut
/// (`RequestDeadlines`). A form posted to `uploads.path` is received by an `UploadReceiver`
/// instead, its photo up to `limits.uploadBytes` streamed to a temp file in `uploads.folder`, and
/// answered by one of `limits.uploadsAtOnce` workers while the other uploads wait in their files.
/// With `tls` it speaks HTTPS only. `stop()` (or deinit) ends every connection; no connection may be parked
/// in a `StreamGate` then (`LiveHub.close` wakes them all and lets none park again).
final class HTTPDaemon: @unchecked Sendable {  // `port` is set in init only, the library table never; the handle is behind a lock
    typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    private let handler: Handler
    private let limits: HTTPLimits
    private let web: sc_web
    private let daemon: Mutex<Handle?>
    private let deadlines: RequestDeadlines
    /// The paths photos are posted to: the phones' uploads, the check page's photos.
    private let uploads: [Uploads]
    /// Where uploads are read and answered: a few threads, not one an upload (see `WorkerPool`).
    private let uploadWorkers: WorkerPool<Void>?
    /// libmicrohttpd reads the key and certificate when it starts; they are kept while it runs.
    private let tls: [[CChar]]
    /// The port the daemon listens on (the one the system chose for port 0). Set once, in init.
    private(set) var port = 0

    private struct Handle: @unchecked Sendable { let pointer: OpaquePointer }

    /// Where photos are posted, the folder their temp files go in (nil: memory only), and who may
    /// send one: `admit` sees the request without its body and answers the ones refused before it is read.
    struct Uploads: Sendable {
        var path: String
        var folder: String?
        /// The largest photo taken here; nil: `limits.uploadBytes`.
        var maxBytes: Int? = nil
        var admit: @Sendable (HTTPRequest) -> HTTPResponse?
    }

    /// Listens on `address` with internal threads. Throws when the address cannot be used.
    init(address: ListenAddress, limits: HTTPLimits, tls: TLSCredentials? = nil, uploads: Uploads? = nil,
         checks: Uploads? = nil, handler: @escaping Handler) throws(WebError) {
        self.handler = handler
        self.limits = limits
        self.uploads = [uploads, checks].compactMap { $0 }
        self.tls = tls.map { [$0.keyPEM.utf8CString.map { $0 }, $0.certificatePEM.utf8CString.map { $0 }] } ?? []
        daemon = Mutex(nil)
        do { web = try WebLibraries.load() } catch { throw .libraryMissing(error) }
        do throws(Threads.StartError) {
            deadlines = try RequestDeadlines(headSeconds: Double(limits.requestSeconds), bytesPerSecond: Double(limits.bodyBytesPerSecond))
            uploadWorkers = self.uploads.isEmpty ? nil : try WorkerPool(workers: limits.uploadsAtOnce, makeState: {})
        } catch {
            throw .cannotListen(address: address.description, reason: error.description)
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        errno = 0
        let started: OpaquePointer? = self.tls.withPEM { key, certificate in
            let cLimits = sc_mhd_limits(threads: UInt32(limits.threads), connections: UInt32(limits.connections),
                                        connections_per_ip: UInt32(limits.connectionsPerAddress),
                                        timeout_seconds: UInt32(limits.idleSeconds),
                                        memory_per_connection: limits.headerBytes, tls_key: key, tls_certificate: certificate)
            return address.withSocketAddress { socketAddress, isIPv6 in
                sc_mhd_start(socketAddress, isIPv6 ? 1 : 0, cLimits, accessHandler, context, completedHandler, context,
                             connectionHandler, context)
            }
        }
        guard let started else {
            deadlines.stop()
            uploadWorkers?.close()
            let code = errno
            let reason: String
            switch code {
            case 0: reason = tls == nil ? "libmicrohttpd could not start a server there"
                                        : "libmicrohttpd could not start an HTTPS server there (is the key the certificate's?)"
            case EADDRINUSE: reason = "address already in use"
            case EADDRNOTAVAIL: reason = "this machine has no such address"
            case EACCES: reason = "permission denied (ports below 1024 need privileges)"
            default: reason = Errno.current.reason
            }
            throw .cannotListen(address: address.description, reason: reason)
        }
        port = Int(sc_mhd_port(started))
        daemon.withLock { $0 = Handle(pointer: started) }
    }

    deinit { stop() }

    /// Closes the listening socket and every connection; waits for handlers that are running.
    func stop() {
        // libmicrohttpd cannot stop with a connection suspended: the uploads being stamped finish first.
        stamping.wait(until: { $0 == 0 }, then: { _ in })
        guard let handle = daemon.withLock({ current -> Handle? in
            defer { current = nil }
            return current
        }) else { return }
        web.MHD_stop_daemon(handle.pointer)
        deadlines.stop()
        uploadWorkers?.close()
    }

    // MARK: requests

    /// What is known of a request between libmicrohttpd's calls: its body so far.
    private final class Pending {
        var body: [UInt8] = []
        var refused = false
        /// A photo being uploaded.
        var upload: UploadReceiver?
        /// An upload refused in the middle of its body: libmicrohttpd takes an answer only once the
        /// body is in, so the rest is read and dropped, then this is the answer.
        var refusal: HTTPResponse?
        /// Bytes dropped since: past `dropLimit` the connection is closed (a body that never ends).
        var dropped = 0
        /// The answer to an upload, made on a thread of its own while the connection is suspended.
        let answer = Answer()
    }

    private final class Answer: Sendable {
        let value = Mutex<HTTPResponse?>(nil)
    }

    /// A connection handed to an upload's thread, which only resumes it once (libmicrohttpd's own lock).
    private struct Suspended: @unchecked Sendable { let connection: OpaquePointer }
    /// Uploads handed to the workers (`stop` waits for them: their connections are suspended).
    private let stamping = ConditionLock(0)

    fileprivate func access(_ connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
                            upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>,
                            context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let stored = context.pointee else {
            // The first call: the request line and headers are here, the body is not yet.
            let pending = Pending()
            context.pointee = Unmanaged.passRetained(pending).toOpaque()
            let names = headerNames(connection)
            if let ambiguity = Self.ambiguity(names) {
                pending.refused = true
                return queue(.json(status: 400, error: ambiguity), on: connection)  // answered at once: the body is not read
            }
            if names.contains("transfer-encoding") {
                pending.refused = true
                return queue(.json(status: 411, error: "send the body with a Content-Length (a chunked body is not taken)"), on: connection)
            }
            deadlines.bodyStarts(connection)
            let length = header(connection, "Content-Length").flatMap { Int($0) }
            if method.map(Self.text) == "POST", let uploads = uploads.first(where: { url.map(Self.text) == $0.path }) {
                let head = HTTPRequest(method: "POST", path: uploads.path, query: values(connection, sc_mhd_query, lowercased: false),
                                       headers: values(connection, sc_mhd_headers, lowercased: true),
                                       cookies: values(connection, sc_mhd_cookies, lowercased: false), peer: peerAddress(connection))
                if let refusal = uploads.admit(head) {
                    pending.refused = true
                    return queue(refusal, on: connection)  // answered at once: the body is not read
                }
                return startUpload(connection, length: length, uploads: uploads, pending: pending)
            }
            if let length, length > limits.bodyBytes {
                pending.refused = true
                return queue(tooLarge(), on: connection)  // answered at once: the body is not read
            }
            return sc_mhd_yes
        }
        let pending = Unmanaged<Pending>.fromOpaque(stored).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            let count = uploadSize.pointee
            uploadSize.pointee = 0
            deadlines.received(connection, bytes: count)
            guard !pending.refused else { return sc_mhd_yes }
            if let receiver = pending.upload {
                if let upload, !receiver.receive(upload, count: count) {
                    pending.refusal = (receiver.problem ?? .malformed("the upload was refused")).response
                    pending.upload = nil  // its temp file goes now, not when the client is done sending
                }
                return sc_mhd_yes
            }
            if pending.refusal != nil {
                pending.dropped += count
                return pending.dropped > Self.dropLimit ? sc_mhd_no : sc_mhd_yes  // dropped; an endless body is cut
            }
            if pending.body.count + count > limits.bodyBytes {
                pending.refused = true
                pending.body = []
                return queue(tooLarge(), on: connection)
            }
            if let upload { pending.body.append(contentsOf: UnsafeRawBufferPointer(start: upload, count: count)) }
            return sc_mhd_yes
        }
        if pending.refused { return sc_mhd_yes }  // already answered
        // The request is whole: however long the answer takes to make, the connection is not cut.
        deadlines.answering(connection)
        if let refusal = pending.refusal { return queue(refusal, on: connection) }
        if let answer = pending.answer.value.withLock({ $0.take() }) { return queue(answer, on: connection) }  // resumed
        let receiver = pending.upload
        pending.upload = nil
        let request = HTTPRequest(
            method: method.map(Self.text) ?? "",
            path: url.map(Self.text) ?? "/",
            query: values(connection, sc_mhd_query, lowercased: false),
            headers: values(connection, sc_mhd_headers, lowercased: true),
            cookies: values(connection, sc_mhd_cookies, lowercased: false),
            body: pending.body,
            peer: peerAddress(connection))
        pending.body = []
        if let receiver { return answerLater(request, receiver: receiver, on: connection, pending: pending) }
        return queue(handler(request), on: connection)
    }

    /// Reads and stamps an upload on one of the upload workers: the polling thread goes on serving
    /// the other connections (the live picture, other phones) meanwhile. The connection is
    /// suspended until the answer is made, then resumed, and libmicrohttpd asks again: `access`
    /// finds the answer. Only `limits.uploadsAtOnce` photos are read into memory and stamped at a
    /// time; the others wait in their temp files.
    private func answerLater(_ request: HTTPRequest, receiver: UploadReceiver, on connection: OpaquePointer,
                             pending: Pending) -> MHD_Result {
        let suspended = Suspended(connection: connection)
        let answer = pending.answer
        stamping.withLock { $0 += 1 }
        web.MHD_suspend_connection(connection)
        let accepted = uploadWorkers?.submit { [handler, stamping] _ in
            var request = request
            let response: HTTPResponse
            do throws(UploadReceiver.Problem) {
                request.upload = try receiver.finish()
                response = handler(request)
            } catch {
                response = error.response
            }
            answer.value.withLock { $0 = response }
            WebLibraries.loaded.MHD_resume_connection(suspended.connection)
            stamping.withLock { $0 -= 1 }
        } ?? false
        if !accepted {
            web.MHD_resume_connection(connection)
            stamping.withLock { $0 -= 1 }
            return queue(.json(status: 503, error: "the server is stopping; send the photo again later"), on: connection)
        }
        return sc_mhd_yes
    }

    fileprivate func completed(_ connection: OpaquePointer?, _ context: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) {
        if let connection { deadlines.answered(connection) }
        guard let context, let stored = context.pointee else { return }
        Unmanaged<Pending>.fromOpaque(stored).release()
        context.pointee = nil
    }

    /// A connection opened or closed: its request deadline starts or ends.
    fileprivate func connection(_ connection: OpaquePointer, opened: Bool) {
        if opened {
            deadlines.opened(connection, socket: sc_mhd_connection_socket(connection))
        } else {
            deadlines.closed(connection)
        }
    }

    /// Why a request with these header names (lowercase) could be read two ways, or nil: where its
    /// body ends (two Content-Lengths, or one beside Transfer-Encoding) or which site it is for (two
    /// Hosts). A proxy in front may have read it the other way, so it is refused (request smuggling).
    static func ambiguity(_ names: [String]) -> String? {
        let lengths = names.filter { $0 == "content-length" }.count
        if lengths > 1 { return "the request has \(lengths) Content-Length headers; send one" }
        if lengths == 1 && names.contains("transfer-encoding") {
            return "the request has both Content-Length and Transfer-Encoding; send one"
        }
        let hosts = names.filter { $0 == "host" }.count
        if hosts > 1 { return "the request has \(hosts) Host headers; send one" }
        return nil
    }

    /// A photo about to be posted: refused at once when it announces more than may come, else
    /// received as it arrives.
    private func startUpload(_ connection: OpaquePointer, length: Int?, uploads: Uploads, pending: Pending) -> MHD_Result {
        var limits = self.limits
        if let most = uploads.maxBytes { limits.uploadBytes = most }
        // The form's other fields and its part headers come on top of the photo.
        let most = limits.uploadBytes + limits.uploadFields * (limits.uploadFieldBytes + 512)
        if let length, length > most {
            pending.refused = true
            return queue(UploadReceiver.Problem.tooLarge(limit: limits.uploadBytes).response, on: connection)
        }
        do {
            pending.upload = try UploadReceiver(connection: connection, folder: uploads.folder, limits: limits, web: web)
        } catch {
            pending.refused = true
            return queue(error.response, on: connection)
        }
        return sc_mhd_yes
    }

    /// How much of a refused upload's rest is read to give its answer; a longer rest closes the connection.
    static let dropLimit = 1 << 20

    private func tooLarge() -> HTTPResponse {
        .json(status: 413, error: "the request body is larger than \(limits.bodyBytes) bytes")
    }

    // MARK: answers

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        deadlines.answering(connection)  // also an answer given before the body (413, 400)
        guard let made = makeResponse(response.body, connection: connection) else { return sc_mhd_no }
        defer { web.MHD_destroy_response(made) }
        for (name, value) in response.headers + HTTPResponse.commonHeaders {
            // A value with a line break would split the header: never sent (none of ours has one).
            guard !value.contains(where: { $0 == "\r" || $0 == "\n" }) else { continue }
            _ = web.MHD_add_response_header(made, name, value)
        }
        return web.MHD_queue_response(connection, UInt32(response.status), made)
    }

    private func makeResponse(_ body: HTTPResponse.Body, connection: OpaquePointer) -> OpaquePointer? {
        switch body {
        case .bytes(let bytes):
            return bytes.withUnsafeBytes { buffer in
                web.MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress),
                                                sc_mhd_copy)
            }
        case .file(let file):
            guard let (descriptor, size) = file.take() else { return nil }
            guard let response = web.MHD_create_response_from_fd(size, descriptor) else {
                close(descriptor)
                return nil
            }
            return response  // libmicrohttpd closes the descriptor with the response
        case .stream(let feed):
            let client = Unmanaged.passRetained(StreamClient(feed: feed, connection: connection)).toOpaque()
            guard let response = web.MHD_create_response_from_callback(sc_mhd_size_unknown, 32 * 1024, streamReader, client,
                                                                   streamFinished) else {
                streamFinished(client)
                return nil
            }
            return response
        }
    }

    // MARK: what libmicrohttpd knows of a connection

    private func header(_ connection: OpaquePointer, _ name: String) -> String? {
        web.MHD_lookup_connection_value(connection, sc_mhd_headers, name).map { Self.text($0) }
    }

    /// A C string's bytes as text, byte for byte (`PathEncoding`).
    private static func text(_ pointer: UnsafePointer<CChar>) -> String {
        PathEncoding.decode(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
    }

    /// Every value of one kind (later ones win); names of headers lowercased. Text that is not
    /// UTF-8 is kept byte for byte (`PathEncoding`), so it never matches a token by accident.
    private func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind, lowercased: Bool) -> [String: String] {
        final class Collected { var values: [String: String] = [:] }
        let collected = Collected()
        let context = Unmanaged.passUnretained(collected).toOpaque()
        _ = web.MHD_get_connection_values(connection, kind, { context, _, key, value in
            guard let context, let key else { return sc_mhd_yes }
            let box = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
            let name = PathEncoding.decode(UnsafeRawBufferPointer(start: key, count: strlen(key)))
            box.values[name] = value.map { PathEncoding.decode(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? ""
            return sc_mhd_yes
        }, context)
        guard lowercased else { return collected.values }
        return Dictionary(collected.values.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// The name of every header the request has, lowercase, repeated ones as often as they came.
    private func headerNames(_ connection: OpaquePointer) -> [String] {
        final class Collected { var names: [String] = [] }
        let collected = Collected()
        let context = Unmanaged.passUnretained(collected).toOpaque()
        _ = web.MHD_get_connection_values(connection, sc_mhd_headers, { context, _, key, _ in
            guard let context, let key else { return sc_mhd_yes }
            let name = PathEncoding.decode(UnsafeRawBufferPointer(start: key, count: strlen(key)))
            Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue().names.append(name.lowercased())
            return sc_mhd_yes
        }, context)
        return collected.names
    }

    private func peerAddress(_ connection: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        sc_mhd_client_address(connection, &buffer, buffer.count)
        return buffer.withUnsafeBufferPointer { Self.text($0.baseAddress!) }
    }
}

// libmicrohttpd's callbacks: C function pointers that find their daemon or stream through `cls`.

private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, upload, uploadSize, context in
    guard let cls, let connection, let uploadSize, let context else { return sc_mhd_no }
    return Unmanaged<HTTPDaemon>.fromOpaque(cls).takeUnretainedValue()
        .access(connection, url: url, method: method, upload: upload, uploadSize: uploadSize, context: context)
}

private let completedHandler: MHD_RequestCompletedCallback = { cls, connection, context, _ in
    guard let cls else { return }
    Unmanaged<HTTPDaemon>.fromOpaque(cls).takeUnretainedValue().completed(connection, context)
}

private let connectionHandler: MHD_NotifyConnectionCallback = { cls, connection, _, code in
    guard let cls, let connection else { return }
    Unmanaged<HTTPDaemon>.fromOpaque(cls).takeUnretainedValue().connection(connection, opened: code == sc_mhd_connection_started)
}

private let streamReader: MHD_ContentReaderCallback = { cls, _, buffer, capacity in
    guard let cls, let buffer else { return sc_mhd_end_with_error }
    return Unmanaged<StreamClient>.fromOpaque(cls).takeUnretainedValue().fill(buffer, capacity: capacity)
}

private let streamFinished: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    let client = Unmanaged<StreamClient>.fromOpaque(cls).takeRetainedValue()
    client.feed.finished()
}

/// One streamed answer on one connection: the bytes of the piece being sent and where it is, and
/// the feed the next piece comes from. libmicrohttpd calls it from one thread at a time.
private final class StreamClient {
    let feed: any StreamFeed
    let connection: OpaquePointer
    private var piece: [UInt8] = []
    private var sent = 0

    init(feed: any StreamFeed, connection: OpaquePointer) {
        self.feed = feed
        self.connection = connection
    }

    /// Copies what fits into `buffer`; when there is nothing new, parks the connection (0 bytes:
    /// libmicrohttpd asks again once the gate opens). A slow client is asked less often and so
    /// skips pieces: the feed always hands out its latest.
    func fill(_ buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        while true {
            if sent < piece.count {
                let count = min(capacity, piece.count - sent)
                piece.withUnsafeBytes { bytes in
                    UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + sent, byteCount: count)
                }
                sent += count
                return count
            }
            let ticket = feed.gate.ticket
            switch feed.next() {
            case .send(let bytes):
                piece = bytes
                sent = 0
            case .end:
                return sc_mhd_end_of_stream
            case .wait:
                if feed.gate.park(connection, ticket: ticket) { return 0 }
            }
        }
    }
}

private extension [[CChar]] {
    /// The key and certificate as C strings (NULL for plain HTTP), valid inside `body`.
    func withPEM<Result>(_ body: (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Result) -> Result {
        guard count == 2 else { return body(nil, nil) }
        return self[0].withUnsafeBufferPointer { key in
            self[1].withUnsafeBufferPointer { certificate in body(key.baseAddress, certificate.baseAddress) }
        }
    }
}
