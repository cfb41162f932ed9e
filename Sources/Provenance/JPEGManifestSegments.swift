/// Where a C2PA manifest store goes in a JPEG and how it is cut into APP11 segments (JPEG XT boxes,
/// ISO/IEC 18477-3): each segment holds "JP", the box instance number, its sequence number from 1,
/// the superbox's LBox and TBox, and the next piece of the superbox's payload.
public enum JPEGManifestSegments {
    /// A marker segment's length field counts itself and at most 65533 bytes more.
    static let maximumSegmentLength = 0xFFFF
    /// "JP", En, Z, LBox, TBox.
    static let headerLength = 2 + 2 + 4 + 8
    /// The instance number of the manifest store's box, the same in all its segments.
    static let instance: UInt16 = 1

    /// Where the store's segments go: after the SOI marker and the APP0–APP2 segments (JFIF, EXIF,
    /// XMP, ICC) that lead the file, before anything else. Throws when `jpeg` does not begin like a JPEG.
    public static func insertionOffset(_ jpeg: [UInt8]) throws(ProvenanceError) -> Int {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { throw .cannotEmbed("it does not start with a JPEG SOI marker") }
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF, (0xE0...0xE2).contains(jpeg[offset + 1]) {
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            guard length >= 2, offset + 2 + length <= jpeg.count else { throw .cannotEmbed("a marker segment runs past the end of the file") }
            offset += 2 + length
        }
        guard offset + 2 <= jpeg.count, jpeg[offset] == 0xFF else { throw .cannotEmbed("no marker follows the APP segments") }
        return offset
    }

    /// How many bytes of JPEG XT box segments (APP11 with "JP": a C2PA manifest store, usually)
    /// `jpeg` holds before its picture data; 0 for none, or a file that is no JPEG.
    public static func existingStoreSize(_ jpeg: [UInt8]) -> Int {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return 0 }
        var offset = 2, size = 0
        // Marker segments up to the start of scan (SOS, 0xDA), each with its length.
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF, jpeg[offset + 1] != 0xDA {
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            guard length >= 2, offset + 2 + length <= jpeg.count else { break }
            if jpeg[offset + 1] == 0xEB, length >= 4, jpeg[offset + 4] == 0x4A, jpeg[offset + 5] == 0x50 { size += 2 + length }
            offset += 2 + length
        }
        return size
    }

    /// The APP11 segments (markers included) that carry `store`, a whole JUMBF superbox.
    public static func segments(_ store: [UInt8]) -> [UInt8] {
        let header = Array(store.prefix(8))
        let room = maximumSegmentLength - 2 - headerLength
        var output: [UInt8] = []
        var sequence: UInt32 = 1
        var offset = 8
        repeat {
            let piece = store[offset..<min(store.count, offset + room)]
            output += [0xFF, 0xEB] + BigEndian.bytes(UInt16(2 + headerLength + piece.count))
            output += Array("JP".utf8) + BigEndian.bytes(instance) + BigEndian.bytes(sequence) + header + piece
            offset += piece.count
            sequence += 1
        } while offset < store.count
        return output
    }
}
