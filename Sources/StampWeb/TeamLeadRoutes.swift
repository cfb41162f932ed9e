import Catalog
import Library
import Platform
import Session
import Values
import Watermark

/// The lead's page: `GET /team` (with `/lead.js`, `/lead.css`) and its API, for the server's
/// operator and the team's leads only — a member's token gets 403 and nothing of the team's data.
///
/// Reads (the filter in the query: `day=2026-12-03&person=…&site=…&project=…`):
/// `/api/team/day` (the day's photos as JSON), `/api/team/plan.svg`, `/api/team/report.pdf`,
/// `/api/team/photos.kmz`, `/api/team/photos.csv`; a photo by the id the day gave it:
/// `/api/team/thumbnail?id=`, `/api/team/photo?id=` (stamp values and verdict), `/api/team/image?id=`;
/// the team: `/api/team/people`, `/api/team/qr.svg?name=`. Changes (POST, JSON):
/// `/api/team/people` `{"name", "project", "lead"}` adds a person, `/api/team/people/remove` `{"name"}`.
extension WebApp {
    static let leadPages: Set<String> = ["/team", "/team/", "/lead.js", "/lead.css"]

    /// The answer to a lead route, or nil when `request` is for another route.
    func leadRoute(_ request: HTTPRequest) -> HTTPResponse? {
        let path = request.path
        guard Self.leadPages.contains(path) || path.hasPrefix("/api/team/") else { return nil }
        guard policy.isLead(request) else {
            return .json(status: 403, error: "this page is for the team's leads: ask the lead for a lead's link (stampcam team add NAME --lead)")
        }
        if path == "/api/team/people" && request.method == "POST" || path == "/api/team/people/remove" {
            guard request.method == "POST" else { return notAllowed(path, allow: "POST") }
            return changePeople(request)
        }
        guard request.isRead else { return notAllowed(path, allow: "GET, HEAD") }
        switch path {
        case "/team", "/team/": return asset(WebAssets.leadPage, type: "text/html; charset=utf-8")
        case "/lead.js": return asset(WebAssets.leadScript, type: "text/javascript; charset=utf-8")
        case "/lead.css": return asset(WebAssets.leadStyle, type: "text/css; charset=utf-8")
        case "/api/team/people": return peopleJSON(request)
        case "/api/team/qr.svg": return qrCode(request)
        default: break
        }
        guard let lead else { return .json(status: 404, error: "this server keeps no photo log (it was started with --no-catalog)") }
        switch path {
        case "/api/team/thumbnail", "/api/team/photo", "/api/team/image": return photo(request, desk: lead)
        case "/api/team/day", "/api/team/plan.svg", "/api/team/report.pdf", "/api/team/photos.kmz", "/api/team/photos.csv":
            return day(request, desk: lead)
        default: return .json(status: 404, error: "no such API: \(PathEncoding.display(path))")
        }
    }

    // MARK: the day

    /// The query's filter; a refusal for a day that is no date or a value too long to be a name.
    private func leadQuery(_ request: HTTPRequest, desk: LeadDesk) -> Result<LeadDesk.Query, Refusal> {
        var query = LeadDesk.Query(day: desk.today)
        if let text = request.query["day"], !text.isEmpty {
            guard let day = LeadDesk.Day(text) else {
                return .failure(.badRequest("'day' must be a date like 2026-12-03 (from 1970 to 9999)"))
            }
            query.day = day
        }
        for key in ["person", "site", "project"] {
            guard let value = request.query[key], !value.isEmpty else { continue }
            guard value.count <= Self.maxFieldLength else {
                return .failure(.badRequest("'\(key)' is longer than \(Self.maxFieldLength) characters"))
            }
            switch key {
            case "person": query.person = value
            case "site": query.site = value
            default: query.project = value
            }
        }
        return .success(query)
    }

    /// `query` as the page sends it back for the plan and the downloads.
    private static func queryText(_ query: LeadDesk.Query) -> String {
        var parts = ["day=" + query.day.description]
        for (key, value) in [("person", query.person), ("site", query.site), ("project", query.project)] {
            if let value { parts.append(key + "=" + percentEncoded(value)) }
        }
        return parts.joined(separator: "&")
    }

    private func day(_ request: HTTPRequest, desk: LeadDesk) -> HTTPResponse {
        let query: LeadDesk.Query
        switch leadQuery(request, desk: desk) {
        case .success(let value): query = value
        case .failure(let refusal): return refusal.response
        }
        let listing: LeadDesk.Listing
        do { listing = try desk.listing(query) } catch {
            return .json(status: 503, error: "the photo log cannot be read now: \(error)", headers: [("Retry-After", "5")])
        }
        let head = request.method == "HEAD"
        switch request.path {
        case "/api/team/day": return .json(WebJSON.bytes(dayJSON(listing, desk: desk)))
        case "/api/team/plan.svg":
            guard let svg = try? desk.planSVG(listing.photos) else {
                return .json(status: 404, error: "no plan: no photo has a position, or they are too far apart for one")
            }
            return HTTPResponse(status: 200, headers: [("Content-Type", "image/svg+xml")], body: .bytes(svg))
        case "/api/team/photos.csv":
            return download(desk.csv(listing), type: "text/csv; charset=utf-8", name: "stampcam-\(query.day).csv")
        default:
            if head { return HTTPResponse(status: 200, headers: [("Content-Type", "application/octet-stream")]) }
            do throws(LeadDesk.Refusal) {
                if request.path == "/api/team/photos.kmz" {
                    return download(try desk.kmz(listing), type: "application/vnd.google-earth.kmz", name: "stampcam-\(query.day).kmz")
                }
                let (pdf, leftOut) = try desk.report(listing)
                var response = download(pdf, type: "application/pdf", name: "stampcam-\(query.day).pdf")
                if leftOut > 0 { response.headers.append(("X-Stampcam-Left-Out", String(leftOut))) }
                return response
            } catch {
                switch error {
                case .busy: return .json(status: 503, error: error.description, headers: [("Retry-After", "5")])
                case .empty: return .json(status: 404, error: error.description)
                case .tooMany: return .json(status: 413, error: error.description)
                case .failed: return .json(status: 500, error: error.description)
                }
            }
        }
    }

    private func dayJSON(_ listing: LeadDesk.Listing, desk: LeadDesk) -> LeadJSON.Day {
        let start = listing.dayStart
        let photos = listing.photos.enumerated().compactMap { offset, entry -> LeadJSON.Photo? in
            guard let id = LeadDesk.id(of: entry) else { return nil }
            let minute = min(24 * 60 - 1, max(0, ((entry.instant ?? start) - start) / 60))
            return LeadJSON.Photo(id: id, number: offset + 1, time: entry.time.map { String($0.timeText.prefix(5)) } ?? "", minute: minute,
                                  user: entry.user, project: entry.project, site: entry.site, place: entry.place, note: entry.note,
                                  code: entry.code, located: entry.position != nil,
                                  name: PathEncoding.display(PhotoName.lastComponent(entry.path)),
                                  file: LeadJSON.fileState(desk.thumbnails.knownProblem(entry)),
                                  thumbnail: "/api/team/thumbnail?id=" + id)
        }
        let query = Self.queryText(listing.query)
        return LeadJSON.Day(day: listing.query.day.description, today: desk.today.description, zone: listing.zone,
                            logged: desk.settings.catalog != nil, total: listing.total, leftOut: listing.leftOut,
                            unreadable: listing.unreadable, people: listing.people, sites: listing.sites, projects: listing.projects,
                            photos: photos, plan: desk.hasPlan(listing.photos) ? "/api/team/plan.svg?" + query : nil, query: query)
    }

    private func download(_ bytes: [UInt8], type: String, name: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", type), ("Content-Disposition", "attachment; filename=\"\(name)\"")],
                     body: .bytes(bytes))
    }

    // MARK: one photo

    private func photo(_ request: HTTPRequest, desk: LeadDesk) -> HTTPResponse {
        guard let id = request.query["id"], !id.isEmpty else { return .json(status: 400, error: "give 'id': a photo's id from /api/team/day") }
        let found: CatalogEntry?
        do { found = try desk.entry(id: id) } catch {
            return .json(status: 503, error: "the photo log cannot be read now: \(error)", headers: [("Retry-After", "5")])
        }
        guard let entry = found else { return .json(status: 404, error: "no logged photo has that id") }
        switch request.path {
        case "/api/team/thumbnail":
            switch desk.thumbnails.picture(of: entry) {
            case .jpeg(let bytes): return HTTPResponse(status: 200, headers: [("Content-Type", "image/jpeg")], body: .bytes(bytes))
            case .problem(let problem): return Self.fileRefusal(problem)
            }
        case "/api/team/image":
            switch PhotoThumbnails.loggedFile(entry) {
            case .success(let file): return HTTPResponse(status: 200, headers: [("Content-Type", "image/jpeg")], body: .bytes(file.bytes))
            case .failure(let problem): return Self.fileRefusal(problem)
            }
        default:
            let opened = desk.open(entry)
            let problem = opened.problem.map(Self.problemText)
            return .json(WebJSON.bytes(LeadJSON.Opened(
                id: id, name: PathEncoding.display(PhotoName.lastComponent(entry.path)), file: LeadJSON.fileState(opened.problem),
                problem: problem, image: opened.jpeg == nil ? nil : "/api/team/image?id=" + id,
                rows: opened.rows.map { LeadJSON.Row(label: $0.label, value: $0.value) },
                verification: opened.verification.map(LeadJSON.Verdict.init))))
        }
    }

    private static func problemText(_ problem: PhotoThumbnails.FileProblem) -> String {
        switch problem {
        case .missing: return "the photo's file is no longer where it was logged (moved or deleted)"
        case .changed: return "the photo's file was changed or replaced after it was logged (its SHA-256 is not the logged one)"
        case .unreadable(let reason): return "the photo's file cannot be read: " + reason
        }
    }

    private static func fileRefusal(_ problem: PhotoThumbnails.FileProblem) -> HTTPResponse {
        switch problem {
        case .missing: return .json(status: 404, error: problemText(problem))
        default: return .json(status: 409, error: problemText(problem))
        }
    }

    // MARK: the team

    /// The address a person's link starts with, as this lead reaches the server: the Host the
    /// request named, unless that is this machine's own name (a phone cannot use it).
    private func linkBase(_ request: HTTPRequest) -> String {
        var host = request.headers["host"] ?? ""
        let name = host.hasPrefix("[") ? String(host.prefix { $0 != "]" }) + "]" : String(host.prefix { $0 != ":" })
        if host.isEmpty || ["127.0.0.1", "localhost", "[::1]"].contains(name.lowercased()) || name.hasPrefix("127."),
           let external = WebServer.externalAddresses().first {
            host = "\(external):\(policy.port)"
        }
        return policy.scheme + "://" + host
    }

    private func peopleJSON(_ request: HTTPRequest) -> HTTPResponse {
        let asking = policy.person(request)?.name
        let base = linkBase(request)
        let people = (policy.team?.roster.people ?? []).map { person in
            LeadJSON.Person(name: person.name, project: person.project, lead: person.isLead, locked: person.locked.sorted(),
                            link: TeamRoster.link(person, base: base), qr: "/api/team/qr.svg?name=" + Self.percentEncoded(person.name),
                            you: person.name == asking)
        }
        return .json(WebJSON.bytes(LeadJSON.People(people: people, team: policy.team != nil)))
    }

    private func qrCode(_ request: HTTPRequest) -> HTTPResponse {
        guard let name = request.query["name"], let person = policy.team?.roster.people.first(where: { $0.name == name }) else {
            return .json(status: 404, error: "the team has nobody by that name")
        }
        guard let code = QRMatrix(TeamRoster.link(person, base: linkBase(request))) else {
            return .json(status: 500, error: "the link does not fit in a QR code")
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "image/svg+xml")], body: .bytes(Self.svg(code)))
    }

    /// A QR code as SVG: one square a dark module, four light modules around (the quiet zone).
    static func svg(_ code: QRMatrix) -> [UInt8] {
        let side = code.size + 8
        var path = ""
        for y in 0..<code.size {
            for x in 0..<code.size where code.isDark(x: x, y: y) { path += "M\(x + 4) \(y + 4)h1v1h-1z" }
        }
        return Array(("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(side) \(side)\" shape-rendering=\"crispEdges\">"
            + "<rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/><path fill=\"#000\" d=\"\(path)\"/></svg>").utf8)
    }

    private func changePeople(_ request: HTTPRequest) -> HTTPResponse {
        guard let team = policy.team else { return .json(status: 404, error: "this server has no team: start it with serve --team") }
        let body: [String: JSONValue]
        switch Self.parseObject(request.body) {
        case .success(let object): body = object
        case .failure(let refusal): return refusal.response
        }
        let adding = request.path == "/api/team/people"
        let keys = adding ? ["name", "project", "lead"] : ["name"]
        if let unknown = body.keys.first(where: { !keys.contains($0) }) {
            return Refusal.unknownKeys([unknown], known: keys).response
        }
        guard case .string(let name)? = body["name"] else { return .json(status: 400, error: "give 'name': the person's name") }
        do throws(TeamRoster.Problem) {
            if adding {
                var project: String?
                switch body["project"] {
                case .string(let text)? where text.count <= Self.maxFieldLength:
                    project = text.trimmingWhitespace.isEmpty ? nil : text.trimmingWhitespace
                case nil, .null?: project = nil
                default: return .json(status: 400, error: "'project' must be text of at most \(Self.maxFieldLength) characters")
                }
                var isLead = false
                switch body["lead"] {
                case .bool(let flag)?: isLead = flag
                case nil, .null?: break
                default: return .json(status: 400, error: "'lead' must be true or false")
                }
                let person = try team.change { roster throws(TeamRoster.Problem) in try roster.add(name, project: project, locked: [], isLead: isLead) }
                return .json(WebJSON.bytes(LeadJSON.Person(name: person.name, project: person.project, lead: person.isLead, locked: [],
                                                           link: TeamRoster.link(person, base: linkBase(request)),
                                                           qr: "/api/team/qr.svg?name=" + Self.percentEncoded(person.name), you: false)))
            }
            guard policy.person(request)?.name != name else {
                return .json(status: 409, error: "you cannot remove yourself; another lead (or stampcam team remove on the server) can")
            }
            try team.change { roster throws(TeamRoster.Problem) in try roster.remove(name) }
            return .json(WebJSON.bytes(["removed": name]))
        } catch {
            switch error {
            case .badName: return .json(status: 400, error: error.description)
            case .exists: return .json(status: 409, error: error.description)
            case .unknown: return .json(status: 404, error: error.description)
            case .unreadable: return .json(status: 500, error: "the team file cannot be changed (see the server's output)")
            }
        }
    }
}
