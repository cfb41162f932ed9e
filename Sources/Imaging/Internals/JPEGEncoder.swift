import CJPEG

enum JPEGEncoder {
    /// The most an APP1 payload can hold: a segment's length field counts itself (2 bytes) and
    /// cannot pass 65535.
    static let maximumAPP1Payload = 65533
    /// libjpeg numbers ICC segments in one byte: 255 segments of 65519 bytes.
    static let maximumICCProfile = 255 * 65519

    /// Encodes `bitmap` with optimised Huffman tables (written at the end) unless not `optimize`
    /// (then data goes out row by row), baseline unless `progressive`. `failAfterRows` is for
    /// tests: the encoder fails as libjpeg does, after that many rows.
    static func encode(_ bitmap: Bitmap, quality: Int, subsampling: ChromaSubsampling, exif: [UInt8]?, xmp: [UInt8]? = nil, icc: [UInt8]?,
                       optimize: Bool = true, progressive: Bool = false, failAfterRows: Int = 0) throws(ImageError) -> [UInt8] {
        var outcome = sc_outcome()
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let exifBytes = exif ?? []
        let xmpBytes = xmp ?? []
        let iccBytes = icc ?? []
        let status = exifBytes.withUnsafeBufferPointer { exifBuffer in
          xmpBytes.withUnsafeBufferPointer { xmpBuffer in
            iccBytes.withUnsafeBufferPointer { iccBuffer in
                let options = sc_encode_options(
                    quality: Int32(min(max(quality, 1), 100)),
                    subsampling: Int32(subsampling.rawValue),
                    optimize: optimize ? 1 : 0,
                    progressive: progressive ? 1 : 0,
                    exif: exif == nil ? nil : exifBuffer.baseAddress, exifLength: exifBuffer.count,
                    xmp: xmpBuffer.isEmpty ? nil : xmpBuffer.baseAddress, xmpLength: xmpBuffer.count,
                    icc: iccBuffer.isEmpty ? nil : iccBuffer.baseAddress, iccLength: iccBuffer.count,
                    failAfterRows: Int32(clamping: failAfterRows))
                return bitmap.withUnsafeBytes { pixels in
                    sc_encode(pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(clamping: bitmap.width),
                              Int32(clamping: bitmap.height), bitmap.stride, options, &output, &length, &outcome)
                }
            }
          }
        }
        guard status == 0, let output else { throw .encodeFailed(JPEGDecoder.text(of: outcome.message)) }
        defer { sc_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: length))
    }
}
