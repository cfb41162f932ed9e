import Platform

/// A JPEG stamped where it lies, at its own size: its DCT coefficients are read whole, only the
/// MCUs a stamp covers are decoded, drawn on and put back with the photo's own quantisation
/// tables and sampling, and every other block is written bit for bit as it was. No pixel is
/// turned: the EXIF orientation is kept. Baseline or progressive, 8-bit, Huffman-coded, YCbCr or
/// greyscale; anything else (and damaged data) is refused at `init`, to take the decoding path.
///
/// Memory: libjpeg holds every block's coefficients (baseline and progressive alike), and the
/// compressed bytes are held three times (the file read, the transcoder's copy, the photo written);
/// `init` weighs that against the memory limit. The stamp's rows, decoded to pixels and their
/// blocks made again, are weighed in `decode` once the stamp's place is known.
public struct InPlaceJPEG: ~Copyable {
    /// The stored size (before the orientation turn).
    public let width: Int
    public let height: Int
    public let metadata: PhotoMetadata
    let transcoder: JPEGTranscoder
    /// What the photo holds whatever its stamp (see above), and the limit the stamp must stay within.
    private let heldBytes: Int
    private let memoryLimit: Int

    /// Reads the coefficients of a JPEG file's bytes; throws when the file is not one this works on
    /// or would pass `options`' pixel or memory limit (the coefficients of every block are held).
    public init(jpeg file: FileContents, options: LoadOptions = LoadOptions()) throws(ImageError) {
        let read = try file.withUnsafeBytes { (bytes) throws(ImageError) in try Self.read(bytes, options: options) }
        (width, height, metadata, transcoder) = (read.transcoder.info.width, read.transcoder.info.height, read.metadata, read.transcoder)
        (heldBytes, memoryLimit) = (read.held, options.memoryLimit)
    }

    /// Reads the coefficients of JPEG bytes (a copy is kept).
    public init(jpeg bytes: [UInt8], options: LoadOptions = LoadOptions()) throws(ImageError) {
        let read = try bytes.withUnsafeBytes { bytes in
            Result { () throws(ImageError) in try Self.read(bytes, options: options) }
        }.get()
        (width, height, metadata, transcoder) = (read.transcoder.info.width, read.transcoder.info.height, read.metadata, read.transcoder)
        (heldBytes, memoryLimit) = (read.held, options.memoryLimit)
    }

    private static func read(_ bytes: UnsafeRawBufferPointer, options: LoadOptions) throws(ImageError)
        -> (metadata: PhotoMetadata, transcoder: JPEGTranscoder, held: Int) {
        let limits = JPEGDecoder.Limits(options)
        let held = 3 * bytes.count
        let metadata = try JPEGDecoder.reading(bytes, limits: limits) { (decoder) throws(ImageError) in
            let header = decoder.header
            guard header.width * header.height <= options.pixelLimit else {
                throw .tooManyPixels(width: header.width, height: header.height, limit: options.pixelLimit)
            }
            let needed = header.allCoefficientBytes + held
            guard needed <= options.memoryLimit else {
                throw .tooMuchMemory(needed: needed, limit: options.memoryLimit, coefficients: header.allCoefficientBytes)
            }
            let icc = try decoder.iccProfile()
            var metadata = PhotoMetadata(exif: decoder.exif, iccProfile: icc.profile)
            metadata.xmp = decoder.xmp
            if icc.malformed {
                metadata.warnings.append("corrupt ICC profile: its APP2 markers do not fit together; the photo is written without it")
            }
            return metadata
        }
        return (metadata, try JPEGTranscoder(bytes, limits: limits), held)
    }

    /// The whole MCU rows that hold `rows` (clamped to the photo): what `decode` and `replace` take.
    public func strip(covering rows: Range<Int>) -> Range<Int> {
        Self.whole(rows, mcu: transcoder.info.mcuHeight, size: height)
    }

    /// The whole MCU columns that hold `columns` (clamped to the photo): likewise.
    public func span(covering columns: Range<Int>) -> Range<Int> {
        Self.whole(columns, mcu: transcoder.info.mcuWidth, size: width)
    }

    private static func whole(_ range: Range<Int>, mcu: Int, size: Int) -> Range<Int> {
        let start = min(max(0, range.lowerBound), size - 1) / mcu * mcu
        let end = min(size, (max(range.upperBound, start + 1) + mcu - 1) / mcu * mcu)
        return start..<end
    }

    /// The pixels of `rows` (a `strip`) and `columns` (a `span`; the photo's whole width when nil),
    /// as the full decode shows them.
    public func decode(rows: Range<Int>, columns: Range<Int>? = nil) throws(ImageError) -> Bitmap {
        let columns = columns ?? 0..<width
        // The region's pixels, 4 bytes each, and its blocks once more while they are made again.
        let pixels = rows.count * columns.count
        let blocks = Int((Double(transcoder.info.coefficientBytes) * Double(pixels) / Double(max(1, width * height))).rounded(.up))
        let needed = heldBytes + transcoder.info.coefficientBytes + 4 * pixels + blocks
        guard needed <= memoryLimit else {
            throw .tooMuchMemory(needed: needed, limit: memoryLimit, coefficients: transcoder.info.coefficientBytes)
        }
        return try transcoder.decode(rows: rows, columns: columns)
    }

    /// Puts `bitmap` (`columns.count` wide, `rows.count` high) in place of the blocks of `rows` (a
    /// `strip`) and `columns` (a `span`; the whole width when nil). After a failure the photo
    /// cannot be written.
    public mutating func replace(rows: Range<Int>, columns: Range<Int>? = nil, with bitmap: Bitmap) throws(ImageError) {
        let columns = columns ?? 0..<width
        guard bitmap.width == columns.count, bitmap.height == rows.count else {
            throw .encodeFailed("the stamped region is \(bitmap.width)x\(bitmap.height), not \(columns.count)x\(rows.count)")
        }
        try transcoder.replace(rows: rows, columns: columns, with: bitmap)
    }

    /// Every coefficient, with the EXIF (its orientation kept), XMP and ICC profile as
    /// `Photo.encoded` writes them. `optimize`: Huffman tables made for this photo (a progressive
    /// one always has them).
    public func encoded(record: OutputMetadata = OutputMetadata(), optimize: Bool = true) throws(ImageError) -> EncodedJPEG {
        let markers = Photo.outputMarkers(metadata: metadata, format: .jpeg, width: width, height: height, record: record,
                                          orientation: metadata.orientation)
        let bytes = try transcoder.write(exif: markers.exif, xmp: markers.xmp, icc: markers.icc, optimize: optimize)
        return EncodedJPEG(bytes: bytes, warnings: markers.warnings)
    }
}
