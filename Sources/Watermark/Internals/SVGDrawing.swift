internal import CCairo

/// Owns one Cairo SVG surface writing into memory: made and checked at creation, destroyed in
/// `deinit`; `draw` paints its one picture and hands over the document's bytes.
final class SVGDrawing {
    /// Where Cairo's stream callback puts the bytes; lives as long as the surface.
    private final class Sink {
        var bytes: [UInt8] = []
    }

    private let sink = Sink()
    private let surface: OpaquePointer

    init(width: Double, height: Double) throws(ReportError) {
        let write: cairo_write_func_t = { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }
        guard let made = cairo_svg_surface_create_for_stream(write, Unmanaged.passUnretained(sink).toOpaque(), width, height) else {
            throw .cairo("no surface")
        }
        let status = cairo_surface_status(made)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(made)
            throw .cairo(String(cString: cairo_status_to_string(status)))
        }
        // Sizes in the document's own units, so the page scales it to any width.
        cairo_svg_surface_set_document_unit(made, CAIRO_SVG_UNIT_USER)
        surface = made
    }

    deinit { cairo_surface_destroy(surface) }

    /// Draws with `body` and ends the document: its bytes.
    func draw(_ body: (OpaquePointer) -> Void) throws(ReportError) -> [UInt8] {
        guard let cr = cairo_create(surface) else { throw .cairo("no drawing context") }
        body(cr)
        let status = cairo_status(cr)
        cairo_destroy(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw .cairo(String(cString: cairo_status_to_string(status))) }
        cairo_surface_finish(surface)
        let finished = cairo_surface_status(surface)
        guard finished == CAIRO_STATUS_SUCCESS else { throw .cairo(String(cString: cairo_status_to_string(finished))) }
        return sink.bytes
    }
}
