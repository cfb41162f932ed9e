import CCairo
import CPango

/// Where things go on a report's pages, in points.
struct ReportLayout {
    let width: Double
    let height: Double
    let perPage: Int
    let columns: Int
    let rows: Int
    /// The Pango context every text is laid out in (the Watermarker's, on the private font setup).
    let context: OpaquePointer

    static let margin = 40.0
    static let band = 24.0  // the header's and the footer's height
    static let gap = (x: 16.0, y: 18.0)

    init(width: Double, height: Double, perPage: Int, context: OpaquePointer) {
        self.width = width
        self.context = context
        self.height = height
        self.perPage = PhotoReport.layouts.contains(perPage) ? perPage : 2
        columns = self.perPage == 2 ? 1 : 2
        rows = self.perPage / columns
    }

    /// The size of the text in the photos' tables.
    var tableSize: Double { perPage == 2 ? 9 : 7.5 }

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
        let title = ReportText(context: context, report.title, size: 26, bold: true, width: textWidth, lines: 3)
        title.draw(cr, x: Self.margin, y: 150)
        var y = 150 + title.size.height + 14
        rule(cr, y: y)
        y += 22
        drawTable(cr, report.cover, x: Self.margin, y: y, width: textWidth, size: 12, valueLines: 4, limit: height - 120)
    }

    func drawHeader(_ cr: OpaquePointer, title: String) {
        let text = ReportText(context: context, title, size: 9, bold: true, width: width - 2 * Self.margin, lines: 1)
        text.draw(cr, x: Self.margin, y: Self.margin, grey: 0.25)
        rule(cr, y: Self.margin + Self.band - 8)
    }

    func drawFooter(_ cr: OpaquePointer, report: PhotoReport, page: Int, of pages: Int) {
        let y = height - Self.margin - 10
        rule(cr, y: y - 6)
        let number = ReportText(context: context, "Page \(page) of \(pages)", size: 8)
        let numberWidth = number.size.width
        number.draw(cr, x: width - Self.margin - numberWidth, y: y, grey: 0.3)
        let footer = ReportText(context: context, report.footer, size: 8, width: width - 2 * Self.margin - numberWidth - 12, lines: 1)
        footer.draw(cr, x: Self.margin, y: y, grey: 0.3)
    }

    /// The photo fitted into the top of its cell (centred), its table beneath.
    func drawItem(_ cr: OpaquePointer, _ item: PhotoReport.Item, cell: (x: Double, y: Double, width: Double, height: Double)) {
        let size = tableSize
        let lineHeight = size * 1.3
        // Room for every row on one line, and two more lines for long values.
        let tableHeight = Double(item.rows.count + 2) * lineHeight
        let box = (width: cell.width, height: max(40, cell.height - tableHeight - 6))
        let aspect = Double(item.pixelWidth) / Double(item.pixelHeight)
        let drawn = aspect > box.width / box.height ? (width: box.width, height: box.width / aspect)
                                                     : (width: box.height * aspect, height: box.height)
        let x = cell.x + (cell.width - drawn.width) / 2
        if let image = ReportImage(preview: item.preview, jpeg: item.jpeg) {
            cairo_save(cr)
            cairo_rectangle(cr, x, cell.y, drawn.width, drawn.height)
            cairo_clip(cr)
            cairo_translate(cr, x, cell.y)
            cairo_scale(cr, drawn.width / image.width, drawn.height / image.height)
            cairo_set_source_surface(cr, image.surface, 0, 0)
            cairo_paint(cr)
            cairo_restore(cr)
        }
        cairo_set_source_rgb(cr, 0.6, 0.6, 0.6)
        cairo_set_line_width(cr, 0.5)
        cairo_rectangle(cr, x, cell.y, drawn.width, drawn.height)
        cairo_stroke(cr)
        drawTable(cr, item.rows, x: cell.x, y: cell.y + drawn.height + 6, width: cell.width, size: size, valueLines: 2,
                  limit: cell.y + cell.height)
    }

    /// Label and value rows from `y`; a value wraps to `valueLines` lines. Rows that would pass
    /// `limit` are left out. Returns the y below the last row.
    @discardableResult
    func drawTable(_ cr: OpaquePointer, _ rows: [PhotoReport.Row], x: Double, y: Double, width: Double, size: Double,
                   valueLines: Int, limit: Double) -> Double {
        let labelWidth = min(90, width * 0.24)
        var top = y
        for row in rows {
            let label = ReportText(context: context, row.label, size: size, bold: true, width: labelWidth - 6, lines: 1)
            let value = ReportText(context: context, row.value.isEmpty ? "—" : row.value, size: size, width: width - labelWidth,
                                   lines: valueLines)
            let height = max(label.size.height, value.size.height)
            guard top + height <= limit else { break }
            label.draw(cr, x: x, y: top, grey: 0.35)
            value.draw(cr, x: x + labelWidth, y: top)
            top += height + size * 0.25
        }
        return top
    }

    func rule(_ cr: OpaquePointer, y: Double) {
        cairo_set_source_rgb(cr, 0.75, 0.75, 0.75)
        cairo_set_line_width(cr, 0.5)
        cairo_move_to(cr, Self.margin, y)
        cairo_line_to(cr, width - Self.margin, y)
        cairo_stroke(cr)
    }
}
