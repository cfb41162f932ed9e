import Platform
import Session
import Templates
import Values

/// A phone's own camera: the page (`/phone`, and `/` for a team member), its values (`GET` and
/// `POST /api/me`: the project, the site, the note and the style this phone stamps with, kept per
/// person and never shared), and the stamp as it will be drawn, over the live picture
/// (`GET /api/overlay?w=&h=`, a transparent PNG). The server's camera is not touched.
extension WebApp {
    static let phoneReads: Set<String> = ["/phone", "/phone.js", "/phone.css", "/api/me", "/api/overlay", "/ca", "/ca.pem", "/ca.crt"]

    /// The answer to a phone's own route; nil for any other route.
    func phoneRoute(_ request: HTTPRequest) -> HTTPResponse? {
        let path = request.path
        if path == "/api/me" && request.method == "POST" { return changeDesk(request) }
        if path == "/api/photos/restyle" {
            guard request.method == "POST" else { return .json(status: 405, error: "\(path) takes POST", headers: [("Allow", "POST")]) }
            return restyleUpload(request)
        }
        guard Self.phoneReads.contains(path) else { return nil }
        guard request.isRead else {
            return .json(status: 405, error: "\(path) takes GET, HEAD", headers: [("Allow", "GET, HEAD")])
        }
        switch path {
        case "/phone": return asset(WebAssets.phonePage, type: "text/html; charset=utf-8")
        case "/phone.js": return asset(WebAssets.phoneScript, type: "text/javascript; charset=utf-8")
        case "/phone.css": return asset(WebAssets.phoneStyle, type: "text/css; charset=utf-8")
        case "/api/me": return .json(WebJSON.bytes(meJSON(request)))
        case "/api/overlay": return overlay(request)
        default: return certificate(path)
        }
    }

    /// Whether `/` opens the phone's own camera: for a team member, and on a server without one.
    func opensPhone(_ request: HTTPRequest) -> Bool {
        controller == nil || policy.person(request) != nil
    }

    /// Why the server's camera is not this request's to see or drive: it has none, or a team
    /// member's phone asks (their own camera is theirs; the server's belongs to whoever runs it).
    func cameraRefusal(_ request: HTTPRequest) -> HTTPResponse? {
        if controller == nil {
            let message = "this server has no camera of its own (serve --device to give it one): photos come from the phones"
            return .json(status: 404, error: message)
        }
        guard let person = policy.person(request) else { return nil }
        let message = "\(person.name)'s link takes photos with their own phone, not the server's camera (open / instead)"
        return .json(status: 403, error: message)
    }

    /// The owner whose photos alone a page sees in the strip: a team member's own; nil sees all (this machine).
    func shotsOwner(_ request: HTTPRequest) -> String? {
        policy.person(request) != nil || controller == nil ? uploadOwner(request) : nil
    }

    // MARK: the phone's values

    /// This phone's values (a team member's, by their token; else this page's).
    func desk(_ owner: String) -> PhoneDesk {
        desks.withLock { $0[owner] } ?? PhoneDesk(style: phoneStyleStart)
    }

    /// The style a phone starts with: the server's chosen one.
    private var phoneStyleStart: Int {
        let chosen = uploads?.settings.style.id
        return phoneStyles.firstIndex { $0.id == chosen } ?? 0
    }

    private func meJSON(_ request: HTTPRequest) -> WebJSON.Me {
        let person = policy.person(request)
        let desk = desk(uploadOwner(request))
        let style = phoneStyles.indices.contains(desk.style) ? phoneStyles[desk.style] : uploads?.settings.style
        let locked = person?.locked ?? []
        var projects = person?.projects ?? []
        if projects.isEmpty { projects = self.projects }
        let now = uploads?.settings.clock() ?? FieldPolicy.clockTime()
        return WebJSON.Me(
            name: person?.name ?? desk.user, nameLocked: person != nil,
            project: desk.project ?? person?.project, projects: projects,
            projectLocked: locked.contains("project"),
            note: desk.note, location: desk.location,
            style: WebJSON.Style(index: desk.style, id: style?.id ?? "", name: style?.name ?? ""),
            styles: phoneStyles.enumerated().map { WebJSON.Style(index: $0, id: $1.id, name: $1.name) },
            styleLocked: locked.contains("style"), serverCamera: controller != nil && person == nil,
            serverTime: now.iso8601, uploads: uploads != nil, authority: authority?.fingerprint)
    }

    /// `POST /api/me`: `user` (not for a team member: their token names them), `project`,
    /// `location`, `note` (text, or null to clear), `style` (1 or -1 to step, or an id).
    private func changeDesk(_ request: HTTPRequest) -> HTTPResponse {
        let body: [String: JSONValue]
        switch Self.parseObject(request.body) {
        case .success(let object): body = object
        case .failure(let refusal): return refusal.response
        }
        let person = policy.person(request)
        // Locks hold here as on every route.
        if case .deny(let status, let message) = policy.mayChange(body.keys, request) { return .json(status: status, error: message) }
        let owner = uploadOwner(request)
        var desk = desk(owner)
        for (key, value) in body {
            switch key {
            case "user", "project", "location", "note":
                if key == "user", let person {
                    return .json(status: 403, error: "the name is the link's (\(PathEncoding.display(person.name))): it cannot be changed here")
                }
                let text: String?
                switch value {
                case .null: text = nil
                case .string(let given):
                    guard given.count <= Self.maxFieldLength else {
                        return .json(status: 400, error: "'\(key)' is \(given.count) characters long; at most \(Self.maxFieldLength)")
                    }
                    text = given.trimmingWhitespace.isEmpty ? nil : given.trimmingWhitespace
                default:
                    return .json(status: 400, error: "'\(key)' must be text (or null to clear it)")
                }
                switch key {
                case "user": desk.user = text
                case "project": desk.project = text
                case "location": desk.location = text
                default: desk.note = text
                }
            case "style":
                switch styleIndex(value, from: desk.style) {
                case .success(let index): desk.style = index
                case .failure(let refusal): return refusal.response
                }
            default:
                return Refusal.unknownKeys([key], known: ["user", "project", "location", "note", "style"]).response
            }
        }
        desks.withLock { desks in
            // Pages without a team token name themselves: past a thousand, one of theirs makes room.
            if desks.count >= 1000, desks[owner] == nil, let any = desks.keys.first(where: { !$0.hasPrefix("person:") }) {
                desks[any] = nil
            }
            desks[owner] = desk
        }
        return .json(WebJSON.bytes(meJSON(request)))
    }

    /// A style named in a request: `1` or `-1` steps from `current`, a string is an id.
    func styleIndex(_ value: JSONValue, from current: Int) -> Result<Int, Refusal> {
        guard !phoneStyles.isEmpty else { return .failure(.badRequest("this server has no styles to choose from")) }
        switch value {
        case .number(let step) where step == 1 || step == -1:
            return .success((current + Int(step) + phoneStyles.count) % phoneStyles.count)
        case .string(let id):
            guard let index = phoneStyles.firstIndex(where: { $0.id == id }) else {
                return .failure(.badRequest("no style '\(PathEncoding.display(id))' (styles: \(phoneStyles.map(\.id).joined(separator: ", ")))"))
            }
            return .success(index)
        default:
            return .failure(.badRequest("'style' must be 1 (next), -1 (previous) or a style id"))
        }
    }

    /// The style a phone's photo is stamped in: the form's `style` (an id), else the phone's own.
    func phoneStyle(_ id: String?, owner: String, locked: Bool) -> Template? {
        if !locked, let id, let style = phoneStyles.first(where: { $0.id == id }) { return style }
        let index = desk(owner).style
        return phoneStyles.indices.contains(index) ? phoneStyles[index] : nil
    }

    // MARK: the stamp over the live picture

    /// `GET /api/overlay?w=&h=` (the preview's size in pixels; `style=` an id, else the phone's;
    /// `latitude=`, `longitude=`, `accuracy=`, `altitude=`, `position_age=` where the phone is):
    /// the stamp this phone's next photo gets, drawn by the same code, on nothing.
    private func overlay(_ request: HTTPRequest) -> HTTPResponse {
        guard let uploads else { return .json(status: 404, error: "this server takes no photos from phones") }
        guard let width = request.query["w"].flatMap({ Int($0) }), let height = request.query["h"].flatMap({ Int($0) }),
              (16...4096).contains(width), (16...4096).contains(height) else {
            return .json(status: 400, error: "give 'w' and 'h': the preview's size in pixels, 16 to 4096 each")
        }
        let owner = uploadOwner(request)
        let person = policy.person(request)
        let locked = policy.locked(request).contains("style")
        guard let style = phoneStyle(request.query["style"], owner: owner, locked: locked) ?? Optional(uploads.settings.style) else {
            return .json(status: 404, error: "no style")
        }
        var values: PhotoUploads.Upload.Values
        switch Self.senderValues(request.query, person: person, owner: owner, desk: desk(owner)) {
        case .success(let found): values = found
        case .failure(let refusal): return refusal.response
        }
        values.kind = .shutter
        do throws(PhotoUploads.Refusal) {
            let png = try uploads.overlay(width: width, height: height, style: style, values: values)
            return HTTPResponse(status: 200, headers: [("Content-Type", "image/png")], body: .bytes(png))
        } catch {
            return response(error)
        }
    }

    /// `POST /api/photos/restyle` `{"id": …, "style": 1 | -1 | "id"}`: the photo under review
    /// stamped again in another style; answers as the upload did.
    private func restyleUpload(_ request: HTTPRequest) -> HTTPResponse {
        guard let uploads else { return .json(status: 404, error: "this server takes no uploads") }
        let body: [String: JSONValue]
        switch Self.parseObject(request.body) {
        case .success(let object): body = object
        case .failure(let refusal): return refusal.response
        }
        guard body.keys.allSatisfy({ $0 == "id" || $0 == "style" }), case .string(let id)? = body["id"], let step = body["style"] else {
            return .json(status: 400, error: "give 'id' (the photo under review) and 'style' (1, -1 or a style id)")
        }
        let owner = uploadOwner(request)
        if case .deny(let status, let message) = policy.mayChange(["style"], request) { return .json(status: status, error: message) }
        var desk = desk(owner)
        let current = uploads.reviewStyle(id, owner: owner).flatMap { id in phoneStyles.firstIndex { $0.id == id } } ?? desk.style
        let index: Int
        switch styleIndex(step, from: current) {
        case .success(let found): index = found
        case .failure(let refusal): return refusal.response
        }
        do throws(PhotoUploads.Refusal) {
            let staged = try uploads.restyle(id, owner: owner, style: phoneStyles[index])
            desk.style = index
            desks.withLock { $0[owner] = desk }
            return .json(WebJSON.bytes(uploadJSON(staged, saved: false, preview: "/uploads/" + staged.id)))
        } catch {
            return response(error)
        }
    }

    // MARK: the certificate to install

    /// `/ca`: how to make this phone trust the server (the page), `/ca.crt` (DER, as Android and
    /// iOS install it) and `/ca.pem`.
    private func certificate(_ path: String) -> HTTPResponse {
        guard let authority else {
            return .json(status: 404, error: "this server has no certificate authority to install (it is not serving HTTPS with --tls)")
        }
        switch path {
        case "/ca.pem":
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/x-pem-file"),
                                                       ("Content-Disposition", "attachment; filename=\"stampcam-ca.pem\"")],
                                body: .bytes(Array(authority.pem.utf8)))
        case "/ca.crt":
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/x-x509-ca-cert"),
                                                       ("Content-Disposition", "attachment; filename=\"stampcam-ca.crt\"")],
                                body: .bytes(authority.der))
        default:
            // The fingerprint is hex and colons: nothing in it needs escaping.
            let page = String(decoding: WebAssets.certificatePage, as: UTF8.self).replacing("{{fingerprint}}", with: authority.fingerprint)
            return asset(Array(page.utf8), type: "text/html; charset=utf-8")
        }
    }
}

/// What one phone has chosen for its own photos; the name of a team member is their token's.
struct PhoneDesk: Sendable, Equatable {
    var user: String?
    var project: String?
    var location: String?
    var note: String?
    var style: Int
}
