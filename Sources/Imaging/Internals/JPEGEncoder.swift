import CJPEG

enum JPEGEncoder {
    static func encode(_ bitmap: Bitmap, quality: Int, subsampling: ChromaSubsampling,
                       exif: [UInt8]?, icc: [UInt8]?) throws(ImageError) -> [UInt8] {
        var message = ErrorBuffer()
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let exifBytes = exif ?? []
        let iccBytes = icc ?? []
        let status = exifBytes.withUnsafeBufferPointer { exifBuffer in
            iccBytes.withUnsafeBufferPointer { iccBuffer in
                let options = sc_encode_options(
                    quality: Int32(min(max(quality, 1), 100)),
                    subsampling: Int32(subsampling.rawValue),
                    optimize: 1,
                    exif: exif == nil ? nil : exifBuffer.baseAddress, exifLength: exifBuffer.count,
                    icc: icc == nil ? nil : iccBuffer.baseAddress, iccLength: iccBuffer.count)
                return bitmap.withUnsafeBytes { pixels in
                    message.withPointer {
                        sc_encode(pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(bitmap.width),
                                  Int32(bitmap.height), bitmap.stride, options, &output, &length, $0)
                    }
                }
            }
        }
        guard status == 0, let output else { throw .encodeFailed(message.text) }
        defer { sc_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: length))
    }
}
