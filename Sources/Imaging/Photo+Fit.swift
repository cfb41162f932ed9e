extension Photo {
    /// Fits the photo's long side to `maxSize` pixels (never upscaling; 0 keeps the size), as
    /// loading with `LoadOptions.maxSize` does: a camera's still gets the size an `apply` would give.
    public mutating func fit(maxSize: Int) throws(ImageError) {
        let target = LoadOptions(maxSize: maxSize).fittedSize(width: width, height: height)
        guard target != (width, height) else { return }
        bitmap = try bitmap.resampled(width: target.width, height: target.height)
    }
}
