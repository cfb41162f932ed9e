@testable import Imaging

/// Hostile JPEGs made in the tests from our own encoder's output, by byte edits.
enum HostileJPEG {
    /// A picture with detail everywhere (so scans carry data for every block), deterministic.
    static func noise(width: Int, height: Int, seed: UInt64 = 1) -> Bitmap? {
        guard var bitmap = Bitmap(width: width, height: height) else { return nil }
        var state = seed
        bitmap.withUnsafeMutableBytes { bytes in
            for index in 0..<bytes.count {
                // xorshift: cheap, fixed across runs
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                bytes[index] = UInt8(truncatingIfNeeded: state)
            }
        }
        return bitmap
    }

    /// Our encoder's output for a noise picture.
    static func encoded(width: Int, height: Int, progressive: Bool = false, subsampling: ChromaSubsampling = .s420,
                        quality: Int = 75, exif: [UInt8]? = nil, icc: [UInt8]? = nil) throws -> [UInt8] {
        guard let bitmap = noise(width: width, height: height) else { throw ImageError.outOfMemory(width: width, height: height) }
        return try JPEGEncoder.encode(bitmap, quality: quality, subsampling: subsampling, exif: exif, icc: icc,
                                      progressive: progressive)
    }

    /// One marker segment: its marker byte and where it starts and ends (a scan runs to the next
    /// marker that is not a restart or a stuffed 0xFF).
    struct Segment {
        let marker: UInt8
        let range: Range<Int>
    }

    static func segments(_ bytes: [UInt8]) -> [Segment] {
        var result: [Segment] = []
        var index = 2
        while index + 1 < bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            if marker == 0xD9 {
                result.append(Segment(marker: marker, range: index..<index + 2))
                break
            }
            guard index + 3 < bytes.count else { break }
            var end = index + 2 + (Int(bytes[index + 2]) << 8 | Int(bytes[index + 3]))
            if marker == 0xDA {
                while end + 1 < bytes.count,
                      !(bytes[end] == 0xFF && bytes[end + 1] != 0 && !(0xD0...0xD7).contains(bytes[end + 1])) {
                    end += 1
                }
            }
            guard end <= bytes.count else { break }
            result.append(Segment(marker: marker, range: index..<end))
            index = end
        }
        return result
    }

    static func scans(_ bytes: [UInt8]) -> [Segment] { segments(bytes).filter { $0.marker == 0xDA } }

    /// The same file claiming `width` × `height` pixels in its frame header.
    static func resized(_ bytes: [UInt8], width: Int, height: Int) -> [UInt8] {
        var result = bytes
        for segment in segments(bytes) where [0xC0, 0xC1, 0xC2, 0xC9, 0xCA].contains(segment.marker) {
            let start = segment.range.lowerBound
            result[start + 5] = UInt8(height >> 8); result[start + 6] = UInt8(height & 0xFF)
            result[start + 7] = UInt8(width >> 8); result[start + 8] = UInt8(width & 0xFF)
        }
        return result
    }

    /// The file with its scan number `index` (from 0) repeated `times` more times right after itself.
    static func repeatingScan(_ bytes: [UInt8], index: Int, times: Int) -> [UInt8] {
        let scan = scans(bytes)[index].range
        var result = Array(bytes[..<scan.upperBound])
        result.reserveCapacity(bytes.count + scan.count * times)
        for _ in 0..<times { result += bytes[scan] }
        result += bytes[scan.upperBound...]
        return result
    }

    /// The file with each ICC APP2 segment claiming to be number 7 of 9: markers that cannot be
    /// put together (libjpeg warns and returns no profile).
    static func withMalformedICC(_ bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        let signature = Array("ICC_PROFILE\0".utf8)
        for segment in segments(bytes) where segment.marker == 0xE2 {
            let payload = segment.range.lowerBound + 4
            guard payload + 14 <= bytes.count, Array(bytes[payload..<payload + 12]) == signature else { continue }
            result[payload + 12] = 7
            result[payload + 13] = 9
        }
        return result
    }

    /// The file with its AC Huffman table 1 claiming two more 1-bit codes than a prefix code can
    /// have (and two fewer long ones, so the segment still parses). libjpeg only checks the code
    /// space when decoding starts: a fatal error there, not a warning.
    static func withBogusHuffmanTable(_ bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        for segment in segments(bytes) where segment.marker == 0xC4 {
            var index = segment.range.lowerBound + 4
            while index + 17 <= segment.range.upperBound {
                let counts = (1...16).map { Int(bytes[index + $0]) }
                if bytes[index] == 0x11, let long = (2...16).last(where: { counts[$0 - 1] >= 2 }) {
                    result[index + 1] += 2
                    result[index + long] -= 2
                }
                index += 17 + counts.reduce(0, +)
            }
        }
        return result
    }

    /// An APP1 EXIF payload ("Exif\0\0" + little-endian TIFF) with Make and DateTime in IFD0 and
    /// DateTimeOriginal plus a UserComment and a MakerNote of the given sizes in the EXIF IFD.
    /// With `total`, the UserComment is sized so the payload comes to exactly `total` bytes.
    static func exifPayload(userComment: Int = 0, makerNote: Int = 0, total: Int? = nil) -> [UInt8] {
        guard let total else { return tiffPayload(userComment: userComment, makerNote: makerNote) }
        // The size grows byte for byte with the comment (its data is padded to an even length).
        let base = tiffPayload(userComment: 16, makerNote: makerNote).count
        let payload = tiffPayload(userComment: 16 + total - base, makerNote: makerNote)
        return payload.count == total ? payload : tiffPayload(userComment: 15 + total - base, makerNote: makerNote)
    }

    private static func tiffPayload(userComment: Int, makerNote: Int) -> [UInt8] {
        typealias Entry = (tag: UInt16, type: UInt16, count: Int, data: [UInt8])
        func ascii(_ tag: UInt16, _ text: String) -> Entry {
            let bytes = Array(text.utf8) + [0]
            return (tag, 2, bytes.count, bytes)
        }
        var exifEntries: [Entry] = [ascii(0x9003, "2025:06:01 12:34:56")]
        if userComment > 8 {
            exifEntries.append((0x9286, 7, userComment,
                                Array("ASCII\0\0\0".utf8) + [UInt8](repeating: 0x41, count: userComment - 8)))
        }
        if makerNote > 0 { exifEntries.append((0x927C, 7, makerNote, [UInt8](repeating: 0x4D, count: makerNote))) }

        func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16) }
        /// One IFD at `offset` with its out-of-line data right after it.
        func ifd(_ entries: [Entry], at offset: Int) -> [UInt8] {
            var table = u16(entries.count)
            var data: [UInt8] = []
            let dataStart = offset + 2 + entries.count * 12 + 4
            for entry in entries {
                table += u16(Int(entry.tag)) + u16(Int(entry.type)) + u32(entry.count)
                if entry.data.count <= 4 {
                    table += entry.data + [UInt8](repeating: 0, count: 4 - entry.data.count)
                } else {
                    table += u32(dataStart + data.count)
                    data += entry.data
                    if data.count % 2 == 1 { data.append(0) }
                }
            }
            return table + u32(0) + data
        }
        let make = ascii(0x010F, "Test Camera Co"), dateTime = ascii(0x0132, "2025:06:01 12:34:56")
        let ifd0Entries: [Entry] = [make, dateTime, (0x8769, 4, 1, u32(0))]
        let exifOffset = 8 + ifd(ifd0Entries, at: 8).count
        let ifd0 = ifd([make, dateTime, (0x8769, 4, 1, u32(exifOffset))], at: 8)
        let tiff = [0x49, 0x49, 0x2A, 0x00] + u32(8) + ifd0 + ifd(exifEntries, at: exifOffset)
        return Array("Exif\0\0".utf8) + tiff
    }
}
