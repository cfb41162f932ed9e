import Catalog
import Imaging
import Library
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

        public init(title: String?, perPage: Int, generated: Timestamp, version: String) {
            self.title = title
            self.perPage = perPage
            self.generated = generated
            self.version = version
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

    /// The report of `entries`, in their order. Photos whose files cannot be read are left out.
    public static func build(_ entries: [CatalogEntry], settings: Settings) -> (report: PhotoReport, leftOut: [LeftOut]) {
        var items: [PhotoReport.Item] = [], leftOut: [LeftOut] = [], shown: [CatalogEntry] = []
        for entry in entries {
            do {
                items.append(try item(entry))
                shown.append(entry)
            } catch {
                leftOut.append(LeftOut(path: entry.path, error: error))
            }
        }
        let software = settings.version.isEmpty ? "stampcam" : "stampcam " + settings.version
        let generated = "\(settings.generated.dateText) \(settings.generated.timeText) \(settings.generated.offsetText)"
        let report = PhotoReport(title: title(settings.title, shown), cover: cover(shown, generated: generated, software: software),
                                 footer: "Generated \(generated) by \(software)", creator: software,
                                 created: settings.generated.iso8601, perPage: settings.perPage, items: items)
        return (report, leftOut)
    }

    /// One photo: its JPEG (as it is when it can be), a small preview, its rows.
    static func item(_ entry: CatalogEntry) throws -> PhotoReport.Item {
        let file = try InputFile.photo(entry.path, check: LoadOptions().check)
        let isJPEG = file.withUnsafeBytes { ImageFormat.sniff($0) ?? .jpeg } == .jpeg
        if isJPEG, try PhotoMetadata(jpeg: file).orientation == .up, file.count <= embedLimit.bytes,
           case let stored = try Photo.storedSize(jpeg: file), max(stored.width, stored.height) <= embedLimit.side {
            let preview = try Photo(jpeg: file, options: LoadOptions(maxSize: previewSize))
            return PhotoReport.Item(jpeg: file.withUnsafeBytes { Array($0) }, pixelWidth: stored.width, pixelHeight: stored.height,
                                    preview: preview.bitmap, rows: rows(entry))
        }
        // Too large to mail, stored turned (a PDF shows a JPEG's pixels as stored), or HEIC/PNG:
        // upright, smaller, as a JPEG.
        var photo = try Photo(file: file, options: LoadOptions(maxSize: reencodedSize))
        photo.metadata = PhotoMetadata()
        let jpeg = try photo.jpeg(quality: 90)
        let preview = try Photo(jpeg: jpeg, options: LoadOptions(maxSize: previewSize))
        return PhotoReport.Item(jpeg: jpeg, pixelWidth: photo.width, pixelHeight: photo.height, preview: preview.bitmap,
                                rows: rows(entry))
    }

    /// The table under a photo.
    static func rows(_ entry: CatalogEntry) -> [PhotoReport.Row] {
        typealias Row = PhotoReport.Row
        var time = entry.time.map { "\($0.dateText) \($0.timeText) \($0.offsetText)".trimmingWhitespace } ?? ""
        // The stamp's own mark: a file's modification time or a time set by hand is not when it was taken.
        if let mark = Fields(time: entry.time, timeSource: entry.timeSource).timeMark(.standard) { time += " (\(mark))" }
        var position = ""
        if let place = entry.position {
            position = CatalogEntry.coordinates(place.latitude, place.longitude)
            if let altitude = entry.altitude { position += " · " + fixedPoint(altitude, places: 1) + " m" }
        }
        return [
            Row("Time", time), Row("Project", entry.project ?? ""), Row("Who", entry.user ?? ""),
            Row("Where", entry.location ?? ""), Row("Coordinates", position), Row("Note", entry.note ?? ""),
            Row("File", PathEncoding.display(PhotoName.lastComponent(entry.path))),
        ]
    }

    static func title(_ given: String?, _ entries: [CatalogEntry]) -> String {
        if let given, !given.isEmpty { return given }
        let projects = distinct(entries.compactMap(\.project))
        return projects.count == 1 ? "Photo report: \(projects[0])" : "Photo report"
    }

    /// The cover's facts: projects, dates, people, places, count, when made.
    static func cover(_ entries: [CatalogEntry], generated: String, software: String) -> [PhotoReport.Row] {
        typealias Row = PhotoReport.Row
        let days = entries.compactMap { $0.time?.dateText }.sorted()
        let dates = days.first.map { first in first == days.last ? first : "\(first) – \(days.last ?? first)" } ?? ""
        let projects = entries.compactMap(\.project)
        return [
            Row(distinct(projects).count > 1 ? "Projects" : "Project", list(projects)), Row("Dates", dates),
            Row("People", list(entries.compactMap(\.user))),
            Row("Places", list(entries.compactMap(\.location))), Row("Photos", String(entries.count)),
            Row("Generated", "\(generated) by \(software)"),
        ]
    }

    /// Distinct values in order of first appearance, the first ten named.
    private static func list(_ values: [String]) -> String {
        let unique = distinct(values)
        let named = unique.prefix(10).joined(separator: ", ")
        return unique.count > 10 ? named + " and \(unique.count - 10) more" : named
    }

    private static func distinct(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
