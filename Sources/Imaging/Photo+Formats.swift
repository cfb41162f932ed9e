import Platform

extension Photo {
    /// Decodes a photo file of any format stampcam reads — JPEG, HEIC/HEIF or PNG — told by its
    /// first bytes, not its name; turned upright and fitted like `init(jpeg:options:)`.
    public init(file: FileContents, options: LoadOptions = LoadOptions()) throws(ImageError) {
        self = try file.withUnsafeBytes { (bytes) throws(ImageError) in try Photo(bytes: bytes, options: options) }
    }

    /// Decodes lent bytes of any format stampcam reads.
    public init(bytes: UnsafeRawBufferPointer, options: LoadOptions = LoadOptions()) throws(ImageError) {
        switch ImageFormat.sniff(bytes) {
        case .heif?: self = try Photo(heif: bytes, options: options)
        case .png?: self = try Photo(png: bytes, options: options)
        case .jpeg?, nil: self = try Photo(jpeg: bytes, options: options)
        }
    }

    /// Decodes a HEIC/HEIF image with libheif: upright as its transforms say, its EXIF and ICC
    /// profile kept (the EXIF orientation is not applied again), fitted to `options.maxSize`.
    public init(heif bytes: UnsafeRawBufferPointer, options: LoadOptions = LoadOptions()) throws(ImageError) {
        self = try HEIFFile.reading(bytes) { (file) throws(ImageError) in
            let (width, height) = file.size
            guard width * height <= options.pixelLimit else {
                throw .tooManyPixels(width: width, height: height, limit: options.pixelLimit)
            }
            let target = options.fittedSize(width: width, height: height)
            // The decoded RGB image and its RGB24 copy, then the fitted result.
            let needed = width * height * 7 + (target == (width, height) ? 0 : target.width * target.height * 4)
            guard needed <= options.memoryLimit else { throw .tooMuchMemory(needed: needed, limit: options.memoryLimit, coefficients: 0) }
            var metadata = PhotoMetadata(exif: file.exif, iccProfile: file.iccProfile)
            // libheif has turned the pixels already: the EXIF orientation describes the stored image.
            metadata.orientation = .up
            var bitmap = try file.decode()
            if (bitmap.width, bitmap.height) != target { bitmap = try bitmap.resampled(width: target.width, height: target.height) }
            var photo = Photo(bitmap: bitmap, metadata: metadata, sourceWidth: width, sourceHeight: height, decodeEighths: 8)
            photo.format = .heif
            return photo
        }
    }

    /// Decodes a PNG with libpng (transparency shown over black) as a JPEG is: its EXIF (the eXIf
    /// chunk) read and its orientation applied, its ICC profile kept; fitted to `options.maxSize`.
    public init(png bytes: UnsafeRawBufferPointer, options: LoadOptions = LoadOptions()) throws(ImageError) {
        guard let (width, height) = PNGReader.size(bytes) else { throw .corruptFile(.png, "no image header (IHDR chunk)") }
        guard width * height <= options.pixelLimit else { throw .tooManyPixels(width: width, height: height, limit: options.pixelLimit) }
        // The decoded surface, the flattened copy, and a turned copy when the EXIF orientation asks.
        let needed = width * height * 12
        guard needed <= options.memoryLimit else { throw .tooMuchMemory(needed: needed, limit: options.memoryLimit, coefficients: 0) }
        let decoded = try PNGReader.decode(bytes, salvage: options.salvage)
        var metadata = PhotoMetadata(exif: decoded.exif, iccProfile: decoded.iccProfile)
        metadata.warnings += decoded.warnings
        var bitmap = try decoded.surface.flattened().reoriented(metadata.orientation)
        let target = options.fittedSize(width: bitmap.width, height: bitmap.height)
        if (bitmap.width, bitmap.height) != target { bitmap = try bitmap.resampled(width: target.width, height: target.height) }
        self.init(bitmap: bitmap, metadata: metadata, sourceWidth: width, sourceHeight: height, decodeEighths: 8)
        format = .png
    }

    /// `stored` (the pixels as the file stores them) as a HEIC file whose irot/imir boxes turn it
    /// the way EXIF `orientation` would, with `exif`: for making test photos.
    package static func heic(stored: Bitmap, orientation: Orientation = .up, exif: [UInt8]? = nil, quality: Int = 90) throws -> [UInt8] {
        guard let bytes = HEIFFile.encode(stored, quality: quality, orientation: orientation, exif: exif) else {
            throw ImageError.encodeFailed("HEIF encoding failed")
        }
        return bytes
    }
}

extension PhotoMetadata {
    /// The metadata of a photo file of any format, read without decoding pixels.
    public init(file: FileContents) throws(ImageError) {
        self = try file.withUnsafeBytes { (bytes) throws(ImageError) -> PhotoMetadata in
            switch ImageFormat.sniff(bytes) {
            case .heif?:
                return try HEIFFile.reading(bytes) { (file) throws(ImageError) in
                    var metadata = PhotoMetadata(exif: file.exif, iccProfile: nil)
                    metadata.orientation = .up
                    return metadata
                }
            case .png?:
                let (exif, icc) = try PNGReader.metadata(bytes)
                return PhotoMetadata(exif: exif, iccProfile: icc)
            case .jpeg?, nil:
                return try JPEGDecoder.reading(bytes, limits: JPEGDecoder.Limits()) { (decoder) throws(ImageError) in
                    PhotoMetadata(exif: decoder.exif, iccProfile: nil)
                }
            }
        }
    }
}
