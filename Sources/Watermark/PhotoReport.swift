import Imaging

/// A photo report as a PDF is made of it (`Watermarker.pdf`): a cover, an index of the photos, a
/// location plan when they have positions, the photos a few to a page, each large with its fields in
/// a table, and a closing block to sign. Everything shown is given here — no clock or file is read
/// while drawing — so the same report makes the same pages.
public struct PhotoReport: Sendable {
    /// A line of a table: "Time" — "2026-11-29 14:03:12 +08:00".
    public struct Row: Sendable, Equatable {
        public var label: String
        public var value: String

        public init(_ label: String, _ value: String) {
            self.label = label
            self.value = value
        }
    }

    /// A photo's line in the index at the front.
    public struct Summary: Sendable, Equatable {
        public var time: String
        public var who: String
        public var place: String
        public var note: String

        public init(time: String, who: String, place: String, note: String) {
            self.time = time
            self.who = who
            self.place = place
            self.note = note
        }
    }

    /// One photo.
    public struct Item: Sendable {
        /// Its number in the report, from 1: the index, the plan and the photo pages all use it.
        public var number: Int
        /// The photo's JPEG, embedded in the PDF as it is (not decoded and compressed again). Its
        /// pixels must be stored upright (EXIF orientation 1).
        public var jpeg: [UInt8]
        /// The JPEG's size in pixels: the photo is drawn in this aspect ratio.
        public var pixelWidth: Int
        public var pixelHeight: Int
        /// The same picture, small: what Cairo falls back on where it cannot use the JPEG.
        public var preview: Bitmap
        /// The fields shown under it.
        public var rows: [Row]
        /// Its line in the index.
        public var summary: Summary
        /// Its verification code, when it has one (shown in the header of its page).
        public var code: String?

        public init(number: Int, jpeg: [UInt8], pixelWidth: Int, pixelHeight: Int, preview: Bitmap, rows: [Row],
                    summary: Summary, code: String? = nil) {
            self.number = number
            self.jpeg = jpeg
            self.pixelWidth = max(1, pixelWidth)
            self.pixelHeight = max(1, pixelHeight)
            self.preview = preview
            self.rows = rows
            self.summary = summary
            self.code = code
        }
    }

    /// A company's logo for the cover, checked and decoded once (`PhotoReport.Logo.read`).
    public enum Logo: Sendable {
        /// A PNG file's bytes (drawn with its transparency).
        case png([UInt8], width: Int, height: Int)
        /// An upright JPEG, embedded as it is, with a small preview as for a photo.
        case jpeg([UInt8], width: Int, height: Int, preview: Bitmap)

        public var size: (width: Int, height: Int) {
            switch self {
            case .png(_, let width, let height), .jpeg(_, let width, let height, _): return (width, height)
            }
        }
    }

    /// Someone who signs the report off: "Wang Fang", "Site manager".
    public struct Signer: Sendable, Equatable {
        public var name: String
        public var role: String

        public init(name: String, role: String) {
            self.name = name
            self.role = role
        }
    }

    /// The location plan: shapes and photos in metres east and north of a point near them (a local
    /// projection, so distances on the page are true to scale).
    public struct Plan: Sendable, Equatable {
        public struct Point: Sendable, Equatable {
            public var east: Double
            public var north: Double

            public init(east: Double, north: Double) {
                self.east = east
                self.north = north
            }
        }

        /// A site: its name and its outlines (closed rings).
        public struct Area: Sendable, Equatable {
            public var name: String
            public var rings: [[Point]]

            public init(name: String, rings: [[Point]]) {
                self.name = name
                self.rings = rings
            }
        }

        /// A photo's position, marked with its number.
        public struct Mark: Sendable, Equatable {
            public var number: Int
            public var point: Point

            public init(number: Int, point: Point) {
                self.number = number
                self.point = point
            }
        }

        public var areas: [Area]
        public var photos: [Mark]

        public init(areas: [Area], photos: [Mark]) {
            self.areas = areas
            self.photos = photos
        }
    }

    /// Photos per page: 1 (as large as the page allows), 2 (one above the other), 4 or 6 (in two
    /// columns, a contact grid).
    public static let layouts = [1, 2, 4, 6]
    /// Lines of the index on each of its pages.
    public static let indexLinesPerPage = 16

    public var title: String
    /// The cover's table: project, site, period, author, count.
    public var cover: [Row]
    /// The company's name and logo, at the top of the cover.
    public var company: String?
    public var logo: Logo?
    /// At the foot of every page, e.g. "Generated 2026-11-29 18:03 +08:00 by stampcam 0.2.0".
    public var footer: String
    /// The PDF's Creator, e.g. "stampcam 0.2.0", and its creation date (`2026-11-29T18:03:00+08:00`).
    public var creator: String
    public var created: String?
    /// The PDF's Author and Subject.
    public var author: String
    public var subject: String
    public var perPage: Int
    public var items: [Item]
    /// The location plan; nil when no photo has a position.
    public var plan: Plan?
    /// Who signs it off; none leaves the closing page out.
    public var signers: [Signer]
    /// How a client checks the photos: the last page; nil leaves it out.
    public var checking: Checking?

    /// The organisation's check page and the fingerprint of the CA its photos are signed under.
    public struct Checking: Sendable, Equatable {
        public var url: String
        public var organization: String
        /// SHA-256 of the CA certificate, `AB:CD:…`; nil when not known.
        public var authorityFingerprint: String?

        public init(url: String, organization: String, authorityFingerprint: String?) {
            self.url = url
            self.organization = organization
            self.authorityFingerprint = authorityFingerprint
        }
    }

    public init(title: String, cover: [Row], footer: String, creator: String, created: String?, perPage: Int, items: [Item],
                company: String? = nil, logo: Logo? = nil, author: String = "", subject: String = "", plan: Plan? = nil,
                signers: [Signer] = []) {
        self.title = title
        self.cover = cover
        self.footer = footer
        self.creator = creator
        self.created = created
        self.perPage = perPage
        self.items = items
        self.company = company
        self.logo = logo
        self.author = author
        self.subject = subject
        self.plan = plan
        self.signers = signers
    }

    /// Pages of the index.
    public var indexPages: Int { (items.count + Self.indexLinesPerPage - 1) / Self.indexLinesPerPage }
    /// Pages of photos.
    public var photoPages: Int { (items.count + max(1, perPage) - 1) / max(1, perPage) }

    /// Pages in all: the cover, the index, the plan, the photo pages, the closing page and how to check the photos.
    public var pageCount: Int { 1 + indexPages + (plan == nil ? 0 : 1) + photoPages + (signers.isEmpty ? 0 : 1) + (checking == nil ? 0 : 1) }
}

/// Why a report could not be made.
public enum ReportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Cairo refused: its status text.
    case cairo(String)

    public var description: String {
        switch self {
        case .cairo(let status): return "cannot make the PDF: \(status)"
        }
    }
}
