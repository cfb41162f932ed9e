extension PhotoMetadata {
    /// The metadata of a JPEG file, read from its header without decoding any pixels (to name a
    /// photo before the work on it starts).
    public init(jpeg data: [UInt8]) throws(ImageError) {
        let decoder = try JPEGDecoder(data: data)
        self.init(exif: decoder.exif, iccProfile: nil)
    }
}
