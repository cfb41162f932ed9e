import Platform

extension PhotoMetadata {
    /// The metadata of a JPEG file, read from its header without decoding any pixels (to name a
    /// photo before the work on it starts).
    public init(jpeg file: MappedFile) throws(ImageError) {
        self = try file.withUnsafeBytes { (bytes) throws(ImageError) in
            try JPEGDecoder.reading(bytes, limits: JPEGDecoder.Limits()) { (decoder) throws(ImageError) in
                PhotoMetadata(exif: decoder.exif, iccProfile: nil)
            }
        }
    }
}
