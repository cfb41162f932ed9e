/// EXIF blocks with maker notes in each layout cameras use, built byte by byte (libexif cannot
/// write maker notes): a plain IFD with offsets from the TIFF header (Canon, Minolta), Nikon's
/// type 3 with its own TIFF header, Olympus' "OLYMPUS\0II" with offsets from the note and the old
/// "OLYMP\0" with values past its declared length, and a binary block (Kodak). Each keeps what
/// exiftool reads from it, so a test can check that every tag survives a rewrite.
public enum MakerNoteLayouts {
    public struct Sample: Sendable {
        public let name: String
        /// "Exif\0\0" + TIFF.
        public let payload: [UInt8]

        /// The fixture photo's bytes with this EXIF spliced in.
        public func jpeg() throws -> [UInt8] {
            JPEGSegments.withExif(payload, in: try FixturePhoto(name: name + ".jpg", width: 320, height: 240).jpeg())
        }
    }

    /// One IFD entry: the value in the writer's byte order.
    public struct Entry {
        let tag: Int, type: Int, count: Int, value: [UInt8]
    }

    /// Bytes in one byte order, with IFDs laid out in them.
    public struct Writer {
        public var bytes: [UInt8]
        let little: Bool

        init(size: Int, little: Bool) {
            bytes = [UInt8](repeating: 0, count: size)
            self.little = little
        }

        func u16(_ value: Int) -> [UInt8] {
            let pair = [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
            return little ? pair : pair.reversed()
        }

        func u32(_ value: Int) -> [UInt8] {
            let quad = (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) }
            return little ? quad : quad.reversed()
        }

        func ascii(_ tag: Int, _ text: String) -> Entry {
            let value = Array(text.utf8) + [0]
            return Entry(tag: tag, type: 2, count: value.count, value: value)
        }

        func short(_ tag: Int, _ value: Int) -> Entry { Entry(tag: tag, type: 3, count: 1, value: u16(value)) }
        func long(_ tag: Int, _ value: Int, type: Int = 4) -> Entry { Entry(tag: tag, type: type, count: 1, value: u32(value)) }
        func undefined(_ tag: Int, _ value: [UInt8]) -> Entry { Entry(tag: tag, type: 7, count: value.count, value: value) }
        func rational(_ tag: Int, _ numerator: Int, _ denominator: Int) -> Entry {
            Entry(tag: tag, type: 5, count: 1, value: u32(numerator) + u32(denominator))
        }

        mutating func put(_ value: [UInt8], at offset: Int) {
            bytes.replaceSubrange(offset..<offset + value.count, with: value)
        }

        /// An IFD at `offset`, its values over 4 bytes from `data` on (even offsets), stored as
        /// their position minus `base`. Returns where the values end.
        @discardableResult
        mutating func ifd(at offset: Int, _ entries: [Entry], data: Int, base: Int = 0, next: Int = 0) -> Int {
            var dataAt = data
            put(u16(entries.count), at: offset)
            for (index, entry) in entries.sorted(by: { $0.tag < $1.tag }).enumerated() {
                var field = entry.value
                if field.count > 4 {
                    put(field, at: dataAt)
                    field = u32(dataAt - base)
                    dataAt += entry.value.count + entry.value.count % 2
                } else {
                    field += [UInt8](repeating: 0, count: 4 - field.count)
                }
                put(u16(entry.tag) + u16(entry.type) + u32(entry.count) + field, at: offset + 2 + index * 12)
            }
            put(u32(next), at: offset + 2 + entries.count * 12)
            return dataAt
        }
    }

    /// Where the maker note starts in every sample's TIFF.
    static let noteOffset = 0x300

    /// A TIFF with Make and Model in IFD0, an EXIF IFD and the maker note `note` (of which the
    /// EXIF entry declares `declared` bytes) at `noteOffset`; `ifd0Extra` more IFD0 entries whose
    /// values go after the maker note.
    static func payload(name: String, make: String, model: String, littleEndian: Bool = true,
                        note: [UInt8], declared: Int? = nil,
                        ifd0Extra: (inout Writer, Int) -> [Entry] = { _, _ in [] }) -> Sample {
        var tiff = Writer(size: noteOffset + note.count + 0x400, little: littleEndian)
        tiff.put((littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + tiff.u16(42) + tiff.u32(8), at: 0)
        let extra = ifd0Extra(&tiff, noteOffset + note.count + 0x100)
        tiff.ifd(at: 8, [tiff.ascii(0x010F, make), tiff.ascii(0x0110, model), tiff.short(0x0112, 1),
                         tiff.long(0x8769, 0x180)] + extra, data: 0x90)
        tiff.ifd(at: 0x180, [tiff.undefined(0x9000, Array("0230".utf8)), tiff.ascii(0x9003, "2004:05:06 07:08:09"),
                             Entry(tag: 0x927C, type: 7, count: declared ?? note.count, value: tiff.u32(noteOffset)),
                             tiff.long(0xA002, 320), tiff.long(0xA003, 240)], data: 0x240)
        tiff.put(note, at: noteOffset)
        return Sample(name: name, payload: Array("Exif\0\0".utf8) + tiff.bytes)
    }

    /// A Canon maker note: a plain IFD, offsets from the TIFF header, in `noteLittleEndian` order.
    public static func canon(littleEndian: Bool = true, noteLittleEndian: Bool = true) -> Sample {
        var note = Writer(size: 0x100, little: noteLittleEndian)
        note.ifd(at: 0, [note.ascii(0x0006, "Canon EOS 600D Image"), note.ascii(0x0007, "Firmware Version 1.0.2"),
                         note.ascii(0x0009, "Ana Lima"), note.long(0x0010, 0x80000286)],
                 data: 2 + 4 * 12 + 4, base: -noteOffset)
        let name = littleEndian == noteLittleEndian ? "canon" : "canon-mixed-order"
        return payload(name: name, make: "Canon", model: "Canon EOS REBEL T3i", littleEndian: littleEndian, note: note.bytes)
    }

    /// A Nikon type 3 maker note: "Nikon\0\2\x10\0\0", its own big-endian TIFF header, offsets from
    /// that header. Its last values and its preview IFD lie past the bytes it declares (as a
    /// Coolpix E5700's do); the preview IFD points at a preview JPEG of `previewLength` bytes.
    public static let nikonPreviewLength = 64
    /// `wholeNote`: the note declares all its bytes, as newer Nikons' do, the preview among them.
    public static func nikonType3(littleEndian: Bool = true, wholeNote: Bool = false) -> Sample {
        var note = Writer(size: 0x200, little: false)
        note.put(Array("Nikon\0".utf8) + [2, 0x10, 0, 0] + [0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8], at: 0)
        let inner = 10
        let previewIFD = 0x100, preview = 0x140
        note.put([0xFF, 0xD8, 0xFF, 0xD9] + [UInt8](repeating: 0x5A, count: nikonPreviewLength - 4), at: preview)
        note.ifd(at: previewIFD, [note.short(0x0103, 6), note.long(0x0201, preview - inner), note.long(0x0202, nikonPreviewLength)],
                 data: previewIFD + 2 + 3 * 12 + 4, base: inner)
        note.ifd(at: inner + 8, [note.undefined(0x0001, Array("0210".utf8)), note.ascii(0x0004, "FINE   "),
                                 note.ascii(0x0005, "AUTO        "), note.long(0x0011, previewIFD - inner),
                                 note.ascii(0x0095, "OFF ")],
                 data: 0xC0, base: inner)
        // Declared: the IFD, Quality and WhiteBalance; NoiseReduction and the preview IFD lie past them.
        return payload(name: (littleEndian ? "nikon-type3" : "nikon-type3-mm") + (wholeNote ? "-whole" : ""), make: "NIKON",
                       model: "E5700", littleEndian: littleEndian, note: note.bytes, declared: wholeNote ? nil : 0xD6)
    }

    /// An Olympus maker note of the E-5 era: "OLYMPUS\0II\3\0", offsets from the note, an
    /// Equipment sub-IFD and a CameraSettings sub-IFD pointing at a preview.
    public static func olympus() -> Sample {
        var note = Writer(size: 0x140, little: true)
        note.put(Array("OLYMPUS\0II".utf8) + [3, 0], at: 0)
        let equipment = 0x40, settings = 0x80, image = 0x100
        note.ifd(at: equipment, [note.undefined(0x0000, Array("0100".utf8)), note.ascii(0x0100, "S0034"),
                                 note.ascii(0x0101, "BHP123456")], data: equipment + 2 + 3 * 12 + 4)
        note.put(preview, at: image)
        note.ifd(at: settings, [note.undefined(0x0000, Array("0100".utf8)), note.long(0x0100, 1), note.long(0x0101, image),
                                note.long(0x0102, preview.count)], data: settings + 2 + 4 * 12 + 4)
        note.ifd(at: 12, [note.undefined(0x0000, Array("0100".utf8)), note.long(0x2010, equipment, type: 13),
                          note.long(0x2020, settings, type: 13)], data: 12 + 2 + 3 * 12 + 4)
        return payload(name: "olympus", make: "OLYMPUS IMAGING CORP.", model: "E-5", note: note.bytes)
    }

    /// An old Olympus maker note ("OLYMP\0\1\0", offsets from the TIFF header) whose values lie
    /// past the bytes it declares, as the E-10's and E-20's do.
    public static func olympusOld() -> Sample {
        var note = Writer(size: 0x100, little: true)
        note.put(Array("OLYMP\0".utf8) + [1, 0], at: 0)
        note.ifd(at: 8, [Entry(tag: 0x0200, type: 4, count: 3, value: note.u32(0) + note.u32(1) + note.u32(2)), note.short(0x0201, 2),
                         note.ascii(0x0207, "SX756"), note.undefined(0x0209, Array("OLYMPUS DIGITAL CAMERA\0\0\0\0\0\0\0\0\0\0".utf8))],
                 data: 0x40, base: -noteOffset)
        return payload(name: "olympus-old", make: "OLYMPUS OPTICAL CO.,LTD", model: "E-10", note: note.bytes, declared: 0x40)
    }

    /// A Minolta maker note (a plain IFD, offsets from the TIFF header) whose preview pointer
    /// points past the end of the file, as the DiMAGE 7Hi's and A1's do.
    public static func minolta() -> Sample {
        var note = Writer(size: 0x80, little: false)
        note.ifd(at: 0, [note.undefined(0x0000, Array("MLT0".utf8)), note.long(0x0040, 123456),
                         note.long(0x0088, 0x7FFF0), note.long(0x0089, 4096)], data: 2 + 4 * 12 + 4, base: -noteOffset)
        return payload(name: "minolta", make: "Minolta Co., Ltd.", model: "DiMAGE 7Hi", littleEndian: false, note: note.bytes)
    }

    /// A Kodak maker note that is a binary block (exiftool's Kodak Type2), and Kodak's private
    /// IFD in IFD0 (tag 0x8290, or `privateTag`).
    public static func kodak(privateTag: Int = 0x8290) -> Sample {
        var note = Writer(size: 0x80, little: false)
        note.put(Array("Eastman Kodak Company".utf8), at: 0x08)
        note.put(Array("DCS Pro Back".utf8), at: 0x28)
        note.put(note.u32(4500) + note.u32(3000), at: 0x6C)
        return payload(name: privateTag == 0x8290 ? "kodak" : "kodak-private-ifd", make: "Kodak", model: "DCS Pro Back", littleEndian: false, note: note.bytes) { tiff, at in
            tiff.ifd(at: at, [tiff.undefined(0x0000, [1, 0, 0, 0]), tiff.rational(0x0003, 1234, 100)], data: at + 2 + 2 * 12 + 4)
            return [tiff.long(privateTag, at)]
        }
    }

    /// A preview JPEG of 64 bytes as maker notes keep them, to find in a file.
    public static let preview: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9] + [UInt8](repeating: 0x5A, count: 60)

    /// A Pentax maker note: "AOC\0MM", an IFD with offsets from the TIFF header, the preview's
    /// length and start in tags 3 and 4.
    public static func pentax() -> Sample {
        var note = Writer(size: 0xC0, little: false)
        note.put(Array("AOC\0MM".utf8), at: 0)
        note.put(preview, at: 0x80)
        note.ifd(at: 6, [note.undefined(0x0000, [4, 0, 0, 0]), note.long(0x0003, preview.count),
                         note.long(0x0004, noteOffset + 0x80), note.ascii(0x0029, "1234567890")],
                 data: 6 + 2 + 4 * 12 + 4, base: -noteOffset)
        return payload(name: "pentax", make: "PENTAX Corporation", model: "PENTAX K10D", note: note.bytes)
    }

    /// A Casio type 2 maker note: "QVC\0\0\0", an IFD with offsets from the TIFF header, the
    /// preview both pointed at (tags 3 and 4) and held (tag 0x2000).
    public static func casio() -> Sample {
        var note = Writer(size: 0xE0, little: false)
        note.put(Array("QVC\0\0\0".utf8), at: 0)
        let dataAt = 6 + 2 + 4 * 12 + 4
        note.ifd(at: 6, [note.long(0x0003, preview.count), note.long(0x0004, noteOffset + dataAt),
                         note.undefined(0x2000, preview), note.short(0x3000, 2)],
                 data: dataAt, base: -noteOffset)
        return payload(name: "casio", make: "CASIO COMPUTER CO.,LTD.", model: "EX-Z750", note: note.bytes)
    }

    /// A Sony Ericsson maker note: "SEMC MS\0", its IFD after 20 bytes, offsets from the 12th.
    public static func sonyEricsson() -> Sample {
        var note = Writer(size: 0xC0, little: true)
        note.put(Array("SEMC MS\0".utf8) + [0, 0, 0, 1, 0, 0x10, 0, 0] + [0, 0, 0, 0], at: 0)
        note.put(preview, at: 0x70)
        note.ifd(at: 20, [note.undefined(0x2000, Array("0100".utf8)), note.long(0x0201, 0x70 - 12),
                          note.long(0x0202, preview.count)], data: 20 + 2 + 3 * 12 + 4, base: 12)
        return payload(name: "sony-ericsson", make: "Sony Ericsson", model: "K800i", note: note.bytes)
    }

    public static var all: [Sample] {
        [canon(), canon(littleEndian: false), nikonType3(), nikonType3(littleEndian: false), nikonType3(wholeNote: true),
         olympus(), olympusOld(), minolta(), kodak(), pentax(), casio(), sonyEricsson()]
    }
}
