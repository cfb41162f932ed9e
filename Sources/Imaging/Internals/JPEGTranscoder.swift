import CJPEG

/// Owns one libjpeg transcoder (`sc_transcoder`) and the copy of the compressed bytes it reads
/// from for its whole life.
final class JPEGTranscoder {
    struct Info {
        let width: Int
        let height: Int
        let mcuHeight: Int
        let mcuWidth: Int
        let coefficientBytes: Int
    }

    let info: Info
    private let handle: OpaquePointer
    private let copy: UnsafeMutableRawBufferPointer
    /// The compressed bytes read from (the copy, its exact length).
    var compressed: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(copy)[..<byteCount]) }
    private let byteCount: Int

    init(_ bytes: UnsafeRawBufferPointer, limits: JPEGDecoder.Limits) throws(ImageError) {
        copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
        copy.copyMemory(from: bytes)
        byteCount = bytes.count
        var outcome = sc_outcome()
        let c = sc_decode_limits(salvage: 0, maxScans: Int32(clamping: limits.scanLimit), maxMemory: limits.memoryLimit)
        guard let handle = sc_transcoder_create(copy.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, c, &outcome) else {
            copy.deallocate()
            throw JPEGDecoder.error(outcome, header: nil)
        }
        self.handle = handle
        let info = sc_transcoder_get_info(handle)
        self.info = Info(width: Int(info.width), height: Int(info.height), mcuHeight: Int(info.mcuHeight), mcuWidth: Int(info.mcuWidth),
                         coefficientBytes: Int(clamping: info.coefficientBytes))
    }

    deinit {
        sc_transcoder_destroy(handle)
        copy.deallocate()
    }

    func decode(rows: Range<Int>, columns: Range<Int>) throws(ImageError) -> Bitmap {
        guard var bitmap = Bitmap(width: columns.count, height: rows.count, zeroed: false) else {
            throw .outOfMemory(width: columns.count, height: rows.count)
        }
        var outcome = sc_outcome()
        let stride = bitmap.stride
        let status = bitmap.withUnsafeMutableBytes { pixels in
            sc_transcoder_decode_region(handle, Self.region(rows: rows, columns: columns),
                                        pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), stride, pixels.count, &outcome)
        }
        guard status == 0 else { throw JPEGDecoder.error(outcome, header: nil) }
        return bitmap
    }

    func replace(rows: Range<Int>, columns: Range<Int>, with bitmap: Bitmap) throws(ImageError) {
        var outcome = sc_outcome()
        let status = bitmap.withUnsafeBytes { pixels in
            sc_transcoder_replace_region(handle, Self.region(rows: rows, columns: columns),
                                         pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), bitmap.stride, pixels.count, &outcome)
        }
        guard status == 0 else { throw .encodeFailed(JPEGDecoder.text(of: outcome.message)) }
    }

    private static func region(rows: Range<Int>, columns: Range<Int>) -> sc_region {
        sc_region(left: Int32(clamping: columns.lowerBound), top: Int32(clamping: rows.lowerBound),
                  width: Int32(clamping: columns.count), height: Int32(clamping: rows.count))
    }

    func write(exif: [UInt8]?, xmp: [UInt8]?, icc: [UInt8]?, optimize: Bool) throws(ImageError) -> [UInt8] {
        var outcome = sc_outcome()
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let exifBytes = exif ?? [], xmpBytes = xmp ?? [], iccBytes = icc ?? []
        let status = exifBytes.withUnsafeBufferPointer { exifBuffer in
            xmpBytes.withUnsafeBufferPointer { xmpBuffer in
                iccBytes.withUnsafeBufferPointer { iccBuffer in
                    let options = sc_encode_options(
                        quality: 0, subsampling: 0, optimize: optimize ? 1 : 0, progressive: 0,
                        exif: exif == nil ? nil : exifBuffer.baseAddress, exifLength: exifBuffer.count,
                        xmp: xmpBuffer.isEmpty ? nil : xmpBuffer.baseAddress, xmpLength: xmpBuffer.count,
                        icc: iccBuffer.isEmpty ? nil : iccBuffer.baseAddress, iccLength: iccBuffer.count,
                        failAfterRows: 0)
                    return sc_transcoder_write(handle, options, &output, &length, &outcome)
                }
            }
        }
        guard status == 0, let output else { throw .encodeFailed(JPEGDecoder.text(of: outcome.message)) }
        defer { sc_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: length))
    }
}
