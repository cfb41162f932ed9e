import CExif

#if canImport(Glibc)
import Glibc
#endif

/// Small reads and writes of a libexif `ExifData` that both the reader (`ExifBlock`) and the
/// writer (`ExifBuilder`) need.
enum ExifDataAccess {
    /// One IFD's content (the `ifd` array is imported as a tuple).
    static func content(_ data: UnsafeMutablePointer<ExifData>, _ ifd: ExifIfd) -> UnsafeMutablePointer<ExifContent>? {
        withUnsafeBytes(of: data.pointee.ifd) {
            $0.load(fromByteOffset: Int(ifd.rawValue) * MemoryLayout<UnsafeMutablePointer<ExifContent>?>.stride,
                    as: UnsafeMutablePointer<ExifContent>?.self)
        }
    }

    /// The data serialised as an APP1 payload ("Exif\0\0" + TIFF).
    static func payload(_ data: UnsafeMutablePointer<ExifData>) -> [UInt8]? {
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt32 = 0
        exif_data_save_data(data, &buffer, &size)
        guard let buffer, size > 0 else { return nil }
        defer { free(buffer) }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }
}
