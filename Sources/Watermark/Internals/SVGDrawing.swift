internal import CCairo

/// One picture as SVG, written into memory (a `CairoStream`), in the document's own units so a
/// page scales it to any width.
final class SVGDrawing {
    private let stream: CairoStream

    init(width: Double, height: Double) throws(ReportError) {
        stream = try CairoStream { write, closure in cairo_svg_surface_create_for_stream(write, closure, width, height) }
        cairo_svg_surface_set_document_unit(stream.surface, CAIRO_SVG_UNIT_USER)
    }

    /// Draws with `body` and ends the document: its bytes.
    func draw(_ body: (OpaquePointer) -> Void) throws(ReportError) -> [UInt8] {
        guard let cr = cairo_create(stream.surface) else { throw .cairo("no drawing context") }
        body(cr)
        let status = cairo_status(cr)
        cairo_destroy(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw .cairo(String(cString: cairo_status_to_string(status))) }
        return try stream.finish()
    }
}
