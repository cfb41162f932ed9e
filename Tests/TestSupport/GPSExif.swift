/// EXIF blocks with a GPS IFD written byte by byte, the way real devices write them (not the way
/// libexif would): tags out of order, signed rationals, references missing, in lower case or as
/// bytes, in either byte order. Used to check the GPS reader against every encoding, without a corpus.
public enum GPSExif {
    public enum Value: Sendable {
        case ascii(String)
        case byte([UInt8])
        case undefined([UInt8])
        case rational([(UInt32, UInt32)])
        case srational([(Int32, Int32)])

        var type: UInt16 {
            switch self {
            case .byte: return 1
            case .ascii: return 2
            case .rational: return 5
            case .undefined: return 7
            case .srational: return 10
            }
        }

        func bytes(bigEndian: Bool) -> (count: Int, data: [UInt8]) {
            func word(_ value: UInt32) -> [UInt8] {
                let bytes = [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
                return bigEndian ? bytes : bytes.reversed()
            }
            switch self {
            case .ascii(let text):
                let data = Array(text.utf8) + [0]
                return (data.count, data)
            case .byte(let data), .undefined(let data): return (data.count, data)
            case .rational(let values): return (values.count, values.flatMap { word($0.0) + word($0.1) })
            case .srational(let values):
                return (values.count, values.flatMap { word(UInt32(bitPattern: $0.0)) + word(UInt32(bitPattern: $0.1)) })
            }
        }
    }

    public struct Entry: Sendable {
        public var tag: UInt16
        public var value: Value

        public init(_ tag: UInt16, _ value: Value) {
            self.tag = tag
            self.value = value
        }
    }

    /// An APP1 payload ("Exif\0\0" + TIFF): IFD0 holding Make and the GPS IFD pointer, then the
    /// GPS IFD with `entries` in the order given, then the values that do not fit in an entry.
    public static func payload(_ entries: [Entry], bigEndian: Bool) -> [UInt8] {
        func short(_ value: UInt16) -> [UInt8] {
            bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
        }
        func long(_ value: UInt32) -> [UInt8] {
            let bytes = [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
            return bigEndian ? bytes : bytes.reversed()
        }
        let make = Array("HMD Global\0".utf8)
        let ifd0 = 8, ifd0Size = 2 + 2 * 12 + 4
        let makeAt = ifd0 + ifd0Size
        let gpsAt = makeAt + make.count + (make.count % 2)
        let gpsSize = 2 + entries.count * 12 + 4
        var tiff: [UInt8] = (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + short(42) + long(UInt32(ifd0))
        tiff += short(2)
        tiff += short(0x010F) + short(2) + long(UInt32(make.count)) + long(UInt32(makeAt))
        tiff += short(0x8825) + short(4) + long(1) + long(UInt32(gpsAt))
        tiff += long(0)
        tiff += make + (make.count % 2 == 1 ? [0] : [])
        var data: [UInt8] = []
        var directory = short(UInt16(entries.count))
        for entry in entries {
            let (count, bytes) = entry.value.bytes(bigEndian: bigEndian)
            directory += short(entry.tag) + short(entry.value.type) + long(UInt32(count))
            if bytes.count <= 4 {
                directory += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
            } else {
                directory += long(UInt32(gpsAt + gpsSize + data.count))
                data += bytes + (bytes.count % 2 == 1 ? [0] : [])
            }
        }
        directory += long(0)
        return Array("Exif\0\0".utf8) + tiff + directory + data
    }

    /// A small JPEG carrying `payload` as its EXIF.
    public static func jpeg(_ payload: [UInt8]) throws -> [UInt8] {
        JPEGSegments.withExif(payload, in: try Fixtures.sampled(.s420, width: 64, height: 48).jpeg())
    }

    /// How the HMD Nokia 8.3 5G writes GPS (ianare-exif-samples jpg/mobile/HMD_Nokia_8.3_5G.jpg):
    /// big-endian; the GPS tags out of order (0x10, 0x01, 0x11, 0x02 …); latitude and longitude as
    /// SRATIONAL; no altitude; GPSDateStamp as UNDEFINED. exiftool reads 60.1467055555556,
    /// 24.9067722222222, image direction 56 (magnetic).
    public static let nokia: [Entry] = [
        Entry(0x10, .ascii("M")),
        Entry(0x01, .ascii("N")),
        Entry(0x11, .rational([(56, 1)])),
        Entry(0x02, .srational([(60, 1), (8, 1), (4814, 100)])),
        Entry(0x03, .ascii("E")),
        Entry(0x04, .srational([(24, 1), (54, 1), (2438, 100)])),
        Entry(0x07, .rational([(11, 1), (12, 1), (32, 1)])),
        Entry(0x1D, .undefined(Array("2022:08:14\0".utf8))),
    ]
}
