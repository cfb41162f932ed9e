import Values

/// The TIFF structure inside an EXIF APP1 payload ("Exif\0\0" + TIFF), read entry by entry without
/// interpreting values, so it can be written back with only the tags that change changed.
///
/// Why not libexif's writer: it rebuilds the maker note from what it understood of it (an iPhone's
/// 12 maker-note tags come out as none, a Canon's 89 as 15) and moves it, which breaks the maker
/// notes whose offsets count from the TIFF header (Canon, Nikon's preview IFD, Olympus' equipment
/// IFD). Here the maker note, with every byte it points at (`MakerNoteRegion`), is kept byte for
/// byte at the offset it had in the source, as exiv2
/// does for maker notes it cannot rewrite and as Windows does before it resorts to its
/// OffsetSchema tag: every offset in it, absolute or relative, stays true. The rest of the block
/// is laid out around it.
///
/// The input is hostile: every count and offset is checked against the block, each directory is
/// read at most once (no loops), and an entry that cannot be read is left out and named in
/// `problems`.
struct ExifTree {
    enum ByteOrder { case little, big }

    /// One IFD entry: its value bytes as stored, in the block's byte order.
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var value: [UInt8]
    }

    /// The IFDs of an EXIF block that go out again (IFD1, the thumbnail, never does); `kodak` is
    /// Kodak's private IFD in IFD0 (tag 0x8290), a plain IFD like the others.
    enum Directory: CaseIterable { case ifd0, exif, gps, interop, kodak }

    var order: ByteOrder
    private(set) var directories: [Directory: [Entry]] = [:]
    /// Where the maker note's bytes started in the source TIFF: it is written there again.
    private(set) var makerNoteOffset: Int?
    /// The maker note with every byte it points at, written where it was in the source.
    private(set) var makerNote: MakerNoteRegion?
    /// Entries or directories that could not be read (they are left out).
    private(set) var problems: [String] = []
    /// What the source had that does not go out again, for a warning: private IFDs and maker
    /// notes whose offsets cannot be kept.
    private(set) var dropped: [String] = []

    static let makerNoteTag: UInt16 = 0x927C
    static let userCommentTag: UInt16 = 0x9286
    /// Tags that point at another IFD: rebuilt on writing, never copied.
    static let pointerTags: [UInt16: Directory] = [0x8769: .exif, 0x8825: .gps, 0xA005: .interop, 0x8290: .kodak]
    /// Other pointers to IFDs (IFD0's SubIFDs, Kodak's KDC_IFD, any entry of type IFD): dropped
    /// with a warning, since the offsets they hold would point at whatever is laid out there now.
    static let foreignPointerTags: Set<UInt16> = [0x014A, 0xFE00]

    /// Bytes per component of each TIFF type (EXIF 2.32 §4.6.2, plus IFD (13) and EXIF 3.0's UTF-8 (129)).
    static func unitSize(_ type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7, 129: return 1
        case 3, 8: return 2
        case 4, 9, 11, 13: return 4
        case 5, 10, 12: return 8
        default: return nil
        }
    }

    /// Reads an APP1 payload; nil when it is not "Exif\0\0" followed by a TIFF header whose first
    /// IFD can be read.
    init?(payload: [UInt8]) {
        guard payload.count >= 14, payload.starts(with: Array("Exif\0\0".utf8)) else { return nil }
        let tiff = Array(payload[6...])
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): order = .little
        case (0x4D, 0x4D): order = .big
        default: return nil
        }
        var reader = Reader(bytes: tiff, order: order)
        guard reader.u16(2) == 42, let first = reader.u32(4), let ifd0 = reader.directory(at: Int(first)) else { return nil }
        directories[.ifd0] = ifd0
        if let exifOffset = reader.pointer(in: ifd0, to: .exif), let exif = reader.directory(at: exifOffset, isExif: true) {
            directories[.exif] = exif
            if let interopOffset = reader.pointer(in: exif, to: .interop), let interop = reader.directory(at: interopOffset) {
                directories[.interop] = interop
            }
        }
        if let gpsOffset = reader.pointer(in: ifd0, to: .gps), let gps = reader.directory(at: gpsOffset) {
            directories[.gps] = gps
        }
        if let kodakOffset = reader.pointer(in: ifd0, to: .kodak), let kodak = reader.directory(at: kodakOffset) {
            directories[.kodak] = kodak
        }
        makerNoteOffset = reader.makerNoteOffset
        problems = reader.problems
        for directory in Directory.allCases {
            directories[directory]?.removeAll { Self.pointerTags[$0.tag] != nil }
            for entry in entries(directory) where entry.type == 13 || Self.foreignPointerTags.contains(entry.tag) {
                dropped.append("the private IFD in tag 0x\(Hex.padded(entry.tag, digits: 4))")
                remove(directory, entry.tag)
            }
        }
        if let offset = makerNoteOffset, var note = entry(.exif, Self.makerNoteTag) {
            let make = entry(.ifd0, 0x010F).map { String(decoding: $0.value.prefix { $0 != 0 }, as: UTF8.self) } ?? ""
            let region = MakerNoteRegion(tiff: tiff, order: order, offset: offset, count: note.value.count, make: make)
            if region.start < 8 {
                // Where it was is the TIFF header's: moved, its offsets would point at other bytes.
                dropped.append("the maker note (\(note.value.count) bytes, over the TIFF header)")
                remove(.exif, Self.makerNoteTag)
            } else {
                note.value = region.value
                set(.exif, note)
                makerNote = region
            }
        }
    }

    // MARK: reading

    /// Bounds-checked reads of the source TIFF.
    private struct Reader {
        let bytes: [UInt8]
        let order: ByteOrder
        var visited: Set<Int> = []
        var problems: [String] = []
        var makerNoteOffset: Int?

        init(bytes: [UInt8], order: ByteOrder) {
            self.bytes = bytes
            self.order = order
        }

        func u16(_ offset: Int) -> UInt16? {
            guard offset >= 0, offset + 2 <= bytes.count else { return nil }
            let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
            return order == .little ? a | b << 8 : a << 8 | b
        }

        func u32(_ offset: Int) -> UInt32? {
            guard offset >= 0, offset + 4 <= bytes.count else { return nil }
            let b = (0..<4).map { UInt32(bytes[offset + $0]) }
            return order == .little ? b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24 : b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]
        }

        /// The offset a pointer entry (ExifIFD, GPS, Interop) holds.
        func pointer(in entries: [Entry], to directory: Directory) -> Int? {
            guard let entry = entries.first(where: { ExifTree.pointerTags[$0.tag] == directory }),
                  entry.type == 4 || entry.type == 13, entry.count == 1, entry.value.count == 4 else { return nil }
            let v = entry.value.map(UInt32.init)
            return Int(order == .little ? v[0] | v[1] << 8 | v[2] << 16 | v[3] << 24 : v[0] << 24 | v[1] << 16 | v[2] << 8 | v[3])
        }

        /// The entries of the IFD at `offset`; nil when it is outside the block or read already.
        mutating func directory(at offset: Int, isExif: Bool = false) -> [Entry]? {
            guard offset >= 8, let declared = u16(offset) else {
                problems.append("an IFD offset (\(offset)) points outside the EXIF block")
                return nil
            }
            guard visited.insert(offset).inserted else {
                problems.append("two IFDs share the offset \(offset)")
                return nil
            }
            var count = Int(declared)
            let room = (bytes.count - offset - 2) / 12
            if count > room {
                problems.append("an IFD claims \(count) entries but the block holds \(max(0, room))")
                count = max(0, room)
            }
            var entries: [Entry] = []
            var seen = Set<UInt16>()
            for index in 0..<count {
                let at = offset + 2 + index * 12
                guard let tag = u16(at), let type = u16(at + 2), let components = u32(at + 4) else { break }
                guard let unit = ExifTree.unitSize(type) else {
                    problems.append("tag 0x\(Hex.padded(tag, digits: 4)) has an unknown type \(type)")
                    continue
                }
                let (size, overflow) = Int(components).multipliedReportingOverflow(by: unit)
                guard !overflow, size <= bytes.count else {
                    problems.append("tag 0x\(Hex.padded(tag, digits: 4)) is larger than the EXIF block")
                    continue
                }
                let start: Int
                if size <= 4 {
                    start = at + 8
                } else {
                    guard let valueOffset = u32(at + 8), Int(valueOffset) + size <= bytes.count else {
                        problems.append("tag 0x\(Hex.padded(tag, digits: 4)) points outside the EXIF block")
                        continue
                    }
                    start = Int(valueOffset)
                    if isExif && tag == ExifTree.makerNoteTag && makerNoteOffset == nil {
                        makerNoteOffset = start
                    }
                }
                // A tag twice in one IFD: readers take the first.
                guard seen.insert(tag).inserted else { continue }
                entries.append(Entry(tag: tag, type: type, count: components, value: Array(bytes[start..<start + size])))
            }
            return entries
        }
    }

    // MARK: editing

    func entries(_ directory: Directory) -> [Entry] { directories[directory] ?? [] }

    func entry(_ directory: Directory, _ tag: UInt16) -> Entry? {
        directories[directory]?.first { $0.tag == tag }
    }

    mutating func set(_ directory: Directory, _ entry: Entry) {
        var entries = directories[directory] ?? []
        if let index = entries.firstIndex(where: { $0.tag == entry.tag }) {
            entries[index] = entry
        } else {
            entries.append(entry)
        }
        directories[directory] = entries
    }

    mutating func remove(_ directory: Directory, _ tag: UInt16) {
        directories[directory]?.removeAll { $0.tag == tag }
        if tag == Self.makerNoteTag && directory == .exif {
            makerNoteOffset = nil
            makerNote = nil
        }
    }

    /// Replaces a whole IFD (the GPS IFD for a new position); nil or empty removes it.
    mutating func replace(_ directory: Directory, with entries: [Entry]?) {
        directories[directory] = entries
    }

    func hasDirectory(_ directory: Directory) -> Bool { directories[directory] != nil }

    // MARK: values in the block's byte order

    func short(_ value: UInt16) -> [UInt8] {
        order == .little ? [UInt8(value & 0xFF), UInt8(value >> 8)] : [UInt8(value >> 8), UInt8(value & 0xFF)]
    }

    func long(_ value: UInt32) -> [UInt8] {
        let bytes = [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        return order == .little ? bytes.reversed() : bytes
    }

    func readShort(_ bytes: [UInt8]) -> UInt16? {
        guard bytes.count >= 2 else { return nil }
        return order == .little ? UInt16(bytes[0]) | UInt16(bytes[1]) << 8 : UInt16(bytes[0]) << 8 | UInt16(bytes[1])
    }

    func asciiEntry(_ tag: UInt16, _ text: String) -> Entry {
        let bytes = Array(text.utf8.filter { $0 != 0 }) + [0]
        return Entry(tag: tag, type: 2, count: UInt32(bytes.count), value: bytes)
    }

    func shortEntry(_ tag: UInt16, _ value: UInt16) -> Entry {
        Entry(tag: tag, type: 3, count: 1, value: short(value))
    }

    func longEntry(_ tag: UInt16, _ value: UInt32) -> Entry {
        Entry(tag: tag, type: 4, count: 1, value: long(value))
    }

    func rationalEntry(_ tag: UInt16, _ values: [(UInt32, UInt32)]) -> Entry {
        Entry(tag: tag, type: 5, count: UInt32(values.count), value: values.flatMap { long($0.0) + long($0.1) })
    }

    // MARK: writing

    /// The block as an APP1 payload, the maker note at its source offset, whatever its size (see
    /// `payload(fitting:)`).
    func payload() -> [UInt8] {
        var layout = Layout(reserved: reservedRange)
        // Which directories go out, in the order they are laid out; pointers are added for them.
        var written: [Directory] = []
        for directory in Directory.allCases {
            // IFD0 always; another IFD when it has entries and the IFD that points at it goes out.
            let entries = directories[directory] ?? []
            guard directory == .ifd0 || (!entries.isEmpty && Self.parent(of: directory).map(written.contains) == true) else { continue }
            written.append(directory)
        }
        var tables: [Directory: [Entry]] = [:]
        for directory in written {
            var entries = directories[directory] ?? []
            for (tag, target) in Self.pointerTags where written.contains(target) && Self.parent(of: target) == directory {
                entries.append(Entry(tag: tag, type: 4, count: 1, value: [0, 0, 0, 0]))  // the offset is filled in below
            }
            // TIFF wants entries in ascending tag order.
            tables[directory] = entries.sorted { $0.tag < $1.tag }
        }
        // Where each table and each value larger than 4 bytes goes.
        var tableOffsets: [Directory: Int] = [:]
        var valueOffsets: [Directory: [Int: Int]] = [:]
        for directory in written {
            let entries = tables[directory]!
            tableOffsets[directory] = layout.place(2 + 12 * entries.count + 4)
            for (index, entry) in entries.enumerated() where entry.value.count > 4 {
                if directory == .exif && entry.tag == Self.makerNoteTag, let offset = makerNoteOffset, reservedRange != nil {
                    valueOffsets[directory, default: [:]][index] = offset
                } else {
                    valueOffsets[directory, default: [:]][index] = layout.place(entry.value.count)
                }
            }
        }
        var tiff = [UInt8](repeating: 0, count: layout.end)
        if let region = reservedRange, let note = makerNote { tiff.replaceSubrange(region, with: note.bytes) }
        tiff.replaceSubrange(0..<2, with: order == .little ? [0x49, 0x49] : [0x4D, 0x4D])
        tiff.replaceSubrange(2..<4, with: short(42))
        tiff.replaceSubrange(4..<8, with: long(UInt32(tableOffsets[.ifd0]!)))
        for directory in written {
            let entries = tables[directory]!
            var at = tableOffsets[directory]!
            tiff.replaceSubrange(at..<at + 2, with: short(UInt16(entries.count)))
            at += 2
            for (index, entry) in entries.enumerated() {
                var field = [UInt8](repeating: 0, count: 4)
                if let target = Self.pointerTags[entry.tag], let offset = tableOffsets[target] {
                    field = long(UInt32(offset))
                } else if let offset = valueOffsets[directory]?[index] {
                    field = long(UInt32(offset))
                    tiff.replaceSubrange(offset..<offset + entry.value.count, with: entry.value)
                } else {
                    field.replaceSubrange(0..<entry.value.count, with: entry.value)
                }
                tiff.replaceSubrange(at..<at + 12, with: short(entry.tag) + short(entry.type) + long(entry.count) + field)
                at += 12
            }
            // The next-IFD offset stays 0: IFD1 (the thumbnail) is not written.
        }
        return Array("Exif\0\0".utf8) + tiff
    }

    private static func parent(of directory: Directory) -> Directory? {
        switch directory {
        case .ifd0: return nil
        case .exif, .gps, .kodak: return .ifd0
        case .interop: return .exif
        }
    }

    /// The bytes the maker note keeps, when there is one to keep in place.
    private var reservedRange: Range<Int>? {
        makerNoteOffset == nil ? nil : makerNote?.range
    }

    /// Hands out word-aligned room after the header, around the maker note's bytes.
    private struct Layout {
        let reserved: Range<Int>?
        var cursor = 8
        var end = 8

        init(reserved: Range<Int>?) {
            self.reserved = reserved
            if let reserved { end = reserved.upperBound }
        }

        mutating func place(_ size: Int) -> Int {
            var start = cursor + cursor % 2
            if let reserved, start < reserved.upperBound, start + size > reserved.lowerBound {
                start = reserved.upperBound + reserved.upperBound % 2
            }
            cursor = start + size
            end = max(end, cursor)
            return start
        }
    }

    /// The block in at most one APP1 segment. What does not fit is dropped, the largest first, and
    /// named in `warnings`: a UserComment or MakerNote (what makes a block this big) before any
    /// other entry. Nil, with a warning, only when nothing fits.
    mutating func payload(fitting limit: Int = 65533) -> (payload: [UInt8]?, warnings: [String]) {
        var dropped: [String] = []
        var original: Int?
        while true {
            let bytes = payload()
            if original == nil { original = bytes.count }
            if bytes.count <= limit {
                if dropped.isEmpty { return (bytes, []) }
                return (bytes, ["EXIF shortened: the EXIF block is \(original!) bytes, more than the \(limit) one APP1 segment holds; dropped "
                                + dropped.joined(separator: ", ")])
            }
            var candidates: [(Directory, Entry)] = []
            for directory in Directory.allCases { for entry in entries(directory) { candidates.append((directory, entry)) } }
            let freeForm = candidates.filter { $0.0 == .exif && [Self.makerNoteTag, Self.userCommentTag].contains($0.1.tag) }
            guard let largest = (freeForm.isEmpty ? candidates : freeForm).max(by: { $0.1.value.count < $1.1.value.count }) else {
                return (nil, ["EXIF not written: it does not fit in one APP1 segment"])
            }
            dropped.append("\(Self.name(largest.1.tag)) (\(largest.1.value.count) bytes)")
            remove(largest.0, largest.1.tag)
        }
    }

    static func name(_ tag: UInt16) -> String {
        switch tag {
        case makerNoteTag: return "MakerNote"
        case userCommentTag: return "UserComment"
        default: return "tag 0x" + Hex.padded(tag, digits: 4)
        }
    }
}
