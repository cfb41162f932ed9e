import Imaging

extension Watermarker {
    /// The report as a PDF (A4 portrait): a cover with the title and the report's facts, then the
    /// photos `perPage` to a page, each fitted into its cell with its fields in a table beneath;
    /// every page has the title, the footer line and its number ("Page 2 of 14"). Text is drawn
    /// with the private font setup (the fonts are embedded, CJK included); photos are embedded as the
    /// JPEG files they are.
    public func pdf(_ report: PhotoReport) throws(ReportError) -> [UInt8] {
        let document = try PDFDocument(width: PDFDocument.a4.width, height: PDFDocument.a4.height)
        document.setMetadata(title: report.title, creator: report.creator, created: report.created)
        let layout = ReportLayout(width: document.width, height: document.height, perPage: report.perPage, context: text.context)
        let pages = report.pageCount
        try document.page { cr in
            text.prepare(for: cr)
            layout.drawCover(cr, report: report)
            layout.drawFooter(cr, report: report, page: 1, of: pages)
        }
        var index = 0
        var page = 2
        while index < report.items.count {
            let items = report.items[index..<min(report.items.count, index + layout.perPage)]
            try document.page { cr in
                text.prepare(for: cr)
                layout.drawHeader(cr, title: report.title)
                for (offset, item) in items.enumerated() {
                    layout.drawItem(cr, item, cell: layout.cell(offset))
                }
                layout.drawFooter(cr, report: report, page: page, of: pages)
            }
            index += layout.perPage
            page += 1
        }
        return try document.finish()
    }
}
