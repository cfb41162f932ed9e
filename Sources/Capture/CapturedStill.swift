import Imaging

/// One photo taken by a `Camera`: upright pixels with the capture's EXIF, ready to stamp, plus
/// what is known about the capture.
public struct CapturedStill: Sendable {
    /// The photo, rotated and zoom-cropped; its metadata carries the capture's EXIF (time with
    /// zone, camera, size, settings).
    public let photo: Photo
    public let metadata: CaptureMetadata
    /// The camera's own JPEG frame (Huffman tables restored) when it sent JPEG and nothing had
    /// to be cropped or turned; nil otherwise.
    public let cameraJPEG: [UInt8]?

    public init(photo: Photo, metadata: CaptureMetadata, cameraJPEG: [UInt8]?) {
        self.photo = photo
        self.metadata = metadata
        self.cameraJPEG = cameraJPEG
    }

    /// The unstamped photo as a JPEG file with EXIF: the camera's own bytes when it sent JPEG
    /// (no re-encode), else encoded at `quality` (with Huffman tables made for it when `optimize`).
    public func jpeg(quality: Int = 92, optimize: Bool = true) throws(ImageError) -> [UInt8] {
        if let cameraFile { return cameraFile }
        return try photo.jpeg(quality: quality, optimize: optimize)
    }

    /// The camera's own JPEG frame with the capture's EXIF; nil when the camera sent no JPEG (or
    /// it had to be cropped or turned).
    public var cameraFile: [UInt8]? {
        guard let cameraJPEG, let exif = photo.metadata.exif, exif.count + 2 <= 0xFFFF else { return nil }
        // An APP1 segment right after SOI: where EXIF readers look first.
        let length = exif.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + exif + cameraJPEG.dropFirst(2)
    }
}
