import Catalog
import Location
import Platform
import Provenance
import Synchronization
import Values

/// The team's photos as a lead sees them on the server's page (`serve`'s `/team`): a day of the
/// photo log `serve` writes, narrowed to a person, a site and a project; each photo's small
/// picture, and opened, its stamp values and its verification verdict; and for the same choice the
/// PDF report, the KMZ and the CSV, made by the code `report` and `export` use.
public final class LeadDesk: Sendable {
    public struct Settings: Sendable {
        /// The catalog the server logs its photos in; nil when it logs none (`--no-catalog`).
        public var catalog: String?
        /// The zone a day runs midnight to midnight in (`--tz`); nil: this machine's.
        public var zone: FieldPolicy.Zone?
        /// The named sites drawn on the plan and the report's (`--sites`).
        public var sites: SiteMap?
        /// fonts/fonts.conf, for the report and the plan.
        public var fontConfig: String
        /// stampcam's version, in the report's footer.
        public var version: String
        /// Whose signatures the verdicts trust: the server's own signer.
        public var trust: TrustAnchors
        /// Where a KMZ is built before it is sent.
        public var temporary: String
        /// The bytes of small pictures kept in memory.
        public var thumbnailBudget = 32 << 20
        /// The most photos a page lists and a report holds; a larger choice is to be narrowed.
        public var maxPhotos = 2000
        /// The clock (seconds since 1970), for "today" and the report's date.
        public var clock: @Sendable () -> Int = { WallClock.now().secondsSinceEpoch }

        public init(catalog: String?, zone: FieldPolicy.Zone?, sites: SiteMap?, fontConfig: String, version: String,
                    trust: TrustAnchors, temporary: String) {
            self.catalog = catalog
            self.zone = zone
            self.sites = sites
            self.fontConfig = fontConfig
            self.version = version
            self.trust = trust
            self.temporary = temporary
        }
    }

    /// A civil day (`2026-12-03`).
    public struct Day: Sendable, Equatable, CustomStringConvertible {
        public let year: Int, month: Int, day: Int

        /// `YYYY-MM-DD`, a real date from 1970 to 9999.
        public init?(_ text: String) {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard text.utf8.count == 10, parts.count == 3, parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                  let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1970...9999).contains(year),
                  let date = Timestamp(iso8601: text + "T12:00:00Z"), date.year == year, date.month == month, date.day == day else {
                return nil
            }
            (self.year, self.month, self.day) = (year, month, day)
        }

        init(_ time: Timestamp) { (year, month, day) = (time.year, time.month, time.day) }

        public var description: String {
            String(year) + "-" + (month < 10 ? "0" : "") + String(month) + "-" + (day < 10 ? "0" : "") + String(day)
        }
    }

    /// What the lead chose: a day, and optionally one person, one site and one project (exact names).
    public struct Query: Sendable, Equatable {
        public var day: Day
        public var person: String?
        public var site: String?
        public var project: String?

        public init(day: Day, person: String? = nil, site: String? = nil, project: String? = nil) {
            self.day = day
            self.person = person
            self.site = site
            self.project = project
        }

        func matches(_ entry: CatalogEntry) -> Bool {
            (person == nil || entry.user == person) && (site == nil || entry.site == site) && (project == nil || entry.project == project)
        }
    }

    /// A day's photos: those the query lets through (numbered from 1 in the order taken), and
    /// the people, sites and projects of the whole day to choose from.
    public struct Listing: Sendable {
        public var query: Query
        public var photos: [CatalogEntry] = []
        /// Photos the query lets through beyond `maxPhotos`, left out.
        public var leftOut = 0
        /// Photos of the whole day.
        public var total = 0
        public var people: [String] = [], sites: [String] = [], projects: [String] = []
        /// Rows of the day the catalog could not read.
        public var unreadable = 0
        /// The day's zone as an offset at noon (`+02:00`).
        public var zone = ""
        /// The day's midnight, seconds since 1970.
        public var dayStart = 0
    }

    public let settings: Settings
    public let thumbnails: PhotoThumbnails
    /// Reports and KMZs are made one at a time: each holds many photos in memory.
    private let making = Mutex(false)

    public init(settings: Settings) {
        self.settings = settings
        thumbnails = PhotoThumbnails(budget: settings.thumbnailBudget)
    }

    /// Today in the day's zone.
    public var today: Day {
        let now = settings.clock()
        return Day(Timestamp(secondsSinceEpoch: now, utcOffsetMinutes: offset(at: now)))
    }

    private func offset(at seconds: Int) -> Int {
        guard let zone = settings.zone else { return WallClock.localOffsetMinutes(at: seconds) }
        return zone.offsetMinutes(at: Timestamp(secondsSinceEpoch: seconds, utcOffsetMinutes: 0))
    }

    /// Midnight to midnight of `day` in the day's zone, seconds since 1970.
    public func range(_ day: Day) -> Range<Int> {
        let start = Timestamp.midnight(year: day.year, month: day.month, day: day.day, offsetAt: offset(at:))
        let next = Day(Timestamp(secondsSinceEpoch: start + 36 * 3600, utcOffsetMinutes: offset(at: start + 36 * 3600)))
        return start..<Timestamp.midnight(year: next.year, month: next.month, day: next.day, offsetAt: offset(at:))
    }

    /// The photos of `query`'s day, read from the catalog now (a photo logged a moment ago is in).
    public func listing(_ query: Query) throws(CatalogError) -> Listing {
        let range = range(query.day)
        var listing = Listing(query: query)
        listing.dayStart = range.lowerBound
        listing.zone = Timestamp(secondsSinceEpoch: range.lowerBound + 12 * 3600, utcOffsetMinutes: offset(at: range.lowerBound + 12 * 3600)).offsetText
        guard let catalog = try openCatalog() else { return listing }
        var filter = CatalogFilter()
        (filter.since, filter.until) = (range.lowerBound, range.upperBound)
        var people = Set<String>(), sites = Set<String>(), projects = Set<String>()
        listing.unreadable = try catalog.forEach(filter) { entry in
            listing.total += 1
            if let user = entry.user, !user.isEmpty { people.insert(user) }
            if let site = entry.site, !site.isEmpty { sites.insert(site) }
            if let project = entry.project, !project.isEmpty { projects.insert(project) }
            guard query.matches(entry) else { return }
            if listing.photos.count < settings.maxPhotos { listing.photos.append(entry) } else { listing.leftOut += 1 }
        }
        listing.photos = ReportBuilder.taken(listing.photos)
        (listing.people, listing.sites, listing.projects) = (people.sorted(), sites.sorted(), projects.sorted())
        return listing
    }

    /// The catalog to read; nil when the server logs nothing or nothing is logged yet.
    private func openCatalog() throws(CatalogError) -> Catalog? {
        guard let path = settings.catalog, let status = FileStatus(path: FilePath(path)), status.isRegular, status.size > 0 else { return nil }
        return try Catalog(reading: path)
    }

    // MARK: photos by id

    /// A photo's id on the page: when it was taken and a digest of its path and content, so the
    /// page can name a photo without naming a file, and the row is found again through the time index.
    public static func id(of entry: CatalogEntry) -> String? {
        guard let instant = entry.instant else { return nil }
        let digest = SHA256Digest.digest(PathEncoding.encode(entry.path) + [0] + Array(entry.sha256.utf8))
        return String(instant) + "-" + digest.prefix(8).map { Hex.padded($0, digits: 2, uppercase: false) }.joined()
    }

    /// The logged photo with `id`; nil for an id that names none (or is not an id at all).
    public func entry(id: String) throws(CatalogError) -> CatalogEntry? {
        let parts = id.split(separator: "-", maxSplits: 1)
        guard id.utf8.count <= 40, parts.count == 2, parts[1].utf8.count == 16, let instant = Int(parts[0]),
              instant > Int.min / 2, instant < Int.max / 2, let catalog = try openCatalog() else { return nil }
        var filter = CatalogFilter()
        (filter.since, filter.until) = (instant, instant + 1)
        return try catalog.entries(filter).entries.first { Self.id(of: $0) == id }
    }

    // MARK: one at a time

    /// Why a file for the page was not made.
    public enum Refusal: Error, Sendable, CustomStringConvertible {
        /// Another report or KMZ is being made.
        case busy
        /// No photo matches.
        case empty
        /// More photos than `maxPhotos`.
        case tooMany(Int)
        case failed(String)

        public var description: String {
            switch self {
            case .busy: return "another report is being made; try again in a moment"
            case .empty: return "no photos match: choose another day or fewer filters"
            case .tooMany(let count): return "\(count) photos are more than one report holds here: choose a person, a site or a project"
            case .failed(let reason): return reason
            }
        }
    }

    /// Runs `body` unless another such job runs.
    func oneAtATime<Made>(_ body: () throws(Refusal) -> Made) throws(Refusal) -> Made {
        guard making.withLock({ busy in
            if busy { return false }
            busy = true
            return true
        }) else { throw .busy }
        defer { making.withLock { $0 = false } }
        return try body()
    }
}
