/// Reading and splicing the marker segments of a JPEG file (those before the first SOS).
public enum JPEGSegments {
    /// One marker segment: the marker byte (0xE1 for APP1 …), where it starts, and its body (what
    /// follows the two length bytes).
    public struct Segment: Sendable {
        public let marker: UInt8
        public let offset: Int
        public let body: [UInt8]
        /// Marker, length and body: the bytes the segment takes in the file.
        public var size: Int { body.count + 4 }
    }

    /// The segments between SOI and the first SOS (SOS included); empty when `jpeg` does not start with SOI.
    public static func segments(_ jpeg: [UInt8]) -> [Segment] {
        guard jpeg.starts(with: [0xFF, 0xD8]) else { return [] }
        var found: [Segment] = []
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            guard length >= 2, offset + 2 + length <= jpeg.count else { break }
            found.append(Segment(marker: jpeg[offset + 1], offset: offset, body: Array(jpeg[offset + 4..<offset + 2 + length])))
            if jpeg[offset + 1] == 0xDA { break }
            offset += 2 + length
        }
        return found
    }

    /// A whole segment: 0xFF, `marker`, the 16-bit length, `body`.
    public static func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
        precondition(body.count <= 65533, "a marker segment holds at most 65533 bytes")
        let length = body.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + body
    }

    /// The (horizontal, vertical) sampling factors of each component in the frame header.
    public static func samplingFactors(_ jpeg: [UInt8]) -> [(h: Int, v: Int)] {
        guard let frame = segments(jpeg).first(where: { (0xC0...0xCF).contains($0.marker) && ![0xC4, 0xC8, 0xCC].contains($0.marker) }),
              frame.body.count >= 6 else { return [] }
        let count = Int(frame.body[5])
        return (0..<count).compactMap { index in
            let at = 6 + index * 3 + 1
            guard at < frame.body.count else { return nil }
            return (Int(frame.body[at] >> 4), Int(frame.body[at] & 0x0F))
        }
    }

    /// The APP1 EXIF payload ("Exif\0\0" + TIFF) of the file, if it has one.
    public static func exifPayload(_ jpeg: [UInt8]) -> [UInt8]? {
        segments(jpeg).first { $0.marker == 0xE1 && $0.body.starts(with: Array("Exif\0\0".utf8)) }?.body
    }

    /// The file with `payload` as its EXIF APP1 segment right after SOI, where cameras put it; a JFIF
    /// APP0 and any EXIF already there are taken out.
    public static func withExif(_ payload: [UInt8], in jpeg: [UInt8]) -> [UInt8] {
        var result: [UInt8] = [0xFF, 0xD8] + segment(0xE1, payload)
        var rest = 2
        for found in segments(jpeg) {
            let isJFIF = found.marker == 0xE0 && found.body.starts(with: Array("JFIF\0".utf8))
            let isExif = found.marker == 0xE1 && found.body.starts(with: Array("Exif\0\0".utf8))
            guard isJFIF || isExif else { break }
            rest = found.offset + found.size
        }
        result += jpeg[rest...]
        return result
    }

    /// APP2 segments carrying an ICC profile, split in chunks the way ICC.1 Annex B.4 says.
    public static func iccSegments(_ profile: [UInt8]) -> [[UInt8]] {
        let header = Array("ICC_PROFILE\0".utf8)
        let chunkSize = 65533 - header.count - 2
        let chunks = stride(from: 0, to: profile.count, by: chunkSize).map { Array(profile[$0..<min($0 + chunkSize, profile.count)]) }
        return chunks.enumerated().map { index, chunk in
            segment(0xE2, header + [UInt8(index + 1), UInt8(chunks.count)] + chunk)
        }
    }
}
