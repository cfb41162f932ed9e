import Platform
import Provenance
import Session
import Synchronization
import Values

/// The public check page, for the organisation's clients: `/verify` answers without a token.
///
/// - `GET /verify`: the page (`/verify.js`, `/verify.css`); its words come from `/api/words`.
/// - `POST /verify` with a photo as the multipart field `photo` (as phones send uploads): the
///   verdict on it, checked in memory (never stored): JSON when asked with `Accept: application/json`.
/// - `GET /verify?code=…` with `Accept: application/json`: whether the organisation's photo log holds
///   a photo with that code, the facts the organisation chose to show, and `/verify/thumbnail?code=…`.
///
/// Each address may ask `requestsPerMinute` times a minute (a photo counts as `photoCost`); more get 429.
public final class CheckPage: Sendable {
    public struct Settings: Sendable {
        /// The organisation's name, as its certificates say it.
        public var organization: String
        /// Whose signatures count as the organisation's: its CA (and `--trust`), and time-stamp authorities' CAs.
        public var trust: TrustAnchors
        /// The photo log codes are looked up in; nil looks up none.
        public var catalog: String?
        /// The facts a found code shows (`--verify-shows`).
        public var shows: Set<CodeLookup.Fact>
        /// The largest photo checked.
        public var maxPhotoBytes = 20 << 20
        public var requestsPerMinute = 30

        public init(organization: String, trust: TrustAnchors, catalog: String?,
                    shows: Set<CodeLookup.Fact> = [.time, .project]) {
            self.organization = organization
            self.trust = trust
            self.catalog = catalog
            self.shows = shows
        }
    }

    public static let path = "/verify"
    static let thumbnailPath = "/verify/thumbnail", wordsPath = "/verify/words"
    /// What a photo costs of an address's requests a minute: reading and checking it is work.
    static let photoCost = 3

    public let settings: Settings
    let words: PageWords
    private let buckets = Mutex(RateLimit())
    private let clock: @Sendable () -> Double

    public init(settings: Settings, words: PageWords, clock: @escaping @Sendable () -> Double = { WallClock.monotonic() }) {
        self.settings = settings
        self.words = words
        self.clock = clock
    }

    /// Whether `path` is the check page's.
    static func handles(_ path: String) -> Bool {
        [Self.path, "/verify.js", "/verify.css", thumbnailPath, wordsPath].contains(path)
    }

    /// Where the check page's photos are posted, received in memory only.
    func uploads() -> HTTPDaemon.Uploads {
        HTTPDaemon.Uploads(path: Self.path, folder: nil, maxBytes: settings.maxPhotoBytes) { [self] head in
            admit(head, cost: Self.photoCost)
        }
    }

    /// An answer before anything is read when the address has asked too often; nil lets it in.
    func admit(_ request: HTTPRequest, cost: Int) -> HTTPResponse? {
        let now = clock()
        let allowed = buckets.withLock { $0.take(cost, for: request.peer, at: now, perMinute: settings.requestsPerMinute) }
        guard !allowed else { return nil }
        return .json(status: 429, error: "too many checks from this address; wait a minute", headers: [("Retry-After", "60")])
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        switch (request.path, request.method) {
        case ("/verify.js", "GET"), ("/verify.js", "HEAD"):
            return asset(CheckAssets.script, type: "text/javascript; charset=utf-8")
        case ("/verify.css", "GET"), ("/verify.css", "HEAD"):
            return asset(CheckAssets.style, type: "text/css; charset=utf-8")
        case (Self.thumbnailPath, "GET"), (Self.thumbnailPath, "HEAD"):
            if let refusal = admit(request, cost: Self.photoCost) { return refusal }
            return thumbnail(code: request.query["code"] ?? "")
        case (Self.path, "POST"):
            // The upload's rate was counted before its body was read.
            return verdict(on: request)
        case (Self.wordsPath, "GET"), (Self.wordsPath, "HEAD"):
            return words.response(for: request.query["lang"] ?? request.headers["accept-language"] ?? "")
        case (Self.path, "GET"), (Self.path, "HEAD"):
            guard wantsJSON(request) else { return asset(CheckAssets.page, type: "text/html; charset=utf-8") }
            guard let code = request.query["code"] else {
                return .json(WebJSON.bytes(About(organization: settings.organization, codes: settings.catalog != nil)))
            }
            if let refusal = admit(request, cost: 1) { return refusal }
            return lookUp(code)
        default:
            return .json(status: 405, error: "\(request.path) takes GET, or POST with a photo", headers: [("Allow", "GET, HEAD, POST")])
        }
    }

    /// What the page shows before anything is checked.
    struct About: Encodable {
        let organization: String
        /// Whether codes can be looked up here.
        let codes: Bool
    }

    private func wantsJSON(_ request: HTTPRequest) -> Bool {
        (request.headers["accept"] ?? "").lowercased().contains("application/json")
    }

    private func asset(_ bytes: [UInt8], type: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", type)], body: .bytes(bytes))
    }

    // MARK: a photo

    /// The verdict on the photo posted, made from its bytes in memory.
    private func verdict(on request: HTTPRequest) -> HTTPResponse {
        guard let upload = request.upload else {
            return .json(status: 400, error: "send the photo as multipart/form-data with a field 'photo'")
        }
        let verification = ManifestReader.verify(file: upload.photo.bytes, trust: settings.trust, now: WallClock.now().secondsSinceEpoch)
        let answer = CheckVerdict(verification, organization: settings.organization, lookUp: { code in lookUpCode(code) })
        if wantsJSON(request) { return .json(WebJSON.bytes(answer)) }
        let (_, words) = self.words.answer(for: request.headers["accept-language"] ?? "")
        // Without a JSON Accept (curl, a form), the verdict's sentence as plain text.
        return HTTPResponse(status: 200, headers: [("Content-Type", "text/plain; charset=utf-8"), ("Vary", "Accept-Language")],
                            body: .bytes(Array((answer.sentence(words) + "\n").utf8)))
    }

    // MARK: a code

    private func lookUpCode(_ typed: String) -> CodeLookup.Answer? {
        guard let catalog = settings.catalog else { return nil }
        return try? CodeLookup.find(typed, catalog: catalog, shows: settings.shows)
    }

    private func lookUp(_ typed: String) -> HTTPResponse {
        guard settings.catalog != nil else { return .json(status: 404, error: "this server looks up no codes (it has no photo log)") }
        guard let answer = lookUpCode(typed) else { return .json(status: 503, error: "the photo log cannot be read now; try again") }
        return .json(WebJSON.bytes(CheckVerdict.Code(answer, typed: typed, organization: settings.organization)))
    }

    private func thumbnail(code: String) -> HTTPResponse {
        guard let catalog = settings.catalog, let file = CodeLookup.loggedPhoto(code, catalog: catalog),
              let bytes = LiveHub.thumbnail(of: file) else { return .json(status: 404, error: "no thumbnail for this code") }
        return HTTPResponse(status: 200, headers: [("Content-Type", "image/jpeg")], body: .bytes(bytes))
    }
}

/// Requests a minute per address, as buckets that refill steadily: a burst of a minute's worth, then
/// one each `60 / perMinute` seconds. At most `maxAddresses` are remembered (the fullest forgotten first).
struct RateLimit: Sendable {
    private var buckets: [String: (tokens: Double, at: Double)] = [:]
    static let maxAddresses = 10_000

    mutating func take(_ cost: Int, for address: String, at now: Double, perMinute: Int) -> Bool {
        let rate = Double(perMinute) / 60
        var bucket = buckets[address] ?? (Double(perMinute), now)
        bucket.tokens = min(Double(perMinute), bucket.tokens + (now - bucket.at) * rate)
        bucket.at = now
        let allowed = bucket.tokens >= Double(cost)
        if allowed { bucket.tokens -= Double(cost) }
        if buckets[address] == nil, buckets.count >= Self.maxAddresses {
            // Full buckets say nothing an empty one would not: they go first.
            buckets = buckets.filter { ($0.value.tokens + (now - $0.value.at) * rate) < Double(perMinute) }
            if buckets.count >= Self.maxAddresses { buckets.removeAll() }
        }
        buckets[address] = bucket
        return allowed
    }
}
