/// An upright photo ready to stamp: pixels plus the metadata that goes back out with them. A value:
/// a copy stamped differently never changes the original (see `Bitmap`).
public struct Photo: Sendable {
    public var bitmap: Bitmap
    public var metadata: PhotoMetadata
    /// Pixel size stored in the source file, before orientation and scaling.
    public let sourceWidth: Int
    public let sourceHeight: Int
    /// The DCT scale the decoder used, in eighths of full size (8: full size): shrink-on-load at work.
    public let decodeEighths: Int
    /// The kind of file it was read from (a camera's frame and a drawn picture count as JPEG).
    public internal(set) var format: ImageFormat = .jpeg

    public init(bitmap: Bitmap, metadata: PhotoMetadata = PhotoMetadata()) {
        self.bitmap = bitmap
        self.metadata = metadata
        sourceWidth = bitmap.width
        sourceHeight = bitmap.height
        decodeEighths = 8
    }

    init(bitmap: Bitmap, metadata: PhotoMetadata, sourceWidth: Int, sourceHeight: Int, decodeEighths: Int) {
        self.bitmap = bitmap
        self.metadata = metadata
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.decodeEighths = decodeEighths
    }

    public var width: Int { bitmap.width }
    public var height: Int { bitmap.height }
}
