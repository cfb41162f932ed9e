import Imaging

/// A photo report as a PDF is made of it (`Watermarker.pdf`): a cover, then the photos a few to a
/// page, each large with its fields in a table. Everything shown is given here — no clock or file
/// is read while drawing — so the same report makes the same pages.
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

    /// One photo.
    public struct Item: Sendable {
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

        public init(jpeg: [UInt8], pixelWidth: Int, pixelHeight: Int, preview: Bitmap, rows: [Row]) {
            self.jpeg = jpeg
            self.pixelWidth = max(1, pixelWidth)
            self.pixelHeight = max(1, pixelHeight)
            self.preview = preview
            self.rows = rows
        }
    }

    /// Photos per page: 2 (one above the other), 4 or 6 (in two columns).
    public static let layouts = [2, 4, 6]

    public var title: String
    /// The cover's table: project, dates, people, count.
    public var cover: [Row]
    /// At the foot of every page, e.g. "Generated 2026-11-29 18:03 +08:00 by stampcam 0.2.0".
    public var footer: String
    /// The PDF's Creator, e.g. "stampcam 0.2.0", and its creation date (`2026-11-29T18:03:00+08:00`).
    public var creator: String
    public var created: String?
    public var perPage: Int
    public var items: [Item]

    public init(title: String, cover: [Row], footer: String, creator: String, created: String?, perPage: Int, items: [Item]) {
        self.title = title
        self.cover = cover
        self.footer = footer
        self.creator = creator
        self.created = created
        self.perPage = perPage
        self.items = items
    }

    /// Pages in all: the cover and the photo pages.
    public var pageCount: Int { 1 + (items.count + max(1, perPage) - 1) / max(1, perPage) }
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
