internal import CCairo

/// Owns one Cairo surface that writes its document (a PDF, an SVG) into memory: made and checked at
/// creation, destroyed in `deinit`; `finish` ends the document and hands over its bytes.
final class CairoStream {
    /// Where Cairo's stream callback puts the bytes; lives as long as the surface.
    private final class Sink {
        var bytes: [UInt8] = []
    }

    private let sink = Sink()
    let surface: OpaquePointer

    /// `make` creates the surface with the callback and closure it is given.
    init(_ make: (cairo_write_func_t, UnsafeMutableRawPointer) -> OpaquePointer?) throws(ReportError) {
        let write: cairo_write_func_t = { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }
        guard let made = make(write, Unmanaged.passUnretained(sink).toOpaque()) else { throw .cairo("no surface") }
        let status = cairo_surface_status(made)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(made)
            throw .cairo(String(cString: cairo_status_to_string(status)))
        }
        surface = made
    }

    deinit { cairo_surface_destroy(surface) }

    /// Ends the document: its bytes.
    func finish() throws(ReportError) -> [UInt8] {
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw .cairo(String(cString: cairo_status_to_string(status))) }
        return sink.bytes
    }
}
