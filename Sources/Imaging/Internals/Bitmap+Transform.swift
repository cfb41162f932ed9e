import CCairo

extension Bitmap {
    /// This image turned upright per `orientation` and scaled to `width` × `height` (upright size)
    /// in one resampling pass. Returns self when there is nothing to do (a value: writing to the
    /// result never reaches this one).
    func uprightScaled(orientation: Orientation, width: Int, height: Int) throws(ImageError) -> Bitmap {
        if orientation == .up && width == self.width && height == self.height { return self }
        guard var target = Bitmap(width: width, height: height, zeroed: false) else {
            throw .outOfMemory(width: width, height: height)
        }
        let uprightWidth = Double(orientation.swapsDimensions ? self.height : self.width)
        let uprightHeight = Double(orientation.swapsDimensions ? self.width : self.height)
        let t = orientation.transform(width: Double(self.width), height: Double(self.height))
        withCairoSource { source in
            target.draw { context in
                cairo_scale(context, Double(width) / uprightWidth, Double(height) / uprightHeight)
                var matrix = cairo_matrix_t(xx: t.xx, yx: t.yx, xy: t.xy, yy: t.yy, x0: t.x0, y0: t.y0)
                cairo_transform(context, &matrix)
                cairo_set_source_surface(context, source, 0, 0)
                let pattern = cairo_get_source(context)
                // GOOD is a proper area filter when shrinking; PAD keeps the borders from fading to black.
                cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
                cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
                cairo_set_operator(context, CAIRO_OPERATOR_SOURCE)
                cairo_paint(context)
            }
        }
        return target
    }
}

extension Bitmap {
    /// This image resampled to `width` × `height` with Cairo's GOOD filter (for previews).
    public func scaled(width: Int, height: Int) throws(ImageError) -> Bitmap {
        try uprightScaled(orientation: .up, width: max(1, width), height: max(1, height))
    }
}
