/// Makes an MJPEG frame a standalone JPEG file without re-encoding it.
enum JPEGRepair {
    enum Problem: Error, Equatable {
        case notJPEG
        case truncated
    }

    /// The frame's bytes with the standard Huffman tables inserted before the first SOS when no
    /// DHT segment comes before it; unchanged otherwise. `bytes` must be the frame's `bytesused`.
    static func standalone(_ bytes: UnsafeRawBufferPointer) throws(Problem) -> [UInt8] {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw .notJPEG }
        var offset = 2
        var sawHuffmanTables = false
        while offset + 1 < bytes.count {
            guard bytes[offset] == 0xFF else { throw .notJPEG }
            let marker = bytes[offset + 1]
            switch marker {
            case 0xFF:  // fill byte before a marker
                offset += 1
                continue
            case 0x01, 0xD0...0xD7:  // markers without a length
                offset += 2
                continue
            case 0xDA:
                guard offset + 2 < bytes.count else { throw .truncated }
                if sawHuffmanTables { return Array(bytes) }
                return Array(bytes[..<offset]) + StandardHuffmanTables.segment + Array(bytes[offset...])
            case 0xD9:
                throw .truncated  // an end marker before any scan: no picture in this frame
            case 0xC4:
                sawHuffmanTables = true
            default:
                break
            }
            guard offset + 3 < bytes.count else { throw .truncated }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2 else { throw .notJPEG }
            offset += 2 + length
        }
        throw .truncated
    }
}
