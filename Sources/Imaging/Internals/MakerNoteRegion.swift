/// A maker note and every byte it points at, cut from the source TIFF so it can be written at the
/// same offset again: then every offset in it stays true, whether it counts from the TIFF header
/// (Canon, old Olympus, Minolta), from the maker note (Olympus "OLYMPUS\0II", Fuji) or from the
/// maker note's own TIFF header (Nikon type 3).
///
/// Values a maker note keeps past its declared length (Olympus E-10/E-20-era, Nikon's preview IFD)
/// come along; a layout that is not an IFD (Kodak's binary blocks) is its declared bytes. Preview
/// images inside it are dropped, as the EXIF thumbnail is, since they show the unstamped picture:
/// each becomes an empty JPEG (its start and end markers, then zeros) of length 4 where it was, so
/// every tag and offset stays as it was (readers that guess a maker note's base from where its
/// values start, as exiftool does for Pentax, are not misled); a preview pointer that points
/// outside the block becomes 0 with its length. Only the maker note's own bytes are copied,
/// so nothing else of the source (values this stamp replaced) travels along.
struct MakerNoteRegion {
    /// Where `bytes` start in the TIFF.
    let start: Int
    let bytes: [UInt8]
    /// The maker note entry's value: its declared bytes, with any preview dropped.
    let value: [UInt8]

    var range: Range<Int> { start..<start + bytes.count }

    /// The region of the maker note whose `count` bytes start at `offset` in `tiff`; `make` is
    /// IFD0's Make, which says where a camera keeps its previews.
    init(tiff: [UInt8], order: ExifTree.ByteOrder, offset: Int, count: Int, make: String) {
        var walker = Walker(tiff: tiff, note: offset..<offset + count)
        if let layout = Layout.find(tiff: tiff, order: order, note: offset..<offset + count) {
            walker.walk(layout: layout, previews: Self.previews(note: Array(tiff[offset..<offset + count]), make: make))
        }
        // Zero bytes that followed the note (at most 256) stay zero after it: some maker notes
        // (Nikon's NikonScanIFD, NEFBitDepth) point a few bytes past the values they declare.
        let noteEnd = offset + count
        let zeros = tiff[noteEnd...].prefix(256).prefix { $0 == 0 }.count
        let spans = (walker.spans + [offset..<noteEnd + zeros]).map { $0.clamped(to: 0..<tiff.count) }
        let lower = spans.map(\.lowerBound).min()!, upper = spans.map(\.upperBound).max()!
        var bytes = [UInt8](repeating: 0, count: upper - lower)
        for span in spans { bytes.replaceSubrange(span.lowerBound - lower..<span.upperBound - lower, with: tiff[span]) }
        for (at, patch) in walker.patches where at >= lower && at + patch.count <= upper {
            bytes.replaceSubrange(at - lower..<at - lower + patch.count, with: patch)
        }
        start = lower
        self.bytes = bytes
        value = Array(bytes[offset - lower..<noteEnd - lower])
    }

    // MARK: layouts

    /// Where the maker note's IFD is, in which byte order, and what its offsets count from.
    struct Layout {
        var ifd: Int
        var base: Int
        var order: ExifTree.ByteOrder
        /// Tags whose value is another IFD of the same note (Nikon's PreviewIFD, Olympus' Equipment …).
        var subdirectories: Set<UInt16> = []

        static func find(tiff: [UInt8], order: ExifTree.ByteOrder, note: Range<Int>) -> Layout? {
            let start = note.lowerBound
            let head = Array(tiff[note.prefix(16)])
            func has(_ prefix: String) -> Bool { head.starts(with: Array(prefix.utf8)) }
            func byteOrder(at offset: Int) -> ExifTree.ByteOrder? {
                guard offset + 2 <= tiff.count else { return nil }
                switch (tiff[offset], tiff[offset + 1]) {
                case (0x49, 0x49): return .little
                case (0x4D, 0x4D): return .big
                default: return nil
                }
            }
            var candidates: [Layout] = []
            if has("Nikon\0\u{2}") {
                // Type 3: its own TIFF header after 10 bytes; offsets count from that header.
                let inner = start + 10
                guard let innerOrder = byteOrder(at: inner),
                      let first = Reader(tiff: tiff, order: innerOrder).u32(inner + 4) else { return nil }
                candidates = [Layout(ifd: inner + Int(first), base: inner, order: innerOrder, subdirectories: [0x0011])]
            } else if has("OLYMPUS\0") || has("OM SYSTEM\0") {
                // Offsets count from the maker note; its byte order follows the name.
                let name = has("OLYMPUS\0") ? 8 : 12
                guard let own = byteOrder(at: start + name) else { return nil }
                candidates = [Layout(ifd: start + name + 4, base: start, order: own, subdirectories: Self.olympusSubdirectories)]
            } else if has("SEMC MS\0") {
                // Sony Ericsson: the IFD after 20 bytes, offsets from the 12th.
                for own in [order, order == .little ? .big : .little] as [ExifTree.ByteOrder] {
                    candidates.append(Layout(ifd: start + 20, base: start + 12, order: own))
                }
            } else if has("FUJIFILM") {
                guard let first = Reader(tiff: tiff, order: .little).u32(start + 8) else { return nil }
                candidates = [Layout(ifd: start + Int(first), base: start, order: .little)]
            } else {
                // A plain IFD, maybe after a short name ("OLYMP\0", "Nikon\0\1", "AOC\0MM", "QVC\0",
                // "Panasonic\0\0\0", "SONY DSC \0\0\0" …); offsets from the TIFF header or the note.
                let own = has("AOC\0") ? byteOrder(at: start + 4) : nil  // Pentax's "AOC\0MM"
                // The block's byte order, then the other: a maker note keeps the camera's when
                // software rewrote the rest in the other order.
                let swapped: ExifTree.ByteOrder = order == .little ? .big : .little
                for skip in [0, 8, 6, 12, 10, 14, 16, 18, 20] {
                    for ifdOrder in own.map({ [$0] }) ?? [order, swapped] {
                        for base in [0, start] {
                            candidates.append(Layout(ifd: start + skip, base: base, order: ifdOrder,
                                                     subdirectories: has("OLYMP\0") ? Self.olympusSubdirectories : []))
                        }
                    }
                }
            }
            return candidates.first { $0.fits(tiff: tiff, note: note) }
        }

        /// Whether an IFD can be read here whose entries all have TIFF types and whose values lie in the block.
        func fits(tiff: [UInt8], note: Range<Int>) -> Bool {
            let reader = Reader(tiff: tiff, order: order)
            // Every maker note known keeps its first IFD's table inside its declared bytes.
            guard let count = reader.u16(ifd).map(Int.init), (1...512).contains(count),
                  ifd >= note.lowerBound, ifd + 2 + 12 * count <= note.upperBound else { return false }
            for index in 0..<count {
                let at = ifd + 2 + 12 * index
                guard let type = reader.u16(at + 2), let unit = ExifTree.unitSize(type),
                      let components = reader.u32(at + 4) else { return false }
                let size = Int(components) * unit
                guard size <= tiff.count else { return false }
                if size > 4 {
                    guard let offset = reader.u32(at + 8), base + Int(offset) >= 8, base + Int(offset) + size <= tiff.count else { return false }
                }
            }
            return true
        }

        /// Olympus' sub-IFDs: Equipment, CameraSettings, RawDevelopment(2), ImageProcessing, FocusInfo, …
        static let olympusSubdirectories: Set<UInt16> = [0x2010, 0x2020, 0x2030, 0x2031, 0x2040, 0x2050, 0x3000, 0x4000, 0x5000]
    }

    // MARK: previews

    /// A preview image a maker note keeps: a pointer and a length tag, or a tag holding the image,
    /// in the note's first IFD or in the sub-IFD of tag `directory` (the same numbers mean other
    /// things in other IFDs).
    enum Preview {
        case pointer(start: UInt16, length: UInt16, directory: UInt16? = nil)
        case inline(UInt16)
    }

    /// The previews a camera maker's notes keep, known by their name or the camera's Make (the
    /// tag numbers are the maker's own, as exiftool's tables list them).
    static func previews(note: [UInt8], make: String) -> [Preview] {
        let make = make.lowercased()
        func has(_ prefix: String) -> Bool { note.starts(with: Array(prefix.utf8)) }
        if has("Nikon") || make.hasPrefix("nikon") {
            return [.pointer(start: 0x0201, length: 0x0202, directory: 0x0011)]  // the preview IFD
        }
        if has("SEMC MS") {
            return [.pointer(start: 0x0201, length: 0x0202)]
        }
        if has("QVC\0") || make.hasPrefix("casio") {
            return [.pointer(start: 0x0004, length: 0x0003), .inline(0x2000)]  // the same image, twice
        }
        if has("AOC\0") || make.hasPrefix("pentax") || make.hasPrefix("asahi") {
            return [.pointer(start: 0x0004, length: 0x0003)]
        }
        if has("OLYMP") || has("OM SYSTEM") || make.contains("olympus") || make.contains("minolta") || make.contains("konica") {
            return [.pointer(start: 0x0088, length: 0x0089), .pointer(start: 0x1036, length: 0x1037), .inline(0x0081),
                    .pointer(start: 0x0101, length: 0x0102, directory: 0x2020)]  // CameraSettings
        }
        return []
    }

    // MARK: walking

    /// Reads the note's IFDs, collecting the bytes they occupy and the previews to drop.
    private struct Walker {
        let tiff: [UInt8]
        let note: Range<Int>
        var spans: [Range<Int>] = []
        /// Bytes to write over the copy, where they go in the TIFF: the previews emptied.
        var patches: [(at: Int, bytes: [UInt8])] = []
        var visited: Set<Int> = []

        init(tiff: [UInt8], note: Range<Int>) {
            self.tiff = tiff
            self.note = note
        }

        mutating func walk(layout: Layout, previews: [Preview]) {
            walk(ifd: layout.ifd, from: nil, layout: layout, previews: previews, depth: 0)
        }

        /// Walks the IFD at `ifd`, the note's first or the sub-IFD of tag `from`.
        private mutating func walk(ifd: Int, from: UInt16?, layout: Layout, previews: [Preview], depth: Int) {
            let reader = Reader(tiff: tiff, order: layout.order)
            guard depth < 4, ifd >= 8, ifd + 6 <= tiff.count, visited.insert(ifd).inserted, let declared = reader.u16(ifd) else { return }
            let count = min(Int(declared), max(0, (tiff.count - ifd - 6) / 12))
            spans.append(ifd..<ifd + 2 + 12 * count + 4)
            var fields: [UInt16: (value: Int, size: Int)] = [:]
            for index in 0..<count {
                let at = ifd + 2 + 12 * index
                guard let tag = reader.u16(at), let type = reader.u16(at + 2), let unit = ExifTree.unitSize(type),
                      let components = reader.u32(at + 4) else { continue }
                let (size, overflow) = Int(components).multipliedReportingOverflow(by: unit)
                guard !overflow else { continue }
                var valueAt = at + 8
                if size > 4 {
                    guard let offset = reader.u32(at + 8) else { continue }
                    valueAt = layout.base + Int(offset)
                    guard valueAt >= 8, valueAt + size <= tiff.count else { continue }  // dangling in the source already
                    spans.append(valueAt..<valueAt + size)
                }
                fields[tag] = (valueAt, size)
                if layout.subdirectories.contains(tag) {
                    // An IFD's offset (type LONG or IFD), or the IFD itself as an UNDEFINED value.
                    let target = size > 4 ? valueAt : reader.u32(at + 8).map { layout.base + Int($0) }
                    if let target { walk(ifd: target, from: tag, layout: layout, previews: previews, depth: depth + 1) }
                }
            }
            for preview in previews {
                switch preview {
                case .pointer(let startTag, let lengthTag, let directory):
                    guard directory == from, let start = fields[startTag], let length = fields[lengthTag], start.size == 4, length.size == 4,
                          let offset = reader.u32(start.value), let size = reader.u32(length.value).map(Int.init) else { continue }
                    let image = layout.base + Int(offset)
                    if size >= Self.emptyJPEG.count, image >= 8, image + size <= tiff.count {
                        spans.append(image..<image + size)
                        patches.append((image, Self.emptyJPEG + [UInt8](repeating: 0, count: size - Self.emptyJPEG.count)))
                        patches.append((length.value, Reader.bytes(UInt32(Self.emptyJPEG.count), order: layout.order)))
                    } else if size > 0 {
                        // Nothing there to keep (a pointer past the end, as the Nikon E5000's): no preview.
                        patches.append((start.value, [0, 0, 0, 0]))
                        patches.append((length.value, [0, 0, 0, 0]))
                    }
                case .inline(let tag):
                    guard from == nil, let image = fields[tag], image.size >= Self.emptyJPEG.count else { continue }
                    patches.append((image.value, Self.emptyJPEG + [UInt8](repeating: 0, count: image.size - Self.emptyJPEG.count)))
                }
            }
        }

        /// What a preview becomes: a JPEG with nothing in it (start and end of image).
        static let emptyJPEG: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]
    }

    /// Bounds-checked reads in one byte order.
    struct Reader {
        let tiff: [UInt8]
        let order: ExifTree.ByteOrder

        static func bytes(_ value: UInt32, order: ExifTree.ByteOrder) -> [UInt8] {
            let big = [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
            return order == .little ? big.reversed() : big
        }

        func u16(_ offset: Int) -> UInt16? {
            guard offset >= 0, offset + 2 <= tiff.count else { return nil }
            let a = UInt16(tiff[offset]), b = UInt16(tiff[offset + 1])
            return order == .little ? a | b << 8 : a << 8 | b
        }

        func u32(_ offset: Int) -> UInt32? {
            let (high, low) = order == .little ? (offset + 2, offset) : (offset, offset + 2)
            guard offset >= 0, let high = u16(high), let low = u16(low) else { return nil }
            return UInt32(high) << 16 | UInt32(low)
        }
    }
}
