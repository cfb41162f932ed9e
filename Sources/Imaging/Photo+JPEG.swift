import Platform

extension Photo {
    /// Decodes a JPEG, turns it upright and fits it to `options.maxSize`, shrinking in the DCT domain
    /// first so a 22 MP photo is never decoded at full size for a 1024 px result. Reads `data` in
    /// place, without a copy.
    public init(jpeg data: [UInt8], options: LoadOptions = LoadOptions()) throws(ImageError) {
        // Array's withUnsafeBytes rethrows untyped errors: carry the typed one out in a Result.
        let result = data.withUnsafeBytes { bytes in
            Result { () throws(ImageError) in try Photo(jpeg: bytes, options: options) }
        }
        self = try result.get()
    }

    /// Decodes a JPEG file's bytes in place, without a copy.
    public init(jpeg file: FileContents, options: LoadOptions = LoadOptions()) throws(ImageError) {
        self = try file.withUnsafeBytes { (bytes) throws(ImageError) in try Photo(jpeg: bytes, options: options) }
    }

    /// The size `init(jpeg:options:)` gives a JPEG file, upright and fitted, from its header
    /// alone; nil when it is not a JPEG whose header reads.
    public static func fittedSize(jpeg file: FileContents, options: LoadOptions = LoadOptions()) -> (width: Int, height: Int)? {
        file.withUnsafeBytes { bytes in
            try? JPEGDecoder.reading(bytes, limits: JPEGDecoder.Limits(options)) { (decoder) throws(ImageError) in
                let stored = (width: decoder.header.width, height: decoder.header.height)
                let turned = PhotoMetadata(exif: decoder.exif, iccProfile: nil).orientation.swapsDimensions
                return options.fittedSize(width: turned ? stored.height : stored.width, height: turned ? stored.width : stored.height)
            }
        }
    }

    /// Decodes JPEG bytes lent for the length of this call (a file's, a camera's buffer).
    public init(jpeg bytes: UnsafeRawBufferPointer, options: LoadOptions = LoadOptions()) throws(ImageError) {
        self = try JPEGDecoder.reading(bytes, limits: JPEGDecoder.Limits(options)) { (decoder) throws(ImageError) in
            try Photo(decoder: decoder, options: options)
        }
    }

    private init(decoder: borrowing JPEGDecoder, options: LoadOptions) throws(ImageError) {
        let header = decoder.header
        let width = header.width, height = header.height
        guard width * height <= options.pixelLimit else {
            throw .tooManyPixels(width: width, height: height, limit: options.pixelLimit)
        }
        let icc = try decoder.iccProfile()
        var metadata = PhotoMetadata(exif: decoder.exif, iccProfile: icc.profile)
        metadata.xmp = decoder.xmp
        if icc.malformed {
            metadata.warnings.append("corrupt ICC profile: its APP2 markers do not fit together; the photo is written without it")
        }
        let orientation = metadata.orientation
        let upright = orientation.swapsDimensions ? (width: height, height: width) : (width: width, height: height)
        let target = options.fittedSize(width: upright.width, height: upright.height)

        let targetStored = orientation.swapsDimensions ? (width: target.height, height: target.width) : target
        let eighths = try Self.decodeScale(decoder, header: header, target: targetStored, turned: orientation != .up,
                                           limit: options.memoryLimit)
        let decoded: (bitmap: Bitmap, warnings: [String])
        if try decoder.scaledSize(eighths: eighths) == targetStored {  // as memoryNeeded counts it
            let whole = try decoder.decodeReporting(eighths: eighths)
            decoded = (try whole.bitmap.reoriented(orientation), whole.warnings)
        } else {
            decoded = try decoder.decodeResampled(eighths: eighths, width: targetStored.width, height: targetStored.height,
                                                  orientation: orientation)
        }
        metadata.warnings += decoded.warnings
        let bitmap = decoded.bitmap
        self.init(bitmap: bitmap, metadata: metadata, sourceWidth: width, sourceHeight: height,
                  decodeEighths: eighths)
    }

    /// The DCT scale (in eighths: libjpeg-turbo scales by 1/8 … 8/8 in the DCT domain) to decode at.
    /// Lanczos-3 then shrinks the rest of the way, and it needs room to work: landing just above
    /// the target leaves the DCT's block structure in the picture (`make bench` compares the
    /// result with libvips' thumbnail). So the scale leaves a residual of at least 1.5×, and 2×
    /// after the crude 1- and 2-point IDCTs, which need more. When that decode
    /// would pass the memory limit, a smaller scale that still covers the target is taken
    /// instead: a photo is never refused for the sake of sharpness.
    private static func decodeScale(_ decoder: borrowing JPEGDecoder, header: JPEGDecoder.Header,
                                    target: (width: Int, height: Int), turned: Bool, limit: Int) throws(ImageError) -> Int {
        var sizes: [(width: Int, height: Int)] = []
        for eighths in 1...8 { sizes.append(try decoder.scaledSize(eighths: eighths)) }
        let covering = (1...8).first { sizes[$0 - 1].width >= target.width && sizes[$0 - 1].height >= target.height } ?? 8
        // libjpeg-turbo has SIMD IDCTs for 1/8, 2/8, 4/8 and 8/8 only. The others are plain C (a
        // 6×6 IDCT, and 12×12 for 4:2:0 chroma, at 6/8), no cheaper than the next SIMD scale up.
        // So the sharp scale is the first of those four.
        let fastest = [1, 2, 4, 8].first { eighths in
            let room = eighths >= 4 ? 1.5 : 2.0
            return eighths >= covering && Double(sizes[eighths - 1].width) >= room * Double(target.width)
                && Double(sizes[eighths - 1].height) >= room * Double(target.height)
        } ?? 8
        for eighths in stride(from: fastest, through: covering, by: -1) {
            let size = sizes[eighths - 1]
            if memoryNeeded(header: header, decoded: size, target: target, turned: turned) <= limit { return eighths }
        }
        let size = sizes[covering - 1]
        throw .tooMuchMemory(needed: memoryNeeded(header: header, decoded: size, target: target, turned: turned),
                             limit: limit, coefficients: header.coefficientBytes)
    }

    /// The memory a decode needs, from the header alone. Decoded at another size than `target`
    /// (stored orientation), the rows are resampled as they come: at the peak libjpeg's coefficient
    /// buffer (multi-scan files), the window of rows the filter reads and the result are held at
    /// once. Decoded at the target size, the decoded pixels are held with the coefficients, then
    /// with their turned copy.
    private static func memoryNeeded(header: JPEGDecoder.Header, decoded: (width: Int, height: Int),
                                     target: (width: Int, height: Int), turned: Bool) -> Int {
        let resultBytes = target.width * target.height * 4
        guard decoded == target else {
            let window = LanczosResampler.windowBytes(sourceWidth: decoded.width, sourceHeight: decoded.height, height: target.height)
            return header.coefficientBytes + window + resultBytes
        }
        return resultBytes + max(header.coefficientBytes, turned ? resultBytes : 0)
    }
}

extension Photo {
    /// Encodes as JPEG with the source's EXIF (upright, new size, no stale thumbnail, the maker note
    /// byte for byte), the tags and XMP packet of `record`, and the ICC profile, saying what had to
    /// be left out. `optimize`: Huffman tables made for this photo (else libjpeg's standard ones),
    /// 1–10% fewer bytes for up to twice the encoding time; the same pixels either way.
    public func encoded(quality: Int = 90, subsampling: ChromaSubsampling = .s420, optimize: Bool = true,
                        record: OutputMetadata = OutputMetadata()) throws(ImageError) -> EncodedJPEG {
        let markers = Self.outputMarkers(metadata: metadata, format: format, width: width, height: height, record: record)
        let bytes = try JPEGEncoder.encode(bitmap, quality: quality, subsampling: subsampling, exif: markers.exif, xmp: markers.xmp,
                                           icc: markers.icc, optimize: optimize)
        return EncodedJPEG(bytes: bytes, warnings: markers.warnings)
    }

    /// The memory `encoded` takes at its peak: the pixels, the compressed photo (at most a few bytes
    /// a pixel; counted as 1) and, with `optimize`, libjpeg's buffer of every DCT coefficient of
    /// the photo (128 bytes a block, 1½ blocks a 64 pixels in 4:2:0), which its second pass reads.
    public func encodingBytes(subsampling: ChromaSubsampling = .s420, optimize: Bool) -> Int {
        let (width, height) = (width, height)
        func blocks(_ columns: Int, _ rows: Int) -> Int { (width + columns - 1) / columns * ((height + rows - 1) / rows) * 128 }
        let chroma = switch subsampling {
        case .s444: blocks(8, 8)
        case .s422: blocks(16, 8)
        case .s420: blocks(16, 16)
        }
        return 5 * width * height + (optimize ? blocks(8, 8) + 2 * chroma : 0)
    }

    /// The EXIF, XMP and ICC payloads a photo of `width` × `height` read from a `format` file goes
    /// out with, and what had to be left out. `orientation`: the tag the file keeps (stamped in
    /// place, no pixel turned); nil sets it to 1, the pixels being upright.
    static func outputMarkers(metadata: PhotoMetadata, format: ImageFormat, width: Int, height: Int, record: OutputMetadata,
                              orientation: Orientation? = nil) -> (exif: [UInt8]?, xmp: [UInt8]?, icc: [UInt8]?, warnings: [String]) {
        var warnings: [String] = []
        let exif = outputExif(metadata: metadata, format: format, width: width, height: height, edits: record.exif,
                              orientation: orientation, warnings: &warnings)
        let xmp = outputXMP(record.xmp, warnings: &warnings)
        var icc = metadata.iccProfile
        if let profile = icc, profile.count > JPEGEncoder.maximumICCProfile {
            warnings.append("ICC profile not written: \(profile.count) bytes is more than the \(JPEGEncoder.maximumICCProfile) that 255 APP2 segments hold")
            icc = nil
        }
        return (exif, xmp, icc, warnings)
    }

    /// The bytes of `encoded(quality:subsampling:)` alone. What was left out is not reported:
    /// where a user should hear of it, use `encoded`.
    public func jpeg(quality: Int = 90, subsampling: ChromaSubsampling = .s420, optimize: Bool = true) throws(ImageError) -> [UInt8] {
        try encoded(quality: quality, subsampling: subsampling, optimize: optimize).bytes
    }

    /// The EXIF to write: the source's with `edits`, rewritten for this photo and shrunk to fit one
    /// APP1 segment. A photo without EXIF gets one only when there are tags to set.
    private static func outputExif(metadata: PhotoMetadata, format: ImageFormat, width: Int, height: Int, edits: ExifEdits,
                                   orientation: Orientation?, warnings: inout [String]) -> [UInt8]? {
        var tree: ExifTree
        if let source = metadata.exif {
            if let parsed = ExifTree(payload: source) {
                tree = parsed
            } else if let block = ExifBlock(payload: source), let cleaned = block.payload(), let parsed = ExifTree(payload: cleaned) {
                // libexif made sense of a block whose structure we could not follow: its reading goes out.
                tree = parsed
            } else {
                warnings.append("EXIF not written: no readable tags in its \(source.count) bytes")
                guard !edits.isEmpty, let fresh = Self.freshExif() else { return nil }
                tree = fresh
            }
        } else {
            guard !edits.isEmpty, let fresh = Self.freshExif() else { return nil }
            tree = fresh
        }
        warnings += tree.dropped.map { "EXIF: left out \($0): its offsets could not be kept" }
        tree.apply(edits)
        // A HEIC's or PNG's EXIF goes out in a JPEG now: it must be valid for one.
        if format != .jpeg { tree.completeForJPEG(hasICCProfile: metadata.iccProfile != nil) }
        tree.prepareForOutput(width: width, height: height)
        if let orientation, orientation != .up { tree.setOrientation(orientation) }
        let fitted = tree.payload(fitting: JPEGEncoder.maximumAPP1Payload)
        warnings += fitted.warnings
        return fitted.payload
    }

    /// The tags EXIF requires of a JPEG file, for a photo that came without any.
    private static func freshExif() -> ExifTree? {
        ExifRecord().payload().flatMap(ExifTree.init(payload:))
    }

    /// The XMP APP1 payload (its namespace, a NUL, the packet); nil, with a warning, when it cannot
    /// be written or does not fit one segment.
    private static func outputXMP(_ packet: XMPPacket?, warnings: inout [String]) -> [UInt8]? {
        guard let packet else { return nil }
        let payload: [UInt8]
        do { payload = XMPPacket.app1Header + (try packet.serialized()) } catch {
            warnings.append("XMP not written: \(error)")
            return nil
        }
        guard payload.count <= JPEGEncoder.maximumAPP1Payload else {
            warnings.append("XMP not written: the packet is \(payload.count) bytes, more than the \(JPEGEncoder.maximumAPP1Payload) one APP1 segment holds")
            return nil
        }
        return payload
    }
}
