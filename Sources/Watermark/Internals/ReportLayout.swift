internal import CCairo
internal import CPango
import Imaging

/// Where things go on a report's pages, in points.
struct ReportLayout {
    let width: Double
    let height: Double
    let perPage: Int
    let columns: Int
    let rows: Int
    /// The Pango context every text is laid out in (the Watermarker's, on the private font setup).
    let context: OpaquePointer
    /// A report in a language written right to left (Arabic, Hebrew) is the mirror of a left-to-right
    /// one: its columns and texts start at the right. The plan is a map and is not mirrored.
    let rightToLeft: Bool

    static let margin = 40.0
    static let band = 24.0  // the header's and the footer's height
    static let gap = (x: 16.0, y: 18.0)

    init(width: Double, height: Double, perPage: Int, context: OpaquePointer, rightToLeft: Bool = false) {
        self.width = width
        self.context = context
        self.rightToLeft = rightToLeft
        self.height = height
        self.perPage = PhotoReport.layouts.contains(perPage) ? perPage : 2
        columns = self.perPage <= 2 ? 1 : 2
        rows = self.perPage / columns
    }

    /// Where a box `boxWidth` wide placed at `x` in a left-to-right page goes: there, or mirrored.
    func mirrored(_ x: Double, width boxWidth: Double) -> Double {
        rightToLeft ? width - x - boxWidth : x
    }

    /// A text of the page, starting where the page's lines start.
    func pageText(_ string: String, size: Double, bold: Bool = false, width: Double? = nil, lines: Int = 1,
                  align: PangoAlignment = PANGO_ALIGN_LEFT) -> ReportText {
        ReportText(context: context, string, size: size, bold: bold, width: width, lines: lines, align: align, rightToLeft: rightToLeft)
    }

    /// Draws `text` with its box's left edge at `x` in a left-to-right page; mirrored in a right-to-left one.
    func draw(_ text: ReportText, _ cr: OpaquePointer, x: Double, y: Double, grey: Double = 0) {
        text.draw(cr, x: mirrored(x, width: text.boxWidth ?? text.size.width), y: y, grey: grey)
    }

    /// The size of the text in the photos' tables.
    var tableSize: Double { perPage == 1 ? 10 : perPage == 2 ? 9 : 7.5 }

    /// Cell `index` of a page, left to right, top to bottom.
    func cell(_ index: Int) -> (x: Double, y: Double, width: Double, height: Double) {
        let top = Self.margin + Self.band, bottom = height - Self.margin - Self.band
        let cellWidth = (width - 2 * Self.margin - Double(columns - 1) * Self.gap.x) / Double(columns)
        let cellHeight = (bottom - top - Double(rows - 1) * Self.gap.y) / Double(rows)
        let column = index % columns, row = index / columns
        return (Self.margin + Double(column) * (cellWidth + Self.gap.x), top + Double(row) * (cellHeight + Self.gap.y),
                cellWidth, cellHeight)
    }

    func drawCover(_ cr: OpaquePointer, report: PhotoReport) {
        let textWidth = width - 2 * Self.margin
        // The company's logo and name at the top, as on its letterhead.
        var top = Self.margin + 20
        if let logo = report.logo {
            let size = logo.size
            let scale = min(160 / Double(size.width), 70 / Double(size.height))
            drawLogo(cr, logo, x: Self.margin, y: top, width: Double(size.width) * scale, height: Double(size.height) * scale)
            top += Double(size.height) * scale + 12
        }
        if let company = report.company, !company.isEmpty {
            let name = pageText(company, size: 14, bold: true, width: textWidth, lines: 2)
            draw(name, cr, x: Self.margin, y: top, grey: 0.2)
            top += name.size.height
        }
        let title = pageText(report.title, size: 26, bold: true, width: textWidth, lines: 3)
        let titleTop = max(180, top + 40)
        draw(title, cr, x: Self.margin, y: titleTop)
        var y = titleTop + title.size.height + 14
        rule(cr, y: y)
        y += 22
        drawTable(cr, report.cover, x: Self.margin, y: y, width: textWidth, size: 12, valueLines: 4, limit: height - 120)
    }

    /// A logo fitted to `width` × `height` at (x, y).
    func drawLogo(_ cr: OpaquePointer, _ logo: PhotoReport.Logo, x: Double, y: Double, width: Double, height: Double) {
        switch logo {
        case .png(let bytes, let pixelWidth, let pixelHeight):
            guard let image = try? PNGImage(bytes: bytes) else { return }
            image.withCairoSource { surface in
                cairo_save(cr)
                cairo_translate(cr, mirrored(x, width: width), y)
                cairo_scale(cr, width / Double(pixelWidth), height / Double(pixelHeight))
                cairo_set_source_surface(cr, surface, 0, 0)
                cairo_paint(cr)
                cairo_restore(cr)
            }
        case .jpeg(let bytes, _, _, let preview):
            if let image = ReportImage(preview: preview, jpeg: bytes) { drawImage(cr, image, x: x, y: y, width: width, height: height) }
        }
    }

    /// An image scaled to `width` × `height` at (x, y).
    func drawImage(_ cr: OpaquePointer, _ image: ReportImage, x: Double, y: Double, width: Double, height: Double) {
        let x = mirrored(x, width: width)
        cairo_save(cr)
        cairo_rectangle(cr, x, y, width, height)
        cairo_clip(cr)
        cairo_translate(cr, x, y)
        cairo_scale(cr, width / image.width, height / image.height)
        cairo_set_source_surface(cr, image.surface, 0, 0)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// The title on the left; `right` (a photo page's verification codes) on the right.
    func drawHeader(_ cr: OpaquePointer, title: String, right: String? = nil) {
        let textWidth = width - 2 * Self.margin
        var rightWidth = 0.0
        if let right {
            // Six photos' codes may take two lines: they grow upwards into the margin, over the rule.
            let codes = pageText(right, size: 7.5, width: textWidth * 0.62, lines: 2, align: PANGO_ALIGN_RIGHT)
            let size = codes.size
            rightWidth = size.width
            draw(codes, cr, x: width - Self.margin - textWidth * 0.62, y: Self.margin + 11 - size.height, grey: 0.25)
        }
        draw(pageText(title, size: 9, bold: true, width: textWidth - rightWidth - 12, lines: 1), cr, x: Self.margin, y: Self.margin, grey: 0.25)
        rule(cr, y: Self.margin + Self.band - 8)
    }

    func drawFooter(_ cr: OpaquePointer, report: PhotoReport, page: Int, of pages: Int) {
        let y = height - Self.margin - 10
        rule(cr, y: y - 6)
        let number = pageText(ReportWords.page(page, of: pages), size: 8)
        let numberWidth = number.size.width
        draw(number, cr, x: width - Self.margin - numberWidth, y: y, grey: 0.3)
        let footer = pageText(report.footer, size: 8, width: width - 2 * Self.margin - numberWidth - 12, lines: 1)
        draw(footer, cr, x: Self.margin, y: y, grey: 0.3)
    }

    /// The photo fitted into the top of its cell (centred) with its number on it, its table beneath.
    func drawItem(_ cr: OpaquePointer, _ item: PhotoReport.Item, image: ReportImage?,
                  cell: (x: Double, y: Double, width: Double, height: Double)) {
        let size = tableSize
        let lineHeight = size * 1.3
        // Room for every row on one line, and two more lines for long values.
        let tableHeight = Double(item.rows.count + 2) * lineHeight
        let box = (width: cell.width, height: max(40, cell.height - tableHeight - 6))
        let aspect = Double(item.pixelWidth) / Double(item.pixelHeight)
        let drawn = aspect > box.width / box.height ? (width: box.width, height: box.width / aspect)
                                                     : (width: box.height * aspect, height: box.height)
        let x = cell.x + (cell.width - drawn.width) / 2
        if let image { drawImage(cr, image, x: x, y: cell.y, width: drawn.width, height: drawn.height) }
        cairo_set_source_rgb(cr, 0.6, 0.6, 0.6)
        cairo_set_line_width(cr, 0.5)
        cairo_rectangle(cr, mirrored(x, width: drawn.width), cell.y, drawn.width, drawn.height)
        cairo_stroke(cr)
        drawBadge(cr, String(item.number), x: x + 4, y: cell.y + 4, size: perPage <= 2 ? 11 : 9, mirrored: true)
        drawTable(cr, item.rows, x: cell.x, y: cell.y + drawn.height + 6, width: cell.width, size: size, valueLines: 2,
                  limit: cell.y + cell.height)
    }

    /// A photo's number (or the plan's numbers of one spot) in a dark box with its top-left corner
    /// at (x, y), as the index shows it; its top-right corner at the mirror of (x, y) when `mirrored`
    /// in a right-to-left page (the plan's are where the photos are).
    func drawBadge(_ cr: OpaquePointer, _ label: String, x: Double, y: Double, size: Double, mirrored: Bool = false) {
        let text = ReportText(context: context, label, size: size, bold: true, width: 160, lines: 3)
        let extent = text.size
        let box = (width: max(extent.width + size * 0.8, extent.height), height: extent.height)
        let x = mirrored ? self.mirrored(x, width: box.width) : x
        cairo_set_source_rgba(cr, 0.1, 0.1, 0.1, 0.85)
        cairo_rectangle(cr, x, y, box.width, box.height)
        cairo_fill(cr)
        text.draw(cr, x: x + size * 0.4, y: y, grey: 1)
    }

    /// Label and value rows from `y`; a value wraps to `valueLines` lines. Rows that would pass
    /// `limit` are left out. Returns the y below the last row.
    @discardableResult
    func drawTable(_ cr: OpaquePointer, _ rows: [PhotoReport.Row], x: Double, y: Double, width: Double, size: Double,
                   valueLines: Int, limit: Double) -> Double {
        // As wide as the widest label needs (a language's may be longer than English's), up to 40 %.
        let widest = rows.map { ReportText(context: context, $0.label, size: size, bold: true).size.width }.max() ?? 0
        let labelWidth = min(max(min(90, width * 0.24), widest + 6), width * 0.4)
        var top = y
        for row in rows {
            let label = pageText(row.label, size: size, bold: true, width: labelWidth - 6, lines: 1)
            let value = pageText(row.value.isEmpty ? "—" : row.value, size: size, width: width - labelWidth,
                                   lines: valueLines)
            let height = max(label.size.height, value.size.height)
            guard top + height <= limit else { break }
            draw(label, cr, x: x, y: top, grey: 0.35)
            draw(value, cr, x: x + labelWidth, y: top)
            top += height + size * 0.25
        }
        return top
    }

    func rule(_ cr: OpaquePointer, y: Double, grey: Double = 0.75) {
        cairo_set_source_rgb(cr, grey, grey, grey)
        cairo_set_line_width(cr, 0.5)
        cairo_move_to(cr, Self.margin, y)
        cairo_line_to(cr, width - Self.margin, y)
        cairo_stroke(cr)
    }
}
