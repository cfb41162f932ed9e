/// A JPEG file's bytes, and what could not go into them.
public struct EncodedJPEG: Sendable {
    public var bytes: [UInt8]
    /// Metadata left out of the file, each named with its size and why (for example a maker note
    /// dropped so the EXIF block fits its 64 KB segment). Empty when everything went in.
    public var warnings: [String]
}
