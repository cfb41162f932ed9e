/// PNG files in the forms other programs write and Cairo's own writer never does — a palette (with
/// transparency), grey with alpha, 16 bits a sample, Adam7 interlacing — made here byte by byte
/// (zlib's stored blocks, no compression), so the reader is tested on each of them.
public enum PNGFixture {
    public enum Form: Sendable, CustomStringConvertible {
        /// Colour type 3, 8 bits: every distinct colour in PLTE, alpha in tRNS.
        case palette
        /// Colour type 4: grey (the red of each pixel) and alpha, 8 or 16 bits a sample.
        case greyAlpha(bits: Int)
        /// Colour type 2: red, green, blue, 8 or 16 bits a sample (alpha is dropped).
        case rgb(bits: Int)
        /// Colour type 6: red, green, blue and alpha, 8 or 16 bits a sample.
        case rgba(bits: Int)

        /// Whether the form holds an opacity for each pixel.
        public var hasAlpha: Bool {
            if case .rgb = self { return false }
            return true
        }

        public var description: String {
            switch self {
            case .palette: return "palette"
            case .greyAlpha(let bits): return "grey+alpha \(bits)-bit"
            case .rgb(let bits): return "RGB \(bits)-bit"
            case .rgba(let bits): return "RGBA \(bits)-bit"
            }
        }
    }

    public typealias Color = (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)

    /// A PNG of `width` × `height` whose pixel at (x, y) is `color(x, y)` (as far as `form` holds it).
    public static func make(width: Int, height: Int, form: Form, interlaced: Bool = false,
                            color: (_ x: Int, _ y: Int) -> Color) -> [UInt8] {
        let colorType: UInt8, bits: Int
        switch form {
        case .palette: (colorType, bits) = (3, 8)
        case .greyAlpha(let depth): (colorType, bits) = (4, depth)
        case .rgb(let depth): (colorType, bits) = (2, depth)
        case .rgba(let depth): (colorType, bits) = (6, depth)
        }
        var palette: [Color] = []
        var paletteIndex: [UInt32: UInt8] = [:]
        func key(_ c: Color) -> UInt32 { UInt32(c.red) << 24 | UInt32(c.green) << 16 | UInt32(c.blue) << 8 | UInt32(c.alpha) }
        func samples(_ c: Color) -> [UInt8] {
            func sample(_ value: UInt8) -> [UInt8] { bits == 16 ? [value, value] : [value] }  // v × 257 in 16 bits
            switch form {
            case .palette:
                if let index = paletteIndex[key(c)] { return [index] }
                precondition(palette.count < 256, "a palette holds at most 256 colours")
                paletteIndex[key(c)] = UInt8(palette.count)
                palette.append(c)
                return [UInt8(palette.count - 1)]
            case .greyAlpha: return sample(c.red) + sample(c.alpha)
            case .rgb: return sample(c.red) + sample(c.green) + sample(c.blue)
            case .rgba: return sample(c.red) + sample(c.green) + sample(c.blue) + sample(c.alpha)
            }
        }
        // Adam7: seven passes over sub-grids; a pass without pixels has no rows at all.
        let passes = interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var raw: [UInt8] = []
        for (x0, y0, dx, dy) in passes where x0 < width && y0 < height {
            for y in stride(from: y0, to: height, by: dy) {
                raw.append(0)  // filter: none
                for x in stride(from: x0, to: width, by: dx) { raw += samples(color(x, y)) }
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [UInt8(bits), colorType, 0, 0, interlaced ? 1 : 0])
        if case .palette = form {
            png += chunk("PLTE", palette.flatMap { [$0.red, $0.green, $0.blue] })
            png += chunk("tRNS", palette.map(\.alpha))
        }
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return png
    }

    /// A chunk: length, type, data and the CRC-32 of type and data.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }

    /// A zlib stream of stored (uncompressed) deflate blocks and its Adler-32.
    public static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(start + 65535, data.count)
            let length = UInt16(end - start)
            out.append(end == data.count ? 1 : 0)
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            out += data[start..<end]
            start = end
        } while start < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + bigEndian(b << 16 | a)
    }
}
