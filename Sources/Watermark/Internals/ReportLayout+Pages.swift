internal import CCairo

extension ReportLayout {
    /// A page's heading under the header; returns the y below it.
    @discardableResult
    func drawHeading(_ cr: OpaquePointer, _ heading: String, note: String? = nil) -> Double {
        var y = Self.margin + Self.band + 4
        let text = pageText(heading, size: 16, bold: true, width: width - 2 * Self.margin, lines: 1)
        draw(text, cr, x: Self.margin, y: y)
        y += text.size.height + 4
        if let note {
            let line = pageText(note, size: 9, width: width - 2 * Self.margin, lines: 2)
            draw(line, cr, x: Self.margin, y: y, grey: 0.35)
            y += line.size.height + 4
        }
        return y + 6
    }

    /// The index: a line per photo with its number, thumbnail, time, who, where and note.
    func drawIndex(_ cr: OpaquePointer, _ items: ArraySlice<PhotoReport.Item>, images: ArraySlice<ReportImage?>) {
        let top = drawHeading(cr, ReportWords.index)
        let size = 8.0
        // Columns: number, thumbnail, time, who, where, and the note in what is left.
        let widths = [26.0, 60, 124, 80, 104]
        let noteWidth = width - 2 * Self.margin - widths.reduce(0, +)
        let lefts = widths.indices.map { Self.margin + widths[..<$0].reduce(0, +) }
        let noteLeft = Self.margin + widths.reduce(0, +)
        let titles = [ReportWords.number, "", ReportWords.time, ReportWords.who, ReportWords.place]
        for (column, title) in titles.enumerated() where !title.isEmpty {
            draw(pageText(title, size: size, bold: true, width: widths[column] - 6, lines: 1), cr, x: lefts[column], y: top, grey: 0.35)
        }
        draw(pageText(ReportWords.note, size: size, bold: true, width: noteWidth, lines: 1), cr, x: noteLeft, y: top, grey: 0.35)
        let first = top + size * 1.6
        rule(cr, y: first - 3)
        let bottom = height - Self.margin - Self.band
        let lineHeight = (bottom - first) / Double(PhotoReport.indexLinesPerPage)
        for (offset, (item, image)) in zip(items, images).enumerated() {
            let y = first + Double(offset) * lineHeight + 3
            let lines = max(1, Int((lineHeight - 6) / (size * 1.25)))
            drawBadge(cr, String(item.number), x: lefts[0], y: y, size: size + 1, mirrored: true)
            // The thumbnail is the photo itself, drawn small: the PDF holds its JPEG once.
            let box = (width: widths[1] - 8, height: lineHeight - 6)
            let aspect = Double(item.pixelWidth) / Double(item.pixelHeight)
            let drawn = aspect > box.width / box.height ? (width: box.width, height: box.width / aspect)
                                                         : (width: box.height * aspect, height: box.height)
            if let image { drawImage(cr, image, x: lefts[1], y: y, width: drawn.width, height: drawn.height) }
            let cells = [item.summary.time, item.summary.who, item.summary.place]
            for (column, value) in cells.enumerated() {
                draw(pageText(value.isEmpty ? "—" : value, size: size, width: widths[column + 2] - 8, lines: lines), cr, x: lefts[column + 2], y: y)
            }
            draw(pageText(item.summary.note, size: size, width: noteWidth, lines: lines), cr, x: noteLeft, y: y)
            rule(cr, y: first + Double(offset + 1) * lineHeight, grey: 0.88)
        }
    }

    /// The closing page: a block per signer with name, role, and lines for the date and signature.
    func drawSignOff(_ cr: OpaquePointer, _ signers: [PhotoReport.Signer]) {
        var y = drawHeading(cr, ReportWords.signOff, note: ReportWords.signOffNote) + 12
        let columnWidth = (width - 2 * Self.margin - 24) / 2
        for signer in signers {
            let name = pageText(signer.name, size: 12, bold: true, width: width - 2 * Self.margin, lines: 1)
            guard y + 110 <= height - Self.margin - Self.band else { break }
            draw(name, cr, x: Self.margin, y: y)
            y += name.size.height
            draw(pageText(signer.role.isEmpty ? " " : signer.role, size: 10, width: width - 2 * Self.margin, lines: 1), cr,
                 x: Self.margin, y: y, grey: 0.3)
            y += 46
            for (column, label) in [ReportWords.signature, ReportWords.date].enumerated() {
                let x = Self.margin + Double(column) * (columnWidth + 24)
                cairo_set_source_rgb(cr, 0, 0, 0)
                cairo_set_line_width(cr, 0.7)
                cairo_move_to(cr, mirrored(x, width: columnWidth), y)
                cairo_line_to(cr, mirrored(x, width: columnWidth) + columnWidth, y)
                cairo_stroke(cr)
                draw(pageText(label, size: 8), cr, x: x, y: y + 3, grey: 0.35)
            }
            y += 40
        }
    }
}
