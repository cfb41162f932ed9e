import Catalog
import Library
import Platform
import Provenance
import Values
import Watermark

extension LeadDesk {
    /// A photo opened on the page: its file's bytes when they are the logged ones, the rows the
    /// report shows under it, and what `stampcam verify` says of it.
    public struct Opened: Sendable {
        public var entry: CatalogEntry
        /// The photo as logged; nil with `problem` saying why not.
        public var jpeg: [UInt8]?
        public var problem: PhotoThumbnails.FileProblem?
        public var rows: [PhotoReport.Row]
        /// Nil when the file is not the logged one (nothing to verify).
        public var verification: Verification?
    }

    /// `entry`'s photo with its rows and its verdict (the server's own signer trusted).
    public func open(_ entry: CatalogEntry) -> Opened {
        let rows = ReportBuilder.rows(entry)
        switch PhotoThumbnails.loggedFile(entry) {
        case .failure(let problem):
            return Opened(entry: entry, jpeg: nil, problem: problem, rows: rows, verification: nil)
        case .success(let file):
            var verification = ManifestReader.verify(file: file.bytes, trust: settings.trust, now: settings.clock())
            verification.checkStampedCode()
            return Opened(entry: entry, jpeg: file.bytes, problem: nil, rows: rows, verification: verification)
        }
    }

    /// Whether `photos` have a location plan.
    public func hasPlan(_ photos: [CatalogEntry]) -> Bool { ReportBuilder.plan(photos, sites: settings.sites) != nil }

    /// The location plan of `photos` (numbered in this order from 1) as the report draws it, as
    /// SVG; nil when none has a position or they are too far apart for one plan.
    public func planSVG(_ photos: [CatalogEntry]) throws -> [UInt8]? {
        guard let plan = ReportBuilder.plan(photos, sites: settings.sites) else { return nil }
        return try Watermarker(fontConfig: settings.fontConfig).planSVG(plan)
    }

    /// The PDF report `stampcam report` makes of `listing`'s photos; photos whose files cannot be
    /// read are left out, as there.
    public func report(_ listing: Listing) throws(Refusal) -> (pdf: [UInt8], leftOut: Int) {
        try checkSize(listing)
        return try oneAtATime { () throws(Refusal) -> (pdf: [UInt8], leftOut: Int) in
            let now = settings.clock()
            let generated = Timestamp(secondsSinceEpoch: now, utcOffsetMinutes: WallClock.localOffsetMinutes(at: now))
            let (report, leftOut) = ReportBuilder.build(listing.photos, settings: ReportBuilder.Settings(
                title: nil, perPage: 2, generated: generated, version: settings.version, sites: settings.sites))
            guard !report.items.isEmpty else { throw .failed("none of the photos can be read: \(leftOut.first.map { "\($0.error)" } ?? "")") }
            do {
                return (try Watermarker(fontConfig: settings.fontConfig).pdf(report), leftOut.count)
            } catch {
                throw .failed("the report could not be made: \(error)")
            }
        }
    }

    /// The KMZ `stampcam export --kmz` makes of `listing`'s photos.
    public func kmz(_ listing: Listing) throws(Refusal) -> [UInt8] {
        try checkSize(listing)
        return try oneAtATime { () throws(Refusal) -> [UInt8] in
            let target = "photos.kmz"
            do {
                let scratch = try ScratchFolder(in: settings.temporary, for: target)
                let result = try KMZExport.write(listing.photos, in: scratch, target: target)
                return try FileSystem.read(FilePath(result.archive))
            } catch {
                throw .failed("the KMZ could not be made: \(error)")
            }
        }
    }

    /// The CSV `stampcam export --csv` makes of `listing`'s photos.
    public func csv(_ listing: Listing) -> [UInt8] { CatalogExport.csv(listing.photos) }

    private func checkSize(_ listing: Listing) throws(Refusal) {
        guard !listing.photos.isEmpty else { throw .empty }
        guard listing.leftOut == 0 else { throw .tooMany(listing.photos.count + listing.leftOut) }
    }
}
