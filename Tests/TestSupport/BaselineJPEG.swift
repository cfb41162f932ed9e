import Imaging

#if canImport(Glibc)
import Glibc
#endif

/// A small baseline JPEG encoder for fixtures libjpeg (as Imaging drives it) does not make: any
/// luma sampling factors (4:4:0 among them) and the standard Huffman tables of ITU T.81 Annex K,
/// unoptimised, as an MJPEG camera writes them (the Annex K quantisation tables are scaled for the
/// quality the IJG way). Plain and slow; meant for small test pictures.
public enum BaselineJPEG {
    /// Encodes `bitmap` as YCbCr with `luma` sampling factors (chroma is 1×1: (2, 2) is 4:2:0,
    /// (2, 1) 4:2:2, (1, 2) 4:4:0, (1, 1) 4:4:4). `segments` (whole marker segments, APPn) go right
    /// after SOI.
    public static func encode(_ bitmap: Bitmap, quality: Int = 90, luma: (h: Int, v: Int) = (2, 1),
                              segments: [[UInt8]] = []) -> [UInt8] {
        precondition((1...2).contains(luma.h) && (1...2).contains(luma.v), "sampling factors are 1 or 2")
        let planes = Planes(bitmap, luma: luma)
        let luminance = scaled(lumaQuantisation, quality), chrominance = scaled(chromaQuantisation, quality)

        var out: [UInt8] = [0xFF, 0xD8]
        for segment in segments { out += segment }
        out += JPEGSegments.segment(0xDB, [0x00] + zigzag.map { luminance[$0] } + [0x01] + zigzag.map { chrominance[$0] })
        out += JPEGSegments.segment(0xC0, [8] + be16(bitmap.height) + be16(bitmap.width) + [3,
                                           1, UInt8(luma.h << 4 | luma.v), 0, 2, 0x11, 1, 3, 0x11, 1])
        out += standardTablesSegment
        out += JPEGSegments.segment(0xDA, [3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0])

        var writer = BitWriter()
        var previousDC = [0, 0, 0]
        for mcuY in 0..<planes.mcuRows {
            for mcuX in 0..<planes.mcuColumns {
                for blockY in 0..<luma.v {
                    for blockX in 0..<luma.h {
                        let block = planes.y.block(x: (mcuX * luma.h + blockX) * 8, y: (mcuY * luma.v + blockY) * 8)
                        writer.encode(block, quantisation: luminance, dc: dcLuminance, ac: acLuminance, previousDC: &previousDC[0])
                    }
                }
                for (index, plane) in [planes.cb, planes.cr].enumerated() {
                    writer.encode(plane.block(x: mcuX * 8, y: mcuY * 8), quantisation: chrominance,
                                  dc: dcChrominance, ac: acChrominance, previousDC: &previousDC[index + 1])
                }
            }
        }
        writer.flush()
        return out + writer.bytes + [0xFF, 0xD9]
    }

    /// The DHT segment with the four Annex K tables, in the order MJPEG decoders insert them.
    public static let standardTablesSegment: [UInt8] = {
        var body: [UInt8] = []
        for (id, table) in [(0x00, dcLuminance), (0x10, acLuminance), (0x01, dcChrominance), (0x11, acChrominance)] {
            body += [UInt8(id)] + table.counts + table.symbols
        }
        return JPEGSegments.segment(0xC4, body)
    }()

    // MARK: samples

    /// One component's samples, padded to whole MCUs by repeating the last row and column.
    struct Plane {
        let width: Int, height: Int
        var samples: [Float]

        func block(x: Int, y: Int) -> [Float] {
            var block = [Float](repeating: 0, count: 64)
            for row in 0..<8 { for column in 0..<8 { block[row * 8 + column] = samples[(y + row) * width + x + column] } }
            return block
        }
    }

    struct Planes {
        let mcuColumns: Int, mcuRows: Int
        var y: Plane, cb: Plane, cr: Plane

        init(_ bitmap: Bitmap, luma: (h: Int, v: Int)) {
            mcuColumns = (bitmap.width + 8 * luma.h - 1) / (8 * luma.h)
            mcuRows = (bitmap.height + 8 * luma.v - 1) / (8 * luma.v)
            let width = mcuColumns * 8 * luma.h, height = mcuRows * 8 * luma.v
            var full = (y: [Float](), cb: [Float](), cr: [Float]())
            full.y.reserveCapacity(width * height)
            for row in 0..<height {
                for column in 0..<width {
                    let p = bitmap.rgb(x: min(column, bitmap.width - 1), y: min(row, bitmap.height - 1))
                    let (r, g, b) = (Float(p.red), Float(p.green), Float(p.blue))
                    // JFIF's full-range YCbCr (T.871), centred on zero for the DCT.
                    full.y.append(0.299 * r + 0.587 * g + 0.114 * b - 128)
                    full.cb.append(-0.168736 * r - 0.331264 * g + 0.5 * b)
                    full.cr.append(0.5 * r - 0.418688 * g - 0.081312 * b)
                }
            }
            y = Plane(width: width, height: height, samples: full.y)
            cb = Self.downsampled(full.cb, width: width, height: height, by: luma)
            cr = Self.downsampled(full.cr, width: width, height: height, by: luma)
        }

        /// Box-filtered: each chroma sample is the mean of the `h` × `v` luma-sized samples it covers.
        static func downsampled(_ samples: [Float], width: Int, height: Int, by factor: (h: Int, v: Int)) -> Plane {
            let smallWidth = width / factor.h, smallHeight = height / factor.v
            var result = [Float](repeating: 0, count: smallWidth * smallHeight)
            for row in 0..<smallHeight {
                for column in 0..<smallWidth {
                    var sum: Float = 0
                    for dy in 0..<factor.v { for dx in 0..<factor.h { sum += samples[(row * factor.v + dy) * width + column * factor.h + dx] } }
                    result[row * smallWidth + column] = sum / Float(factor.h * factor.v)
                }
            }
            return Plane(width: smallWidth, height: smallHeight, samples: result)
        }
    }

    // MARK: transform and entropy coding

    /// cosines[u * 8 + x] = C(u)/2 · cos((2x + 1)uπ/16), the 1-D factors of the forward DCT.
    static let cosines: [Float] = (0..<64).map { index in
        let u = index / 8, x = index % 8
        return (u == 0 ? Float(0.5).squareRoot() : 1) / 2 * Float(cos(Double(2 * x + 1) * Double(u) * .pi / 16))
    }

    /// The 8×8 forward DCT, rows then columns, in natural order.
    static func forwardDCT(_ block: [Float]) -> [Float] {
        var rows = [Float](repeating: 0, count: 64), result = [Float](repeating: 0, count: 64)
        for y in 0..<8 {
            for u in 0..<8 {
                var sum: Float = 0
                for x in 0..<8 { sum += cosines[u * 8 + x] * block[y * 8 + x] }
                rows[y * 8 + u] = sum
            }
        }
        for u in 0..<8 {
            for v in 0..<8 {
                var sum: Float = 0
                for y in 0..<8 { sum += cosines[v * 8 + y] * rows[y * 8 + u] }
                result[v * 8 + u] = sum
            }
        }
        return result
    }

    struct BitWriter {
        var bytes: [UInt8] = []
        private var accumulator: UInt32 = 0
        private var count = 0

        mutating func write(_ bits: Int, length: Int) {
            guard length > 0 else { return }
            accumulator = accumulator << UInt32(length) | UInt32(bits & (1 << length - 1))
            count += length
            while count >= 8 {
                let byte = UInt8(truncatingIfNeeded: accumulator >> UInt32(count - 8))
                bytes.append(byte)
                if byte == 0xFF { bytes.append(0) }  // byte stuffing
                count -= 8
            }
            accumulator &= (1 << UInt32(count)) - 1
        }

        /// Pads the last byte with 1 bits.
        mutating func flush() {
            if count > 0 { write((1 << (8 - count)) - 1, length: 8 - count) }
        }

        mutating func encode(_ block: [Float], quantisation: [UInt8], dc: HuffmanTable, ac: HuffmanTable, previousDC: inout Int) {
            let coefficients = BaselineJPEG.forwardDCT(block)
            let quantised = zigzag.map { Int((coefficients[$0] / Float(quantisation[$0])).rounded()) }
            let difference = quantised[0] - previousDC
            previousDC = quantised[0]
            let dcCategory = Self.category(difference)
            write(dc.codes[dcCategory].code, length: dc.codes[dcCategory].length)
            write(Self.magnitudeBits(difference, category: dcCategory), length: dcCategory)
            var run = 0
            for index in 1..<64 {
                let value = quantised[index]
                if value == 0 { run += 1; continue }
                while run > 15 {
                    write(ac.codes[0xF0].code, length: ac.codes[0xF0].length)  // ZRL: sixteen zeros
                    run -= 16
                }
                let category = Self.category(value)
                let symbol = run << 4 | category
                write(ac.codes[symbol].code, length: ac.codes[symbol].length)
                write(Self.magnitudeBits(value, category: category), length: category)
                run = 0
            }
            if run > 0 { write(ac.codes[0x00].code, length: ac.codes[0x00].length) }  // EOB
        }

        /// The number of bits of |value| (T.81 F.1.2.1).
        static func category(_ value: Int) -> Int {
            var magnitude = abs(value), bits = 0
            while magnitude > 0 { bits += 1; magnitude >>= 1 }
            return bits
        }

        /// Negative values are sent as their one's complement in `category` bits.
        static func magnitudeBits(_ value: Int, category: Int) -> Int {
            value >= 0 ? value : value + (1 << category) - 1
        }
    }

    struct HuffmanTable {
        let counts: [UInt8]
        let symbols: [UInt8]
        /// Code and length for each symbol (T.81 Annex C); length 0 for a symbol without a code.
        let codes: [(code: Int, length: Int)]

        init(counts: [UInt8], symbols: [UInt8]) {
            self.counts = counts
            self.symbols = symbols
            var codes = [(code: Int, length: Int)](repeating: (0, 0), count: 256)
            var code = 0, next = 0
            for length in 1...16 {
                for _ in 0..<Int(counts[length - 1]) {
                    codes[Int(symbols[next])] = (code, length)
                    code += 1
                    next += 1
                }
                code <<= 1
            }
            self.codes = codes
        }
    }

    // MARK: tables (ITU T.81 Annex K)

    static func scaled(_ table: [UInt8], _ quality: Int) -> [UInt8] {
        // The IJG quality scaling: 50 keeps the tables, 100 makes them all 1.
        let quality = min(max(quality, 1), 100)
        let scale = quality < 50 ? 5000 / quality : 200 - 2 * quality
        return table.map { UInt8(min(max((Int($0) * scale + 50) / 100, 1), 255)) }
    }

    /// The natural-order index of each coefficient in zigzag order.
    static let zigzag = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
        35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
    ]

    static let lumaQuantisation: [UInt8] = [
        16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56,
        14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
        49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
    ]

    static let chromaQuantisation: [UInt8] = [
        17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99,
        47, 66, 99, 99, 99, 99, 99, 99,
    ] + [UInt8](repeating: 99, count: 32)

    static let dcLuminance = HuffmanTable(counts: [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0], symbols: Array(0...11))
    static let dcChrominance = HuffmanTable(counts: [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0], symbols: Array(0...11))

    /// The AC symbols are (run << 4 | size), listed by code length.
    static let acLuminance = HuffmanTable(counts: [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7D], symbols: [
        0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07,
        0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xA1, 0x08, 0x23, 0x42, 0xB1, 0xC1, 0x15, 0x52, 0xD1, 0xF0,
        0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0A, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x25, 0x26, 0x27, 0x28,
        0x29, 0x2A, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49,
        0x4A, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69,
        0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
        0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7,
        0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3, 0xC4, 0xC5,
        0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA, 0xE1, 0xE2,
        0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8,
        0xF9, 0xFA,
    ])

    static let acChrominance = HuffmanTable(counts: [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77], symbols: [
        0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71,
        0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xA1, 0xB1, 0xC1, 0x09, 0x23, 0x33, 0x52, 0xF0,
        0x15, 0x62, 0x72, 0xD1, 0x0A, 0x16, 0x24, 0x34, 0xE1, 0x25, 0xF1, 0x17, 0x18, 0x19, 0x1A, 0x26,
        0x27, 0x28, 0x29, 0x2A, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
        0x49, 0x4A, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68,
        0x69, 0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
        0x88, 0x89, 0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0xA2, 0xA3, 0xA4, 0xA5,
        0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3,
        0xC4, 0xC5, 0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA,
        0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8,
        0xF9, 0xFA,
    ])

    static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
}
