/// An upright photo ready to stamp: pixels plus the metadata that goes back out with them. A value:
/// a copy stamped differently never changes the original (see `Bitmap`).
public struct Photo: Sendable {
    public var bitmap: Bitmap
    public var metadata: PhotoMetadata
    /// Pixel size stored in the source file, before orientation and scaling.
    public let sourceWidth: Int
    public let sourceHeight: Int
    /// The DCT scale denominator the decoder used (1, 2, 4 or 8): shrink-on-load at work.
    public let decodeDenominator: Int

    public init(bitmap: Bitmap, metadata: PhotoMetadata = PhotoMetadata()) {
        self.bitmap = bitmap
        self.metadata = metadata
        sourceWidth = bitmap.width
        sourceHeight = bitmap.height
        decodeDenominator = 1
    }

    init(bitmap: Bitmap, metadata: PhotoMetadata, sourceWidth: Int, sourceHeight: Int, decodeDenominator: Int) {
        self.bitmap = bitmap
        self.metadata = metadata
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.decodeDenominator = decodeDenominator
    }

    public var width: Int { bitmap.width }
    public var height: Int { bitmap.height }
}

/// How to load a photo.
public struct LoadOptions: Sendable {
    /// The long side of the result in pixels; 0 keeps the full size. Never upscales.
    public var maxSize: Int
    /// Photos with more pixels than this are refused before any pixel memory is allocated.
    public var pixelLimit: Int

    public init(maxSize: Int = 1024, pixelLimit: Int = 200_000_000) {
        self.maxSize = maxSize
        self.pixelLimit = pixelLimit
    }

    /// The upright size a `width` × `height` image is fitted to.
    func fittedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        let longSide = max(width, height)
        guard maxSize > 0, longSide > maxSize else { return (width, height) }
        let factor = Double(maxSize) / Double(longSide)
        return (max(1, Int((Double(width) * factor).rounded())), max(1, Int((Double(height) * factor).rounded())))
    }
}

extension Photo {
    /// Decodes a JPEG, turns it upright and fits it to `options.maxSize`, shrinking in the DCT domain
    /// first so a 22 MP photo is never decoded at full size for a 1024 px result.
    public init(jpeg data: [UInt8], options: LoadOptions = LoadOptions()) throws(ImageError) {
        let decoder = try JPEGDecoder(data: data)
        let width = Int(decoder.header.width), height = Int(decoder.header.height)
        guard width * height <= options.pixelLimit else {
            throw .tooManyPixels(width: width, height: height, limit: options.pixelLimit)
        }
        let metadata = PhotoMetadata(exif: decoder.exif, iccProfile: decoder.iccProfile)
        let orientation = metadata.orientation
        let upright = orientation.swapsDimensions ? (width: height, height: width) : (width: width, height: height)
        let target = options.fittedSize(width: upright.width, height: upright.height)

        // The largest shrink whose result still covers the target, so resampling only ever shrinks.
        let targetStored = orientation.swapsDimensions ? (target.height, target.width) : (target.width, target.height)
        var denominator = 1
        for candidate in [8, 4, 2] {
            let size = decoder.scaledSize(denominator: candidate)
            if size.width >= targetStored.0 && size.height >= targetStored.1 {
                denominator = candidate
                break
            }
        }
        let decoded = try decoder.decode(denominator: denominator)
        let bitmap = try decoded.uprightScaled(orientation: orientation, width: target.width, height: target.height)
        self.init(bitmap: bitmap, metadata: metadata, sourceWidth: width, sourceHeight: height,
                  decodeDenominator: denominator)
    }

    /// Encodes as JPEG with the source's EXIF (upright, new size, no stale thumbnail) and ICC profile.
    public func jpeg(quality: Int = 90, subsampling: ChromaSubsampling = .s420) throws(ImageError) -> [UInt8] {
        try JPEGEncoder.encode(bitmap, quality: quality, subsampling: subsampling,
                               exif: outputExif(), icc: metadata.iccProfile)
    }

    /// The EXIF to write: the source's, rewritten for this photo. A block that cannot fit in one
    /// APP1 marker loses its maker note first, then is dropped.
    private func outputExif() -> [UInt8]? {
        guard let source = metadata.exif, let block = ExifBlock(payload: source) else { return nil }
        block.prepareForOutput(width: width, height: height)
        let maximumAPP1Payload = 65533
        if let payload = block.payload(), payload.count <= maximumAPP1Payload { return payload }
        block.remove(.makerNote)
        if let payload = block.payload(), payload.count <= maximumAPP1Payload { return payload }
        return nil
    }
}
