/// How to load a photo, and what a file may cost before it is refused.
public struct LoadOptions: Sendable {
    /// The long side of the result in pixels; 0 keeps the full size. Never upscales.
    public var maxSize: Int
    /// Photos with more pixels than this are refused before any pixel memory is allocated.
    public var pixelLimit: Int
    /// The most memory one decode may take, in bytes, checked from the header before decoding: the
    /// decoded pixels (at the DCT scale shrink-on-load picks, 4 bytes each) plus either the
    /// upright result or, for a progressive or other multi-scan JPEG, libjpeg's buffer of every
    /// DCT coefficient in the image (128 bytes per 8x8 block of each component, whatever the
    /// scale), whichever is larger.
    ///
    /// The default, 512 MB, holds a 100 MP photo decoded at full size (400 MB of pixels) and a
    /// progressive 4:2:0 photo of 170 MP (3 bytes of coefficients a pixel) shrunk on load. It
    /// refuses what the pixel limit alone lets through: a 2 KB progressive file whose header claims
    /// 14000x14000 pixels in 4:4:4 would take 1.2 GB of coefficients per worker.
    public var memoryLimit: Int
    /// The most scans a JPEG may have. Each scan of a progressive JPEG walks the whole image
    /// again, so a file that repeats scans costs time without limit; libjpeg's own progression has
    /// 10 scans, and encoders that tune it stay within a few dozen. The default follows
    /// libjpeg-turbo's TurboJPEG scan limit. 0 means no limit.
    public var scanLimit: Int
    /// Damaged picture data is an error by default (`ImageError.corruptData`, or `.truncated`).
    /// With `salvage` the photo decodes anyway, grey or garbled where the data is damaged, and
    /// the damage is named in `PhotoMetadata.warnings`.
    public var salvage: Bool

    public static let defaultMemoryLimit = 512_000_000
    public static let defaultScanLimit = 500

    public init(maxSize: Int = 1024, pixelLimit: Int = 200_000_000, memoryLimit: Int = LoadOptions.defaultMemoryLimit,
                scanLimit: Int = LoadOptions.defaultScanLimit, salvage: Bool = false) {
        self.maxSize = maxSize
        self.pixelLimit = pixelLimit
        self.memoryLimit = memoryLimit
        self.scanLimit = scanLimit
        self.salvage = salvage
    }

    /// Refuses a photo file from its first bytes and its size, before it is read whole (see
    /// `FileContents`), with the error decoding it would give: empty, no format stampcam reads (so
    /// a large file that is no photo costs one small read), or more bytes than the memory limit
    /// (they are held while the photo is decoded).
    public func check(head: UnsafeRawBufferPointer, size: Int) throws(ImageError) {
        guard size > 0, !head.isEmpty else { throw .empty }
        guard ImageFormat.sniff(head) != nil else { throw JPEGDecoder.brokenStart(head, size: size) ?? .notJPEG }
        guard size <= memoryLimit else { throw .tooMuchMemory(needed: size, limit: memoryLimit, coefficients: 0) }
    }

    /// The upright size a `width` × `height` image is fitted to.
    public func fittedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        let longSide = max(width, height)
        guard maxSize > 0, longSide > maxSize else { return (width, height) }
        let factor = Double(maxSize) / Double(longSide)
        return (max(1, Int((Double(width) * factor).rounded())), max(1, Int((Double(height) * factor).rounded())))
    }
}
