/// The directories of an EXIF APP1 payload read straight from its TIFF bytes, not through
/// libexif, so tests can check what a writer put where (EXIF 2.32 §4.6).
public struct ExifLayout: Sendable {
    public struct Entry: Sendable {
        public let tag: Int
        /// TIFF type: 1 BYTE, 2 ASCII, 3 SHORT, 4 LONG, 5 RATIONAL, 7 UNDEFINED …
        public let type: Int
        public let count: Int
        /// The value's bytes, as stored (in the block's byte order).
        public let value: [UInt8]
    }

    public let littleEndian: Bool
    public private(set) var ifd0: [Entry] = []
    public private(set) var exif: [Entry] = []
    public private(set) var gps: [Entry] = []
    public private(set) var ifd1: [Entry] = []
    /// The payload from the TIFF header on: where IFD offsets point.
    public let tiff: [UInt8]

    /// Nil when the payload is not "Exif\0\0" followed by a TIFF header.
    public init?(payload: [UInt8]) {
        guard payload.starts(with: Array("Exif\0\0".utf8)), payload.count >= 14 else { return nil }
        tiff = Array(payload.dropFirst(6))
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        guard number(at: 2, size: 2) == 42 else { return nil }
        let (entries, next) = directory(at: number(at: 4, size: 4))
        ifd0 = entries
        if let pointer = entry(0x8769, in: ifd0) { exif = directory(at: integer(pointer)).entries }
        if let pointer = entry(0x8825, in: ifd0) { gps = directory(at: integer(pointer)).entries }
        if next > 0 { ifd1 = directory(at: next).entries }
    }

    public func entry(_ tag: Int, in directory: [Entry]) -> Entry? { directory.first { $0.tag == tag } }

    /// A BYTE, SHORT or LONG value.
    public func integer(_ entry: Entry) -> Int {
        switch entry.type {
        case 1, 7: return Int(entry.value.first ?? 0)
        case 3: return Self.number(entry.value, at: 0, size: 2, littleEndian: littleEndian)
        default: return Self.number(entry.value, at: 0, size: 4, littleEndian: littleEndian)
        }
    }

    /// RATIONAL values as (numerator, denominator).
    public func rationals(_ entry: Entry) -> [(Int, Int)] {
        (0..<entry.count).map { index in
            (Self.number(entry.value, at: index * 8, size: 4, littleEndian: littleEndian),
             Self.number(entry.value, at: index * 8 + 4, size: 4, littleEndian: littleEndian))
        }
    }

    /// An ASCII value without its terminating NUL.
    public func text(_ entry: Entry) -> String {
        String(decoding: entry.value.prefix { $0 != 0 }, as: UTF8.self)
    }

    private func number(at offset: Int, size: Int) -> Int {
        Self.number(tiff, at: offset, size: size, littleEndian: littleEndian)
    }

    private func directory(at offset: Int) -> (entries: [Entry], next: Int) {
        guard offset > 0, offset + 2 <= tiff.count else { return ([], 0) }
        let count = number(at: offset, size: 2)
        var entries: [Entry] = []
        for index in 0..<count {
            let at = offset + 2 + index * 12
            guard at + 12 <= tiff.count else { break }
            let type = number(at: at + 2, size: 2), components = number(at: at + 4, size: 4)
            let unit = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8][type] ?? 1
            let size = unit * components
            let start = size <= 4 ? at + 8 : number(at: at + 8, size: 4)
            guard start + size <= tiff.count else { continue }
            entries.append(Entry(tag: number(at: at, size: 2), type: type, count: components, value: Array(tiff[start..<start + size])))
        }
        let nextAt = offset + 2 + count * 12
        return (entries, nextAt + 4 <= tiff.count ? number(at: nextAt, size: 4) : 0)
    }

    private static func number(_ bytes: [UInt8], at offset: Int, size: Int, littleEndian: Bool) -> Int {
        guard offset + size <= bytes.count else { return 0 }
        let slice = bytes[offset..<offset + size]
        return (littleEndian ? slice.reversed() : Array(slice)).reduce(0) { $0 << 8 | Int($1) }
    }
}
