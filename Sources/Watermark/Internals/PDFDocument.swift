internal import CCairo

/// A PDF written into memory (a `CairoStream`): pages are drawn with `page`; `finish` ends the
/// document and hands over its bytes.
final class PDFDocument {
    private let stream: CairoStream
    private var surface: OpaquePointer { stream.surface }
    let width: Double
    let height: Double

    /// A4 portrait, in points.
    static let a4 = (width: 595.276, height: 841.89)

    init(width: Double, height: Double) throws(ReportError) {
        self.width = width
        self.height = height
        stream = try CairoStream { write, closure in cairo_pdf_surface_create_for_stream(write, closure, width, height) }
    }

    /// The document's title, author, subject, creator and creation date (`2026-11-29T18:03:00+08:00`).
    func setMetadata(title: String, author: String, subject: String, creator: String, created: String?) {
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title)
        if !author.isEmpty { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_AUTHOR, author) }
        if !subject.isEmpty { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_SUBJECT, subject) }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, creator)
        if let created { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, created) }
    }

    /// Draws one page with a context of its own, then ends the page.
    func page(_ body: (OpaquePointer) -> Void) throws(ReportError) {
        guard let cr = cairo_create(surface) else { throw .cairo("no drawing context") }
        defer { cairo_destroy(cr) }
        body(cr)
        cairo_show_page(cr)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw .cairo(String(cString: cairo_status_to_string(status))) }
    }

    /// Ends the document: its bytes.
    func finish() throws(ReportError) -> [UInt8] { try stream.finish() }
}
