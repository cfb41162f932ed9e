import Library
import Platform
import Session
import Templates
import Values

/// Photos from the phones' own cameras: `POST /api/photos` (a form, its photo in the field
/// `photo`; `review=0` saves it at once; `kind=shutter` for a frame the page's own shutter took,
/// else it is a file the phone handed over; `queued=1` for one that waited on the phone; `style`
/// a style id), then `POST /api/photos/use`, `/api/photos/retake` with `{"id": …}` or
/// `/api/photos/restyle`; `GET /uploads/ID` is the stamped photo under review (`?fit=N` upright
/// in N pixels, for a screen). None of them touches the machine's camera or its control seat. A
/// phone's values (project, site, note, style) are its own (`WebApp+Phone`); the form's win where
/// the person's link does not lock them.
extension WebApp {
    static let uploadRoutes: Set<String> = [AccessPolicy.uploadPath, "/api/photos/use", "/api/photos/retake"]

    /// Who an upload and a phone's values are kept for: the team member (by their token), else the
    /// page (its client id). The limits count uploads against `AccessPolicy.sender`, which the
    /// client cannot choose.
    func uploadOwner(_ request: HTTPRequest) -> String {
        policy.person(request).map { "person:" + $0.token } ?? client(request).id
    }

    /// An upload's answer before its body is read: a refusal (no token, too many at once), or nil to read it.
    func admitUpload(_ request: HTTPRequest) -> HTTPResponse? {
        let response = respond(to: request, route: { _ in HTTPResponse(status: 100) })
        guard response.status == 100 else { return response }
        if let wait = rate.withLock({ $0.take(policy.sender(request), at: clock()) }) {
            return .json(status: 429, error: "too many photos at once: wait \(Int(wait.rounded(.up))) s and send it again",
                         headers: [("Retry-After", String(Int(wait.rounded(.up))))])
        }
        return nil
    }

    func upload(_ request: HTTPRequest) -> HTTPResponse {
        guard let uploads else { return .json(status: 404, error: "this server takes no uploads") }
        guard let received = request.upload else {
            return .json(status: 400, error: "send the photo as multipart/form-data with a field 'photo'")
        }
        let owner = uploadOwner(request)
        let form = received.fields
        let person = policy.person(request)
        var upload: PhotoUploads.Upload
        switch Self.uploadValues(form, person: person, photo: received.photo, owner: owner, desk: desk(owner)) {
        case .success(let values): upload = values
        case .failure(let refusal): return refusal.response
        }
        upload.sender = policy.sender(request)
        upload.style = phoneStyle(form["style"], owner: owner, locked: policy.locked(request).contains("style"))
        let review = (request.query["review"] ?? form["review"]) != "0"
        do throws(PhotoUploads.Refusal) {
            if review {
                let staged = try uploads.stage(upload)
                return .json(WebJSON.bytes(uploadJSON(staged, saved: false, preview: "/uploads/" + staged.id)))
            }
            let (written, staged) = try uploads.save(upload)
            hub.add(written.path, owner: owner)
            return .json(WebJSON.bytes(uploadJSON(staged, saved: true, preview: nil)))
        } catch {
            return response(error)
        }
    }

    /// `/api/photos/use` and `/api/photos/retake`.
    func reviewUpload(_ request: HTTPRequest) -> HTTPResponse {
        guard let uploads else { return .json(status: 404, error: "this server takes no uploads") }
        let body: [String: JSONValue]
        switch Self.parseObject(request.body) {
        case .success(let object): body = object
        case .failure(let refusal): return refusal.response
        }
        guard body.keys.allSatisfy({ $0 == "id" }), case .string(let id)? = body["id"] else {
            return .json(status: 400, error: "give 'id': the id the upload answered with")
        }
        let owner = uploadOwner(request)
        do throws(PhotoUploads.Refusal) {
            if request.path == "/api/photos/use" {
                let written = try uploads.use(id, owner: owner)
                hub.add(written.path, owner: owner)
                let name = PhotoName.lastComponent(written.path)
                return .json(WebJSON.bytes(WebJSON.Used(name: PathEncoding.display(name), url: "/shots/" + Self.percentEncoded(name),
                                                        warnings: written.warnings)))
            }
            try uploads.retake(id, owner: owner)
            return .json(WebJSON.bytes(WebJSON.Used(name: nil, url: nil, warnings: [])))
        } catch {
            return response(error)
        }
    }

    /// `GET /uploads/ID`: the stamped photo under review, for its owner only; `?fit=N` upright in
    /// an N-pixel square (a screen's), 160 to 4096.
    func uploadPreview(_ request: HTTPRequest, id: String) -> HTTPResponse {
        let fit = request.query["fit"].flatMap { Int($0) }.map { min(4096, max(160, $0)) }
        guard let jpeg = uploads?.preview(id, owner: uploadOwner(request), fit: fit) else {
            return .json(status: 404, error: "no photo under review has that id")
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "image/jpeg")], body: .bytes(jpeg))
    }

    func uploadJSON(_ staged: PhotoUploads.Staged, saved: Bool, preview: String?) -> WebJSON.Uploaded {
        let fields = staged.fields
        return WebJSON.Uploaded(id: saved ? nil : staged.id, name: PathEncoding.display(staged.name), saved: saved, preview: preview,
                                style: staged.style,
                                url: saved ? "/shots/" + Self.percentEncoded(staged.name) : nil,
                                time: fields.time?.iso8601 ?? "", timeSource: fields.timeSource ?? "",
                                phoneTime: fields.extra["phone_time"], user: fields.user, project: fields.project,
                                site: fields.site, latitude: fields.latitude, longitude: fields.longitude, code: fields.code, notes: staged.notes)
    }

    /// The answer to a refused upload. The server's own paths stay on the server: its operator
    /// hears the whole error, the phone what it can act on.
    func response(_ refusal: PhotoUploads.Refusal) -> HTTPResponse {
        switch refusal {
        case .tooManyReviews: return .json(status: 409, error: refusal.description)
        case .noSuchReview: return .json(status: 404, error: refusal.description)
        case .unreadable: return .json(status: 422, error: refusal.description + "; send a JPEG, HEIC or PNG photo")
        case .cannotSave(let error):
            uploads?.settings.tell("an uploaded photo was not saved: \(error)")
            guard case .file(let file) = error.cause else {
                return .json(status: 500, error: "the server could not stamp the photo (its screen says why); nothing was kept, send it again later")
            }
            return .json(status: 507, error: "the server could not save the photo (\(Self.reason(file))); nothing was kept, send it again later")
        }
    }

    /// Why a file could not be written, without its path.
    private static func reason(_ error: FileError) -> String {
        switch error {
        case .cannotRead(_, let reason), .cannotCreate(_, let reason), .io(_, let reason): return reason
        case .wouldReplaceInput: return "its name is taken"
        case .noPhotos: return "no photo"
        }
    }

    /// The upload's values from its form: who (the person's token wins over the page where they
    /// are locked), what for (the form's, else the phone's own), where the phone was, and how the
    /// photo reached the page.
    static func uploadValues(_ form: [String: String], person: TeamRoster.Person?, photo: FileContents,
                             owner: String, desk: PhoneDesk? = nil) -> Result<PhotoUploads.Upload, Refusal> {
        senderValues(form, person: person, owner: owner, desk: desk).map { values in
            var upload = PhotoUploads.Upload(photo: photo, values: values)
            upload.kind = form["kind"] == PhotoUploads.Kind.shutter.rawValue ? .shutter : .file
            upload.queued = form["queued"] == "1"
            if let name = form["file_name"]?.trimmingWhitespace, !name.isEmpty, name.count <= 200 {
                upload.fileName = PhotoName.lastComponent(name)
            }
            return upload
        }
    }

    /// What comes with a photo (or the live stamp's request): `user`, `project`, `location`, `note`,
    /// `phone_time` and the position, the form's winning over the phone's own where not locked.
    static func senderValues(_ form: [String: String], person: TeamRoster.Person?, owner: String,
                             desk: PhoneDesk?) -> Result<PhotoUploads.Upload.Values, Refusal> {
        func text(_ key: String) -> String? {
            guard let value = form[key]?.trimmingWhitespace, !value.isEmpty else { return nil }
            return value
        }
        for key in ["user", "project", "note", "location"] where (form[key]?.count ?? 0) > maxFieldLength {
            return .failure(.badRequest("'\(key)' is longer than \(maxFieldLength) characters"))
        }
        var user = text("user") ?? desk?.user, project = text("project") ?? desk?.project
        if let person {
            // Locked: the team's value, whatever the form says (a project locked without one is none).
            if person.locked.contains("user") || user == nil { user = person.name }
            if person.locked.contains("project") { project = person.project } else if project == nil { project = person.project }
        }
        var upload = PhotoUploads.Upload.Values(person: user, owner: owner, project: project, note: text("note") ?? desk?.note)
        upload.location = text("location") ?? desk?.location
        if let given = text("phone_time") {
            guard let time = Timestamp(iso8601: given) else {
                return .failure(.badRequest("'phone_time' must be an ISO 8601 time like 2026-12-03T10:02:00Z"))
            }
            upload.phoneTime = time
        }
        do {
            upload.position = try PhotoUploads.Position.parse(latitude: text("latitude"), longitude: text("longitude"), altitude: text("altitude"),
                                                              accuracy: text("accuracy"), age: text("position_age"))
        } catch {
            return .failure(.badRequest(error.description))
        }
        return .success(upload)
    }
}

/// Uploads a person (or an address) may send: `burst` at once, then one every `interval` seconds. A value: time comes in.
struct UploadRate: Sendable {
    var burst = 20.0
    var interval = 2.0
    private var buckets: [String: (tokens: Double, at: Double)] = [:]

    init(burst: Double = 20, interval: Double = 2) {
        self.burst = burst
        self.interval = interval
    }

    /// Takes one upload of `owner`'s at `now`; nil when it may go, else the seconds to wait.
    mutating func take(_ owner: String, at now: Double) -> Double? {
        var bucket = buckets[owner] ?? (burst, now)
        bucket.tokens = min(burst, bucket.tokens + (now - bucket.at) / interval)
        bucket.at = now
        guard bucket.tokens >= 1 else {
            buckets[owner] = bucket
            return (1 - bucket.tokens) * interval
        }
        bucket.tokens -= 1
        buckets[owner] = bucket
        if buckets.count > 1024 { buckets = buckets.filter { now - $0.value.at < burst * interval } }
        return nil
    }
}
