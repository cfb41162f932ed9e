import Imaging

/// A photo whose EXIF carries a maker note laid out the way Canon's is: a plain IFD whose value
/// offsets count from the TIFF header, so moving it without rewriting it breaks every value. Built
/// byte by byte here (libexif cannot write a maker note), little-endian, with the maker note in
/// the middle of the block and a thumbnail IFD after it.
public enum MakerNoteFixture {
    /// The maker note's text values and where they must be found again.
    public static let imageType = "Fixture Image Type"
    public static let firmware = "Firmware Version 1.0.0"
    public static let owner = "Ana Lima"
    /// Where the maker note starts in the TIFF.
    public static let makerNoteOffset = 0x200

    public static var photo: FixturePhoto {
        FixturePhoto(name: "maker-note.jpg", width: 320, height: 240)
    }

    /// The fixture photo's bytes with this EXIF spliced in.
    public static func jpeg() throws -> [UInt8] {
        JPEGSegments.withExif(payload, in: try photo.jpeg())
    }

    /// "Exif\0\0" + TIFF.
    public static var payload: [UInt8] {
        var tiff = [UInt8](repeating: 0, count: 0x400)
        func put(_ bytes: [UInt8], at offset: Int) { tiff.replaceSubrange(offset..<offset + bytes.count, with: bytes) }
        func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16) }
        func ascii(_ text: String) -> [UInt8] { Array(text.utf8) + [0] }
        /// Writes an IFD at `offset`: entries (tag, type, count, value or offset), then `next`.
        func ifd(at offset: Int, _ entries: [(Int, Int, Int, [UInt8])], next: Int = 0) {
            put(u16(entries.count), at: offset)
            for (index, entry) in entries.enumerated() {
                var field = entry.3
                field += [UInt8](repeating: 0, count: 4 - field.count)
                put(u16(entry.0) + u16(entry.1) + u32(entry.2) + field, at: offset + 2 + index * 12)
            }
            put(u32(next), at: offset + 2 + entries.count * 12)
        }
        put([0x49, 0x49, 0x2A, 0x00] + u32(8), at: 0)
        // IFD0 at 8 (5 entries → 66 bytes), its strings at 0x60.
        let make = ascii("Canon"), model = ascii("Canon EOS Fixture")
        put(make, at: 0x60)
        put(model, at: 0x70)
        ifd(at: 8, [(0x010F, 2, make.count, u32(0x60)), (0x0110, 2, model.count, u32(0x70)),
                    (0x0112, 3, 1, u16(1)), (0x0131, 2, 4, ascii("cam")), (0x8769, 4, 1, u32(0x100))], next: 0x340)
        // The EXIF IFD at 0x100, its date at 0x1A0.
        let date = ascii(Fixtures.dateTime)
        put(date, at: 0x1A0)
        let note = makerNote
        ifd(at: 0x100, [(0x9000, 7, 4, Array("0231".utf8)), (0x9003, 2, date.count, u32(0x1A0)),
                        (0x927C, 7, note.count, u32(makerNoteOffset)), (0xA002, 4, 1, u32(320)), (0xA003, 4, 1, u32(240))])
        put(note, at: makerNoteOffset)
        // IFD1 at 0x340: a "thumbnail" of 16 bytes that must not survive.
        put([0xFF, 0xD8, 0xFF, 0xD9] + [UInt8](repeating: 0xAB, count: 12), at: 0x380)
        ifd(at: 0x340, [(0x0103, 3, 1, u16(6)), (0x0201, 4, 1, u32(0x380)), (0x0202, 4, 1, u32(16))])
        return Array("Exif\0\0".utf8) + tiff
    }

    /// The maker note: an IFD of four entries whose strings follow it, at offsets from the TIFF header.
    public static var makerNote: [UInt8] {
        var bytes: [UInt8] = []
        func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16) }
        let strings = [(0x0006, imageType), (0x0007, firmware), (0x0009, owner + String(repeating: "\0", count: 32 - owner.count - 1))]
        var dataAt = makerNoteOffset + 2 + 4 * 12 + 4
        var data: [UInt8] = []
        bytes += u16(4)
        for (tag, text) in strings {
            let value = Array(text.utf8) + [0]
            bytes += u16(tag) + u16(2) + u32(value.count) + u32(dataAt)
            data += value
            dataAt += value.count
        }
        bytes += u16(0x0010) + u16(4) + u32(1) + u32(0x80000001)  // ModelID, inline
        bytes += u32(0)
        return bytes + data
    }
}
