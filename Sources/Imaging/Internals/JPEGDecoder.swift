import CJPEG
import Values

/// Owns one libjpeg decompressor. libjpeg keeps a pointer to the compressed bytes for the
/// decompressor's whole life, so those bytes have one owner that outlives it: either a copy the
/// decoder makes and frees itself (`init(data:)`), or the caller's memory lent for the length of
/// `reading(_:limits:_:)`, whose body only borrows the decoder and cannot keep it.
struct JPEGDecoder: ~Copyable {
    /// What a decode may cost; see `LoadOptions`.
    struct Limits {
        var salvage = false
        var scanLimit = LoadOptions.defaultScanLimit
        /// libjpeg's own allocations, its coefficient buffer above all: a backstop behind the
        /// estimate `Photo` checks before decoding.
        var memoryLimit = LoadOptions.defaultMemoryLimit

        /// Room above `LoadOptions.memoryLimit` for libjpeg's small buffers, so the backstop never
        /// trips on a file the estimate let through.
        static let backstopMargin = 16_000_000

        init() {}

        init(_ options: LoadOptions) {
            salvage = options.salvage
            scanLimit = options.scanLimit
            let (limit, overflow) = options.memoryLimit.addingReportingOverflow(Self.backstopMargin)
            memoryLimit = overflow ? Int.max : limit
        }
    }

    /// What the header says, read before any pixel memory is allocated.
    struct Header {
        let width: Int
        let height: Int
        let progressive: Bool
        /// Bytes of libjpeg's whole-image coefficient buffer (multi-scan files only; else 0).
        let coefficientBytes: Int
        /// Bytes of every coefficient of the image held at once (as stamping in place does).
        let allCoefficientBytes: Int

        init(_ header: sc_jpeg_header) {
            width = Int(header.width)
            height = Int(header.height)
            progressive = header.progressive != 0
            coefficientBytes = Int(clamping: header.coefficientBytes)
            allCoefficientBytes = Int(clamping: header.allCoefficientBytes)
        }
    }

    let header: Header
    private let handle: OpaquePointer
    /// The decoder's own copy of the bytes, when it made one.
    private let copy: UnsafeMutableRawBufferPointer?

    /// Reads a copy of `data` that the decoder owns.
    init(data: [UInt8], limits: Limits = Limits()) throws(ImageError) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 1)
        data.withUnsafeBytes { copy.copyMemory(from: $0) }
        do throws(ImageError) {
            (handle, header) = try Self.open(UnsafeRawBufferPointer(rebasing: copy[0..<data.count]), limits: limits)
        } catch {
            copy.deallocate()
            throw error
        }
        self.copy = copy
    }

    /// Reads `bytes` in place; they must outlive the decoder, which `reading` guarantees.
    private init(lending bytes: UnsafeRawBufferPointer, limits: Limits) throws(ImageError) {
        (handle, header) = try Self.open(bytes, limits: limits)
        copy = nil
    }

    /// Runs `body` with a decoder reading `bytes` without a copy. The decoder is gone when this
    /// returns, before the caller's bytes may be.
    static func reading<Result>(_ bytes: UnsafeRawBufferPointer, limits: Limits,
                                _ body: (borrowing JPEGDecoder) throws(ImageError) -> Result) throws(ImageError) -> Result {
        let decoder = try JPEGDecoder(lending: bytes, limits: limits)
        return try body(decoder)
    }

    deinit {
        sc_decoder_destroy(handle)
        copy?.deallocate()
    }

    /// Checks the magic, then reads the header. Nothing past the first three bytes is looked at
    /// before the magic matches, so a huge file that is not a JPEG costs nothing.
    private static func open(_ bytes: UnsafeRawBufferPointer, limits: Limits) throws(ImageError)
        -> (OpaquePointer, Header)
    {
        guard !bytes.isEmpty else { throw .empty }
        // SOI then any marker: anything else is not a JPEG, whatever libjpeg would make of it.
        guard bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF else {
            throw brokenStart(bytes, size: bytes.count) ?? .notJPEG
        }
        let cLimits = sc_decode_limits(salvage: limits.salvage ? 1 : 0, maxScans: Int32(clamping: limits.scanLimit),
                                       maxMemory: limits.memoryLimit)
        var outcome = sc_outcome()
        guard let handle = sc_decoder_create(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count,
                                             cLimits, &outcome) else {
            // Cut inside the header: there is no picture data that salvage could decode.
            if outcome.status == SC_TRUNCATED { throw .truncatedFile(.jpeg, bytes: bytes.count, pixelsComplete: false) }
            throw Self.error(outcome, header: nil)
        }
        let header = sc_decoder_header(handle)
        guard header.precision == 8 else {
            sc_decoder_destroy(handle)
            throw .unsupportedPrecision(bits: Int(header.precision))
        }
        return (handle, Header(header))
    }

    var exif: [UInt8]? {
        var length = 0
        guard let pointer = sc_decoder_exif(handle, &length), length > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: pointer, count: length))
    }

    /// The XMP packet (the APP1 after its namespace header), nil when there is none.
    var xmp: [UInt8]? {
        var length = 0
        guard let pointer = sc_decoder_xmp(handle, &length), length > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: pointer, count: length))
    }

    /// The ICC profile, nil when there is none; `malformed` when APP2 markers held one that could
    /// not be put together (it is dropped; the pixels are fine).
    func iccProfile() throws(ImageError) -> (profile: [UInt8]?, malformed: Bool) {
        var length = 0
        var malformed: Int32 = 0
        var outcome = sc_outcome()
        let pointer = sc_decoder_icc(handle, &length, &malformed, &outcome)
        guard outcome.status == SC_OK else { throw Self.error(outcome, header: header) }
        guard let pointer else { return (nil, malformed != 0) }
        defer { sc_free(pointer) }
        return (Array(UnsafeBufferPointer(start: pointer, count: length)), malformed != 0)
    }

    /// The size decoding at `eighths`/8 of full size gives (libjpeg-turbo scales by 1/8 … 8/8).
    func scaledSize(eighths: Int) throws(ImageError) -> (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        var outcome = sc_outcome()
        guard sc_decoder_scaled_size(handle, Int32(eighths), &width, &height, &outcome) == 0 else {
            throw Self.error(outcome, header: header)
        }
        return (Int(width), Int(height))
    }

    func scaledSize(denominator: Int) throws(ImageError) -> (width: Int, height: Int) {
        try scaledSize(eighths: 8 / denominator)
    }

    /// Decodes at 1/`denominator` of full size (1, 2, 4 or 8), shrinking in the DCT domain.
    func decode(denominator: Int) throws(ImageError) -> Bitmap {
        try decodeReporting(eighths: 8 / denominator).bitmap
    }

    /// Decodes at `eighths`/8 of full size; `warnings` name what salvage decoded past.
    func decodeReporting(eighths: Int) throws(ImageError) -> (bitmap: Bitmap, warnings: [String]) {
        let size = try scaledSize(eighths: eighths)
        guard var bitmap = Bitmap(width: size.width, height: size.height, zeroed: false) else {
            throw .outOfMemory(width: size.width, height: size.height)
        }
        var report = sc_salvage_report()
        var outcome = sc_outcome()
        let stride = bitmap.stride
        let status = bitmap.withUnsafeMutableBytes { pixels in
            sc_decoder_decode(handle, Int32(eighths), pixels.baseAddress!.assumingMemoryBound(to: UInt8.self),
                              stride, pixels.count, &report, &outcome)
        }
        guard status == 0 else { throw Self.error(outcome, header: header) }
        return (bitmap, Self.warnings(report))
    }

    /// Decodes at `eighths`/8 of full size and resamples to `width` × `height` as the rows come,
    /// turned upright per `orientation`: the decoded picture is never held whole, only the few rows
    /// the filter's window covers (see `LanczosResampler.windowBytes`).
    func decodeResampled(eighths: Int, width: Int, height: Int,
                         orientation: Orientation) throws(ImageError) -> (bitmap: Bitmap, warnings: [String]) {
        var decodedWidth: Int32 = 0, decodedHeight: Int32 = 0
        var outcome = sc_outcome()
        guard sc_decoder_start(handle, Int32(eighths), &decodedWidth, &decodedHeight, &outcome) == 0 else {
            throw Self.error(outcome, header: header)
        }
        let handle = self.handle, header = self.header
        let source = LanczosResampler.Source.rows(width: Int(decodedWidth), height: Int(decodedHeight)) { (row) throws(ImageError) in
            var rows: UnsafeMutablePointer<UInt8>? = row
            var outcome = sc_outcome()
            guard sc_decoder_read_rows(handle, &rows, 1, &outcome) == 0 else { throw Self.error(outcome, header: header) }
        }
        let bitmap = try LanczosResampler.resample(source, width: width, height: height, orientation: orientation)
        var report = sc_salvage_report()
        guard sc_decoder_finish(handle, &report, &outcome) == 0 else { throw Self.error(outcome, header: header) }
        return (bitmap, Self.warnings(report))
    }

    /// What salvage decoded past, in words.
    private static func warnings(_ report: sc_salvage_report) -> [String] {
        var warnings: [String] = []
        if report.missingEnd != 0 {
            warnings.append("the file ends without its JPEG end marker (every pixel was there)")
        }
        if report.truncated != 0 {
            warnings.append("truncated JPEG: the data ends before the image does; the rest of the picture is grey")
        }
        if report.corruptWarnings > 0 {
            let first = withoutPrefix(text(of: report.firstWarning))
            let count = report.corruptWarnings == 1 ? "" : " (and \(report.corruptWarnings - 1) more)"
            warnings.append("corrupt JPEG data: \(first)\(count); parts of the picture may be grey or garbled")
        }
        return warnings
    }

    /// What is wrong with a file that starts with JPEG's start-of-image marker (FF D8) but has no
    /// marker after it; nil when it does not start with FF D8 (not a JPEG) or starts right.
    static func brokenStart(_ head: UnsafeRawBufferPointer, size: Int) -> ImageError? {
        guard head.count >= 2, head[0] == 0xFF, head[1] == 0xD8 else { return nil }
        guard head.count >= 3, size >= 3 else { return .truncatedFile(.jpeg, bytes: size, pixelsComplete: false) }
        guard head[2] != 0xFF else { return nil }
        return .corrupt("the start-of-image marker (FF D8) is followed by 0x\(Hex.padded(head[2], digits: 2, uppercase: true)), not by another marker")
    }

    /// Turns libjpeg's outcome into the error a user can act on.
    static func error(_ outcome: sc_outcome, header: Header?) -> ImageError {
        let message = text(of: outcome.message)
        switch outcome.status {
        case SC_NOT_JPEG: return .notJPEG
        case SC_TRUNCATED: return .truncated
        case SC_CORRUPT_DATA: return .corruptData(withoutPrefix(message))
        case SC_BAD_PRECISION: return .unsupportedPrecision(bits: Int(outcome.value))
        case SC_TOO_MANY_SCANS: return .tooManyScans(limit: Int(outcome.value))
        case SC_NOT_IN_PLACE: return .notInPlace(message)
        case SC_DNL:
            return .unsupportedFeature(.jpeg, "its height is given by a DNL marker (the frame header says 0 lines), which libjpeg cannot decode")
        case SC_OUT_OF_MEMORY:
            if let header { return .outOfMemory(width: header.width, height: header.height) }
            return .corrupt(message)
        default: return .corrupt(message)
        }
    }

    /// libjpeg starts its data warnings with "Corrupt JPEG data: "; our messages say so already.
    private static func withoutPrefix(_ message: String) -> String {
        let prefix = "Corrupt JPEG data: "
        return message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
    }

    /// A NUL-terminated C array imported as a tuple.
    static func text<Tuple>(of tuple: Tuple) -> String {
        withUnsafeBytes(of: tuple) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
