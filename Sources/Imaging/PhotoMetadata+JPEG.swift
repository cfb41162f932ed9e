import Platform

extension PhotoMetadata {
    /// The metadata of a JPEG file, read from its header without decoding any pixels (to name a
    /// photo before the work on it starts).
    public init(jpeg file: FileContents) throws(ImageError) {
        self = try file.withUnsafeBytes { (bytes) throws(ImageError) in
            try JPEGDecoder.reading(bytes, limits: JPEGDecoder.Limits()) { (decoder) throws(ImageError) in
                var metadata = PhotoMetadata(exif: decoder.exif, iccProfile: nil)
                metadata.xmp = decoder.xmp
                return metadata
            }
        }
    }
}

extension Photo {
    /// The pixel size stored in a JPEG file (before any orientation turn), from its header alone.
    public static func storedSize(jpeg file: FileContents) throws(ImageError) -> (width: Int, height: Int) {
        try file.withUnsafeBytes { (bytes) throws(ImageError) in
            try JPEGDecoder.reading(bytes, limits: JPEGDecoder.Limits()) { (decoder) throws(ImageError) in
                (decoder.header.width, decoder.header.height)
            }
        }
    }
}
