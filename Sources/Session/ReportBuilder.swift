import Catalog
import Imaging
import Library
import Location
import Platform
import Templates
import Values
import Watermark

/// `stampcam report`: logged photos (or photo files) made into a `PhotoReport` — each photo read
/// from its file, embedded as the JPEG it is when it can be, its fields in a table.
public enum ReportBuilder {
    public struct Settings: Sendable {
        /// The cover's title; nil names the project when there is one.
        public var title: String?
        public var perPage: Int
        /// When the report is made (shown on every page).
        public var generated: Timestamp
        /// stampcam's version, for the footer and the PDF's Creator.
        public var version: String
        /// Who wrote the report; nil names the people who took the photos.
        public var author: String?
        /// The company's name and logo for the cover.
        public var company: String?
        public var logo: PhotoReport.Logo?
        /// Who signs it off.
        public var signers: [PhotoReport.Signer]
        /// The sites to draw on the location plan (those a photo is on).
        public var sites: SiteMap?
        /// How a client checks the photos (`verify-url`): the last page says it; nil leaves it out.
        public var checking: PhotoReport.Checking?

        public init(title: String?, perPage: Int, generated: Timestamp, version: String, author: String? = nil,
                    company: String? = nil, logo: PhotoReport.Logo? = nil, signers: [PhotoReport.Signer] = [],
                    sites: SiteMap? = nil) {
            self.title = title
            self.perPage = perPage
            self.generated = generated
            self.version = version
            self.author = author
            self.company = company
            self.logo = logo
            self.signers = signers
            self.sites = sites
        }
    }

    /// A photo that could not be put in the report, and why.
    public struct LeftOut: Sendable {
        public var path: String
        public var error: any Error
    }

    /// A photo whose file is at most this many bytes and this long a side, and upright, goes in as it
    /// is; a larger one (or one stored turned) is embedded as a JPEG of `reencodedSize` pixels.
    static let embedLimit = (bytes: 8 << 20, side: 4096)
    static let reencodedSize = 2400
    /// Pixels of the small copy Cairo keeps beside each JPEG (never shown where the JPEG is used).
    static let previewSize = 96

    /// The report of `entries`, in the order they were taken (a time without a zone by the zone
    /// assumed for it; photos without a time last, in the order given), numbered from 1. Photos whose
    /// files cannot be read are left out.
    public static func build(_ entries: [CatalogEntry], settings: Settings) -> (report: PhotoReport, leftOut: [LeftOut]) {
        var items: [PhotoReport.Item] = [], leftOut: [LeftOut] = [], shown: [CatalogEntry] = []
        for entry in taken(entries) {
            do {
                items.append(try item(entry, number: items.count + 1))
                shown.append(entry)
            } catch {
                leftOut.append(LeftOut(path: entry.path, error: error))
            }
        }
        // The rows name the count, known only now.
        for index in items.indices {
            items[index].rows.insert(PhotoReport.Row(ReportWords.photo, ReportWords.numbered(index + 1, of: items.count)), at: 0)
        }
        let software = settings.version.isEmpty ? "stampcam" : "stampcam " + settings.version
        let generated = dated(settings.generated, seconds: true)
        let people = list(shown.compactMap(\.user))
        let report = PhotoReport(title: title(settings.title, shown),
                                 cover: cover(shown, settings: settings, generated: generated, software: software),
                                 footer: ReportWords.generated(generated, by: software), creator: software,
                                 created: settings.generated.iso8601, perPage: settings.perPage, items: items,
                                 company: settings.company, logo: settings.logo, author: settings.author ?? people,
                                 subject: ReportWords.subject(photos: shown.count, period: period(shown)),
                                 plan: plan(shown, sites: settings.sites), signers: settings.signers)
        var checked = report
        checked.checking = settings.checking
        return (checked, leftOut)
    }

    /// `entries` in the order they were taken; those without a time last, in the order given.
    static func taken(_ entries: [CatalogEntry]) -> [CatalogEntry] {
        let order = entries.indices.sorted { a, b in
            switch (entries[a].instant, entries[b].instant) {
            case let (x?, y?): return x != y ? x < y : a < b
            case (_?, nil): return true
            case (nil, _?): return false
            case (nil, nil): return a < b
            }
        }
        return order.map { entries[$0] }
    }

    /// One photo: its JPEG (as it is when it can be), a small preview, its rows.
    static func item(_ entry: CatalogEntry, number: Int) throws -> PhotoReport.Item {
        let file = try InputFile.photo(entry.path, check: LoadOptions().check)
        // A report shows the photo that was logged, never another one put in its place.
        guard file.withUnsafeBytes({ FileDigest.sha256($0) }) == entry.sha256 else {
            throw FileError.cannotRead(path: entry.path, reason: "it is not the photo that was logged (its SHA-256 differs): changed or replaced since")
        }
        let isJPEG = file.withUnsafeBytes { ImageFormat.sniff($0) ?? .jpeg } == .jpeg
        if isJPEG, try PhotoMetadata(jpeg: file).orientation == .up, file.count <= embedLimit.bytes,
           case let stored = try Photo.storedSize(jpeg: file), max(stored.width, stored.height) <= embedLimit.side {
            let preview = try Photo(jpeg: file, options: LoadOptions(maxSize: previewSize))
            return PhotoReport.Item(number: number, jpeg: file.withUnsafeBytes { Array($0) }, pixelWidth: stored.width,
                                    pixelHeight: stored.height, preview: preview.bitmap, rows: rows(entry), summary: summary(entry),
                                    code: entry.code)
        }
        // Too large to mail, stored turned (a PDF shows a JPEG's pixels as stored), or HEIC/PNG:
        // upright, smaller, as a JPEG.
        var photo = try Photo(file: file, options: LoadOptions(maxSize: reencodedSize))
        photo.metadata = PhotoMetadata()
        let jpeg = try photo.jpeg(quality: 90)
        let preview = try Photo(jpeg: jpeg, options: LoadOptions(maxSize: previewSize))
        return PhotoReport.Item(number: number, jpeg: jpeg, pixelWidth: photo.width, pixelHeight: photo.height,
                                preview: preview.bitmap, rows: rows(entry), summary: summary(entry), code: entry.code)
    }

    /// When the photo was taken as the report shows it, marked as the stamp marks a time that is
    /// not when it was taken (a file's modification time, a time set by hand).
    static func timeText(_ entry: CatalogEntry, seconds: Bool = true) -> String {
        var time = entry.time.map {
            ReportWords.leftToRight("\($0.dateText) \(seconds ? $0.timeText : String($0.timeText.prefix(5))) \($0.offsetText)".trimmingWhitespace)
        } ?? ""
        var fields = Fields(time: entry.time, timeSource: entry.timeSource)
        fields.words = StampWords.words(in: .current)
        if let mark = fields.timeMark(.standard) { time += " (\(mark))" }
        return time
    }

    /// `time` as the report's language writes a date (`29 November 2026`, `29 ноября 2026 г.`), then the
    /// time of day and the zone: for the cover and the footer, which a client reads. A photo's own time
    /// and the index keep the ISO form the stamp has, which sorts and compares.
    static func dated(_ time: Timestamp, seconds: Bool) -> String {
        let words = StampWords.words(in: .current)
        let clock = seconds ? time.timeText : String(time.timeText.prefix(5))
        return TimeFormat.format(time, words.longDate, words: words) + " " + ReportWords.leftToRight("\(clock) \(time.offsetText)".trimmingWhitespace)
    }

    /// The table under a photo.
    static func rows(_ entry: CatalogEntry) -> [PhotoReport.Row] {
        typealias Row = PhotoReport.Row
        var position = ""
        if let place = entry.position {
            position = CatalogEntry.coordinates(place.latitude, place.longitude)
            // TRANSLATORS: an altitude in metres: "35.0 m".
            if let altitude = entry.altitude { position += " · " + L("{1} m", fixedPoint(altitude, places: 1)) }
        }
        var rows = [
            Row(ReportWords.time, timeText(entry)), Row(ReportWords.project, entry.project ?? ""), Row(ReportWords.who, entry.user ?? ""),
            Row(ReportWords.place, entry.location ?? ""),
        ]
        if let site = entry.site, !site.isEmpty { rows.append(Row(ReportWords.site, site)) }
        rows += [Row(ReportWords.coordinates, position), Row(ReportWords.note, entry.note ?? ""),
                 Row(ReportWords.file, PathEncoding.display(PhotoName.lastComponent(entry.path)))]
        if let code = entry.code { rows.append(Row(ReportWords.codeLabel, code)) }
        return rows
    }

    /// The photo's line in the index.
    static func summary(_ entry: CatalogEntry) -> PhotoReport.Summary {
        // To the minute: the index is read down a column; the photo's page has the seconds.
        PhotoReport.Summary(time: timeText(entry, seconds: false), who: entry.user ?? "", place: entry.place ?? "", note: entry.note ?? "")
    }

    static func title(_ given: String?, _ entries: [CatalogEntry]) -> String {
        if let given, !given.isEmpty { return given }
        let projects = distinct(entries.compactMap(\.project))
        return projects.count == 1 ? ReportWords.titled(projects[0]) : ReportWords.reportTitle
    }

    /// From the first photo's time to the last's (`entries` in the order taken): ISO dates, or
    /// the language's (`long`) on the cover.
    static func period(_ entries: [CatalogEntry], long: Bool = false) -> String {
        let times = entries.compactMap(\.time).map {
            long ? dated($0, seconds: false) : "\($0.dateText) \(String($0.timeText.prefix(5))) \($0.offsetText)".trimmingWhitespace
        }
        guard let first = times.first, let last = times.last else { return "" }
        return first == last ? first : "\(first) – \(last)"
    }

    /// The cover's facts: projects, sites, period, author, people, places, count, when made.
    static func cover(_ entries: [CatalogEntry], settings: Settings, generated: String, software: String) -> [PhotoReport.Row] {
        typealias Row = PhotoReport.Row
        let projects = entries.compactMap(\.project), sites = entries.compactMap(\.site)
        var rows = [Row(distinct(projects).count > 1 ? ReportWords.projects : ReportWords.project, list(projects))]
        if !distinct(sites).isEmpty { rows.append(Row(distinct(sites).count > 1 ? ReportWords.sites : ReportWords.site, list(sites))) }
        rows.append(Row(ReportWords.period, period(entries, long: true)))
        if let author = settings.author, !author.isEmpty { rows.append(Row(ReportWords.author, author)) }
        rows += [
            Row(ReportWords.people, list(entries.compactMap(\.user))), Row(ReportWords.place, list(entries.compactMap(\.location))),
            Row(ReportWords.photos, String(entries.count)), Row(ReportWords.generated, "\(generated) · \(software)"),
        ]
        return rows
    }

    /// Distinct values in order of first appearance, the first ten named.
    private static func list(_ values: [String]) -> String {
        let unique = distinct(values)
        let named = unique.prefix(10).joined(separator: ", ")
        return unique.count > 10 ? named + ReportWords.more(unique.count - 10) : named
    }

    private static func distinct(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
