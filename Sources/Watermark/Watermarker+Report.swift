import Imaging
import Platform

extension Watermarker {
    /// The report as a PDF (A4 portrait): a cover with the company, title and the report's facts;
    /// an index of the photos by number; a location plan when they have positions; the photos
    /// `perPage` to a page, each fitted into its cell with its fields in a table beneath; a closing
    /// page to sign. Every page has the title, the footer line and its number ("Page 2 of 14"); a
    /// photo page names its photos' verification codes. Text is drawn with the private font setup
    /// (the fonts are embedded, CJK included); photos are embedded as the JPEG files they are.
    public func pdf(_ report: PhotoReport) throws(ReportError) -> [UInt8] {
        let document = try PDFDocument(width: PDFDocument.a4.width, height: PDFDocument.a4.height)
        document.setMetadata(title: report.title, author: report.author, subject: report.subject, creator: report.creator,
                             created: report.created)
        let layout = ReportLayout(width: document.width, height: document.height, perPage: report.perPage, context: text.context,
                                  rightToLeft: Language.current.rightToLeft)
        let pages = report.pageCount
        var page = 0
        func next(header: String? = nil, _ body: (OpaquePointer) -> Void) throws(ReportError) {
            page += 1
            try document.page { cr in
                text.prepare(for: cr)
                if page > 1 { layout.drawHeader(cr, title: report.title, right: header) }
                body(cr)
                layout.drawFooter(cr, report: report, page: page, of: pages)
            }
        }
        // One image per photo for the whole document: its thumbnail in the index and its page draw
        // the same surface, so the PDF holds its JPEG once.
        let images = report.items.map { ReportImage(preview: $0.preview, jpeg: $0.jpeg) }
        try next { cr in layout.drawCover(cr, report: report) }
        for start in stride(from: 0, to: report.items.count, by: PhotoReport.indexLinesPerPage) {
            let end = min(report.items.count, start + PhotoReport.indexLinesPerPage)
            try next { cr in layout.drawIndex(cr, report.items[start..<end], images: images[start..<end]) }
        }
        if let plan = report.plan {
            try next { cr in layout.drawPlan(cr, plan) }
        }
        for start in stride(from: 0, to: report.items.count, by: layout.perPage) {
            let end = min(report.items.count, start + layout.perPage)
            let codes = report.items[start..<end].compactMap { item in item.code.map { ReportWords.leftToRight("\(item.number): \($0)") } }
            try next(header: codes.isEmpty ? nil : ReportWords.code + " " + codes.joined(separator: "   ")) { cr in
                for offset in 0..<(end - start) {
                    layout.drawItem(cr, report.items[start + offset], image: images[start + offset],
                                    cell: layout.cell(offset))
                }
            }
        }
        if !report.signers.isEmpty {
            try next { cr in layout.drawSignOff(cr, report.signers) }
        }
        if let checking = report.checking {
            try next { cr in layout.drawChecking(cr, checking) }
        }
        return try document.finish()
    }
}
