import CCairo

extension Bitmap {
    /// This image turned upright per `orientation` and scaled to `width` × `height` (upright size):
    /// Lanczos-3 in the stored orientation, each axis mapped edge to edge, then the pixels moved
    /// upright (exact). Returns self when there is nothing to do (a value: writing to the result
    /// never reaches this one).
    func uprightScaled(orientation: Orientation, width: Int, height: Int) throws(ImageError) -> Bitmap {
        let (storedWidth, storedHeight) = orientation.swapsDimensions ? (height, width) : (width, height)
        guard storedWidth != self.width || storedHeight != self.height else { return try reoriented(orientation) }
        // Resampled straight into place: turning upright costs no pass of its own.
        guard let resampled = LanczosResampler.resample(self, width: storedWidth, height: storedHeight, orientation: orientation) else {
            throw .outOfMemory(width: width, height: height)
        }
        return resampled
    }

    /// This image resampled to `width` × `height` with Lanczos-3 (sharp, no aliasing: for photos).
    public func resampled(width: Int, height: Int) throws(ImageError) -> Bitmap {
        try uprightScaled(orientation: .up, width: max(1, width), height: max(1, height))
    }
}

extension Bitmap {
    /// This image resampled to `width` × `height` with Cairo's GOOD filter: cheaper than
    /// `resampled` and soft enough for previews, which are looked at once and thrown away.
    public func scaled(width: Int, height: Int) throws(ImageError) -> Bitmap {
        let (width, height) = (max(1, width), max(1, height))
        if width == self.width && height == self.height { return self }
        guard var target = Bitmap(width: width, height: height, zeroed: false) else {
            throw .outOfMemory(width: width, height: height)
        }
        withCairoSource { source in
            target.draw { context in
                cairo_scale(context, Double(width) / Double(self.width), Double(height) / Double(self.height))
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
