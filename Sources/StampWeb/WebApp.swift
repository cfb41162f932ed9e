import Capture
import Platform
import Session
import Synchronization
import Templates
import Values

/// The browser viewfinder's HTTP side, without sockets: every request becomes a response here,
/// so routing, access and the JSON API are tested with plain values.
///
/// Reads: `GET /` (a team member's phone camera, or the server's camera for this machine), `/camera`
/// (the server's camera), `/phone` (this phone's camera), `/app.js`, `/app.css`, `/icon.svg`,
/// `/api/state`, `/api/styles`, `/api/shots`, `/api/words` (`?lang=`), `/shots/NAME` (`?thumbnail=1`),
/// `/stream.mjpg`, `/api/events`; a phone's own (`WebApp+Phone`).
/// Changes (POST, JSON body): `/api/shutter`, `/api/retake`, `/api/use`, `/api/style`, `/api/flash`,
/// `/api/zoom`, `/api/focus`, `/api/camera`, `/api/fields`, `/api/control`.
final class WebApp: Sendable {
    /// The server's camera; nil when it has none (`serve --team` without `--device`).
    let controller: ShootController?
    let hub: LiveHub
    let policy: AccessPolicy
    let limits: HTTPLimits
    /// Style ids and names, in cycle order.
    let styles: [(id: String, name: String)]
    /// The project pick list (the config file's projects).
    let projects: [String]
    private let seat: Mutex<ControlSeat>
    /// Counts changes of the seat's holder, which the controller's generation does not see.
    private let seatChanges = Mutex(0)
    let clock: @Sendable () -> Double
    /// Photos from the phones' cameras; nil takes none.
    let uploads: PhotoUploads?
    let rate = Mutex(UploadRate())
    /// The page's words in each language.
    let words: PageWords
    /// The public check page, answered before any token is asked for; nil serves none.
    let check: CheckPage?
    /// The styles a phone cycles through (the server's camera's, as templates).
    let phoneStyles: [Template]
    /// What each phone chose for its own photos, by its owner (`uploadOwner`): never shared.
    let desks = Mutex<[String: PhoneDesk]>([:])
    /// The certificate authority a phone installs to trust this server (`/ca`); nil without one.
    let authority: TLSCredentials.Authority?
    /// The team's photos for the lead's page (`/team`); nil when the server logs none.
    let lead: LeadDesk?

    init(controller: ShootController?, hub: LiveHub, policy: AccessPolicy, limits: HTTPLimits,
         styles: [(id: String, name: String)], projects: [String], awayAfter: Double = 10, uploads: PhotoUploads? = nil,
         words: PageWords = .english, check: CheckPage? = nil, phoneStyles: [Template] = [], authority: TLSCredentials.Authority? = nil,
         lead: LeadDesk? = nil,
         clock: @escaping @Sendable () -> Double = { WallClock.monotonic() }) {
        self.uploads = uploads
        self.check = check
        self.authority = authority
        self.phoneStyles = phoneStyles
        self.lead = lead
        self.words = words
        self.controller = controller
        self.hub = hub
        self.policy = policy
        self.limits = limits
        self.styles = styles
        self.projects = projects
        seat = Mutex(ControlSeat(awayAfter: awayAfter))
        self.clock = clock
    }

    /// The server's camera, on the routes that drive it: `cameraRefusal` lets none through without one.
    private var camera: ShootController { controller! }

    // MARK: routing

    func respond(to request: HTTPRequest) -> HTTPResponse { respond(to: request, route: route) }

    /// The access policy's answer, or `route`'s.
    func respond(to request: HTTPRequest, route: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        if let check, CheckPage.handles(request.path) { return check.respond(to: request) }  // public: no token
        let setCookie: String?
        switch policy.check(request) {
        case .deny(let status, let message):
            let headers: [(String, String)] = status == 401 ? [("WWW-Authenticate", "Bearer realm=\"stampcam\"")] : []
            return .json(status: status, error: message, headers: headers)
        case .allow(let cookie):
            setCookie = cookie
        }
        var response = route(request)
        if let setCookie { response.headers.append(("Set-Cookie", setCookie)) }
        return response
    }

    private static let reads: Set<String> = ["/", "/index.html", "/camera", "/page.js", "/app.js", "/app.css", "/icon.svg", "/manifest.webmanifest", "/sw.js",
                                             "/api/state", "/api/words", "/api/styles", "/api/shots", "/stream.mjpg", "/api/events"]
    /// What only the server's camera answers.
    private static let cameraReads: Set<String> = ["/camera", "/index.html", "/api/state", "/api/styles", "/stream.mjpg", "/api/events"]
    private static let changes: Set<String> = ["/api/shutter", "/api/retake", "/api/use", "/api/style", "/api/flash",
                                               "/api/zoom", "/api/focus", "/api/camera", "/api/fields", "/api/control"]

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        if let answer = leadRoute(request) { return answer }
        let path = request.path
        if let answer = phoneRoute(request) { return answer }
        if Self.changes.contains(path) || Self.cameraReads.contains(path) || (path == "/" && !opensPhone(request)) {
            if let refusal = cameraRefusal(request) { return refusal }
        }
        if Self.uploadRoutes.contains(path) {
            guard request.method == "POST" else { return notAllowed(path, allow: "POST") }
            return path == AccessPolicy.uploadPath ? upload(request) : reviewUpload(request)
        }
        if path.hasPrefix("/uploads/") {
            guard request.isRead else { return notAllowed(path, allow: "GET, HEAD") }
            return uploadPreview(request, id: String(path.dropFirst("/uploads/".count)))
        }
        let isShot = path.hasPrefix("/shots/")
        if Self.changes.contains(path) {
            guard request.method == "POST" else { return notAllowed(path, allow: "POST") }
            return change(request)
        }
        guard Self.reads.contains(path) || isShot else {
            return .json(status: 404, error: path.hasPrefix("/api/") ? "no such API: \(PathEncoding.display(path))" : "not found")
        }
        guard request.isRead else { return notAllowed(path, allow: "GET, HEAD") }
        let client = self.client(request)
        seat.withLock { $0.seen(client, at: clock()) }
        if isShot {
            return shot(String(path.dropFirst("/shots/".count)), thumbnail: request.query["thumbnail"] != nil, for: shotsOwner(request))
        }
        switch path {
        case "/" where opensPhone(request): return asset(WebAssets.phonePage, type: "text/html; charset=utf-8")
        case "/", "/index.html", "/camera": return asset(WebAssets.page, type: "text/html; charset=utf-8")
        case "/page.js": return asset(WebAssets.pageScript, type: "text/javascript; charset=utf-8")
        case "/app.js": return asset(WebAssets.script, type: "text/javascript; charset=utf-8")
        case "/app.css": return asset(WebAssets.style, type: "text/css; charset=utf-8")
        case "/icon.svg": return asset(WebAssets.icon, type: "image/svg+xml")
        case "/manifest.webmanifest": return asset(WebAssets.manifest, type: "application/manifest+json")
        case "/sw.js": return asset(WebAssets.serviceWorker, type: "text/javascript; charset=utf-8")
        case "/api/state": return .json(WebJSON.bytes(stateJSON(for: client)))
        case "/api/styles": return .json(WebJSON.bytes(stylesJSON()))
        case "/api/words": return words.response(for: request.query["lang"] ?? request.headers["accept-language"] ?? "")
        case "/api/shots": return shotsList(limit: request.query["limit"], owner: shotsOwner(request))
        case "/stream.mjpg": return pictureStream(head: request.method == "HEAD")
        default: return eventStream(for: client, head: request.method == "HEAD")
        }
    }

    func notAllowed(_ path: String, allow: String) -> HTTPResponse {
        .json(status: 405, error: "\(path) takes \(allow)", headers: [("Allow", allow)])
    }

    func asset(_ bytes: [UInt8], type: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", type)], body: .bytes(bytes))
    }

    /// Who is asking: the id the page sends (`X-Stampcam-Client`, or `?client=` where a header
    /// cannot be set), else the peer's address.
    func client(_ request: HTTPRequest) -> ControlSeat.Client {
        let given = request.headers["x-stampcam-client"] ?? request.query["client"]
        let id = given.flatMap { ClientLabel.isClientID($0) ? $0 : nil } ?? "peer:" + request.peer
        return ControlSeat.Client(id: id, label: ClientLabel.make(userAgent: request.headers["user-agent"], address: request.peer))
    }

    // MARK: streams

    private func pictureStream(head: Bool) -> HTTPResponse {
        let headers = [("Content-Type", "multipart/x-mixed-replace; boundary=\(LiveHub.boundary)")]
        if head { return HTTPResponse(status: 200, headers: headers) }
        guard let feed = hub.openPictureStream(limit: limits.pictureStreams) else {
            return .json(status: 503, error: "too many live pictures open (\(limits.pictureStreams)); close one and reload",
                         headers: [("Retry-After", "5")])
        }
        return HTTPResponse(status: 200, headers: headers, body: .stream(feed))
    }

    private func eventStream(for client: ControlSeat.Client, head: Bool) -> HTTPResponse {
        let headers = [("Content-Type", "text/event-stream; charset=utf-8")]
        if head { return HTTPResponse(status: 200, headers: headers) }
        guard hub.admitListener(limit: limits.eventStreams) else {
            return .json(status: 503, error: "too many pages open (\(limits.eventStreams)); close one and reload",
                         headers: [("Retry-After", "5")])
        }
        seat.withLock { $0.listening(client, opened: true, at: clock()) }
        return HTTPResponse(status: 200, headers: headers, body: .stream(EventFeed(app: self, client: client)))
    }

    /// An event stream ended.
    func listenerLeft(_ client: ControlSeat.Client) {
        hub.listenerLeft()
        seat.withLock { $0.listening(client, opened: false, at: clock()) }
    }

    // MARK: changes

    private func change(_ request: HTTPRequest) -> HTTPResponse {
        let client = self.client(request)
        let body: [String: JSONValue]
        switch Self.parseObject(request.body) {
        case .success(let object): body = object
        case .failure(let refusal): return refusal.response
        }
        // A team member's locked fields hold here as on every route.
        let changing = request.path == "/api/style" ? ["style"] : request.path == "/api/fields" ? Array(body.keys) : []
        if case .deny(let status, let message) = policy.mayChange(changing, request) { return .json(status: status, error: message) }
        let now = clock()
        if request.path == "/api/control" {
            guard body.isEmpty else { return Refusal.unknownKeys(body.keys, known: []).response }
            seat.withLock { $0.takeOver(client, at: now) }
            seatChanges.withLock { $0 += 1 }
            hub.touch()
            return .json(WebJSON.bytes(stateJSON(for: client)))
        }
        let (allowed, holder, changedHolder) = seat.withLock { seat -> (Bool, String, Bool) in
            let before = seat.holder
            let allowed = seat.claim(client, at: now)
            return (allowed, seat.holderDescription, before != seat.holder)
        }
        if changedHolder {
            seatChanges.withLock { $0 += 1 }
            hub.touch()
        }
        guard allowed else {
            return .json(status: 409, error: "\(holder) controls the camera; take over to use it here")
        }
        do throws(Refusal) {
            try perform(request.path, body)
        } catch {
            return error.response
        }
        return .json(WebJSON.bytes(stateJSON(for: client)))
    }

    /// Why a request changed nothing, and its status.
    enum Refusal: Error {
        case badRequest(String)
        case wrongPhase(String)

        var response: HTTPResponse {
            switch self {
            case .badRequest(let message): return .json(status: 400, error: message)
            case .wrongPhase(let message): return .json(status: 409, error: message)
            }
        }

        static func unknownKeys(_ keys: some Collection<String>, known: [String]) -> Refusal {
            let list = known.isEmpty ? "none" : known.joined(separator: ", ")
            return .badRequest("unknown key\(keys.count == 1 ? "" : "s") \(keys.sorted().map { "'\(PathEncoding.display($0))'" }.joined(separator: ", ")) (this request takes: \(list))")
        }
    }

    private func perform(_ path: String, _ body: [String: JSONValue]) throws(Refusal) {
        switch path {
        case "/api/shutter":
            try expect(body, keys: [])
            try send(.shutter, "cannot take a photo now")
        case "/api/retake":
            try expect(body, keys: [])
            try send(.retake, "nothing to retake")
        case "/api/use":
            try expect(body, keys: [])
            try send(.use, "nothing to use")
        case "/api/camera":
            try expect(body, keys: [])
            try send(.switchCamera, "cannot switch cameras now")
        case "/api/style":
            try expect(body, keys: ["step", "id"])
            if let step = body["step"] {
                guard body["id"] == nil else { throw .badRequest("give either 'step' or 'id', not both") }
                guard case .number(let value) = step, value == 1 || value == -1 else {
                    throw .badRequest("'step' must be 1 (next style) or -1 (previous style)")
                }
                try send(value == 1 ? .nextStyle : .previousStyle, "cannot change the style now")
            } else if let id = body["id"] {
                guard case .string(let text) = id else { throw .badRequest("'id' must be a style id as a string") }
                guard let index = styles.firstIndex(where: { $0.id == text }) else {
                    throw .badRequest("no style '\(PathEncoding.display(text))' (styles: \(styles.map(\.id).joined(separator: ", ")))")
                }
                try send(.chooseStyle(index), "cannot change the style now")
            } else {
                throw .badRequest("give 'step' (1 or -1) or 'id' (a style id)")
            }
        case "/api/flash":
            try expect(body, keys: ["mode", "step"])
            if body["step"] != nil {
                guard body["mode"] == nil, case .number(1)? = body["step"] else {
                    throw .badRequest("give either 'mode' or 'step': 1 (the next mode)")
                }
                try send(.cycleFlash, "cannot change the flash now")
                return
            }
            guard case .string(let text)? = body["mode"] else { throw .badRequest("give 'mode': off, on, auto or torch") }
            guard let mode = FlashMode(rawValue: text) else {
                throw .badRequest("'\(PathEncoding.display(text))' is not a flash mode (off, on, auto or torch)")
            }
            let modes = camera.snapshot().state.flashModes
            guard modes.contains(mode) else {
                throw .badRequest("this camera cannot do flash '\(mode.rawValue)' (it has: \(modes.map(\.rawValue).joined(separator: ", ")))")
            }
            try send(.setFlash(mode), "cannot change the flash now")
        case "/api/zoom":
            try expect(body, keys: ["factor", "step"])
            if let step = body["step"] {
                guard body["factor"] == nil, case .number(let value) = step, value == 1 || value == -1 else {
                    throw .badRequest("give either 'factor' or 'step': 1 (in) or -1 (out)")
                }
                try send(value == 1 ? .zoomIn : .zoomOut, "cannot zoom now")
                return
            }
            guard case .number(let factor)? = body["factor"], factor.isFinite else {
                throw .badRequest("give 'factor': a number from 1 (no zoom) up")
            }
            try send(.setZoom(factor), "cannot zoom now")
        case "/api/focus":
            try expect(body, keys: ["x", "y"])
            if body.isEmpty {
                try send(.focus, "cannot focus now")
                return
            }
            guard case .number(let x)? = body["x"], case .number(let y)? = body["y"], (0...1).contains(x), (0...1).contains(y) else {
                throw .badRequest("give 'x' and 'y' as fractions of the picture from 0 to 1 (0.5, 0.5 is the centre), or nothing for autofocus")
            }
            try send(.focusAt(x: x, y: y), "cannot focus now")
        default:  // "/api/fields"
            try setFields(body)
        }
    }

    /// Keys a field may be set with, and their longest value.
    static let fieldKeys = ["user", "project", "location", "note"]
    static let maxFieldLength = 500

    private func setFields(_ body: [String: JSONValue]) throws(Refusal) {
        try expect(body, keys: Self.fieldKeys)
        var policy = camera.fieldPolicy
        for (key, value) in body {
            let text: String?
            switch value {
            case .null: text = nil
            case .string(let given):
                guard given.count <= Self.maxFieldLength else {
                    throw .badRequest("'\(key)' is \(given.count) characters long; at most \(Self.maxFieldLength)")
                }
                let trimmed = given.trimmingWhitespace
                text = trimmed.isEmpty ? nil : trimmed
            default:
                throw .badRequest("'\(key)' must be text (or null to clear it)")
            }
            switch key {
            case "user": policy.given.user = text
            case "project": policy.given.project = text
            case "location": policy.given.location = text
            default: policy.given.note = text
            }
        }
        camera.fieldPolicy = policy
    }

    private func expect(_ body: [String: JSONValue], keys: [String]) throws(Refusal) {
        let unknown = body.keys.filter { !keys.contains($0) }
        if !unknown.isEmpty { throw Refusal.unknownKeys(unknown, known: keys) }
    }

    private func send(_ event: ShootEvent, _ refusal: String) throws(Refusal) {
        guard camera.send(event) else {
            throw .wrongPhase(refusal + ": " + Self.phaseWords(camera.snapshot().state.phase))
        }
    }

    /// What the camera is doing, for a refusal: "a photo is being saved".
    static func phaseWords(_ phase: ShootState.Phase) -> String {
        switch phase {
        case .viewfinder, .saved, .failed: return "no photo is being reviewed (the camera is in the viewfinder)"
        case .capturing: return "a photo is being taken"
        case .reviewing, .confirmingQuit: return "a photo is being reviewed (use or retake it first)"
        case .saving: return "a photo is being saved"
        case .finished: return "stampcam is stopping"
        }
    }

    /// The body as a JSON object; empty for an empty body.
    static func parseObject(_ body: [UInt8]) -> Result<[String: JSONValue], Refusal> {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .success([:]) }
        let value: JSONValue
        do { value = try JSONValue(parsing: body) } catch {
            return .failure(.badRequest("the body is not JSON: \(error.problem) (line \(error.line), column \(error.column))"))
        }
        guard case .object(let object) = value else { return .failure(.badRequest("the body must be a JSON object, like {\"step\": 1}")) }
        return .success(object)
    }

    // MARK: documents

    /// The state as `client` sees it, made now from the controller (an answer to a change shows
    /// the change). `version` never goes down: a page drops a document older than one it has shown.
    func stateJSON(for client: ControlSeat.Client) -> WebJSON.State {
        let changes = seatChanges.withLock { $0 }
        // A holder whose tab has closed (its event stream ended over `awayAfter` ago) holds nothing.
        let now = clock()
        let holder = seat.withLock { seat in seat.holder.flatMap { seat.isAway($0, at: now) ? nil : $0 } }
        let snapshot = camera.snapshot()
        let shots = hub.shots
        let state = WebState(snapshot, shots: shots.count)
        let style = styles.indices.contains(state.style) ? styles[state.style] : (id: "", name: "")
        let fields = state.fields
        let camera = WebJSON.State.Camera(name: state.camera, index: state.cameraIndex, count: state.cameraCount,
                                          width: state.frameWidth, height: state.frameHeight)
        let given = WebJSON.State.Fields(user: fields.user, project: fields.project, location: fields.location, note: fields.note)
        let control = WebJSON.State.Control(holder: holder?.label, mine: holder?.id == client.id, free: holder == nil)
        return WebJSON.State(
            version: snapshot.generation + changes, phase: state.phase, message: state.message, error: state.isError,
            style: WebJSON.State.CurrentStyle(index: state.style, id: style.id, name: style.name, count: styles.count,
                                              notShown: state.fieldsNotShown),
            flash: WebJSON.State.Flash(mode: state.flash.rawValue, modes: state.flashModes.map { $0.rawValue }),
            zoom: WebJSON.State.Zoom(factor: state.zoom, max: state.maxZoom), camera: camera, fields: given,
            projects: projects, shots: state.shotCount, unsaved: state.unsaved, folder: state.folder, control: control,
            lastSaved: shots.last.map { shotJSON($0) })
    }

    private func stylesJSON() -> [WebJSON.Style] {
        styles.enumerated().map { index, style in WebJSON.Style(index: index, id: style.id, name: style.name) }
    }

    /// This session's photos, newest first (a phone's own only, for a phone); `?limit=N` for the newest N only.
    private func shotsList(limit: String?, owner: String?) -> HTTPResponse {
        var count = Int.max
        if let limit {
            guard let number = Int(limit), number > 0 else {
                return .json(status: 400, error: "'limit' must be a whole number from 1 up")
            }
            count = number
        }
        let shots = hub.shots.filter { owner == nil || $0.owner == owner }
        return .json(WebJSON.bytes(shots.reversed().prefix(count).map(shotJSON)))
    }

    private func shotJSON(_ shot: LiveHub.Shot) -> WebJSON.Shot {
        let url = "/shots/" + Self.percentEncoded(shot.name)
        return WebJSON.Shot(name: PathEncoding.display(shot.name), url: url, thumbnail: url + "?thumbnail=1")
    }

    /// A file name in a URL path: every byte but letters, digits and `-._~` as `%XX`, so names
    /// that are not UTF-8 come back byte for byte.
    static func percentEncoded(_ name: String) -> String {
        var text = ""
        for byte in PathEncoding.encode(name) {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                text.append(Character(Unicode.Scalar(byte)))
            default:
                text += "%" + Hex.padded(byte, digits: 2, uppercase: true)
            }
        }
        return text
    }

    /// A photo this session saved, by its file name; nothing else is ever served from the disk.
    private func shot(_ name: String, thumbnail: Bool, for owner: String?) -> HTTPResponse {
        guard let shot = hub.shots.last(where: { $0.name == name && (owner == nil || $0.owner == owner) }) else {
            return .json(status: 404, error: "no photo of this session has that name")
        }
        if thumbnail {
            var bytes = shot.thumbnail
            if bytes == nil, let identity = shot.identity, let file = try? FileContents(path: FilePath(shot.path)),
               file.status.identity == identity {
                bytes = LiveHub.thumbnail(of: file)  // an older photo's: made again
            }
            guard let bytes else { return .json(status: 404, error: "no thumbnail for this photo") }
            return HTTPResponse(status: 200, headers: [("Content-Type", "image/jpeg")], body: .bytes(bytes))
        }
        guard let identity = shot.identity, let file = OpenFile(path: shot.path, identity: identity) else {
            return .json(status: 404, error: "the photo is no longer where it was saved (moved, deleted or replaced)")
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "image/jpeg")], body: .file(file))
    }
}
