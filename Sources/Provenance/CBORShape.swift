/// Checks CBOR's structure before libcbor builds it: one item that fills the bytes exactly, every
/// declared length and count within the bytes that are there, nesting at most `maxDepth` deep. A
/// hostile length then cannot make the decoder allocate for items that do not exist.
enum CBORShape {
    static func isWellFormed(_ bytes: [UInt8], maxDepth: Int) -> Bool {
        var reader = Reader(bytes: bytes, maxDepth: maxDepth)
        return reader.item(depth: 0) && reader.index == bytes.count
    }

    /// The tag that `bytes` start with and the size of its head; nil when they start with another item.
    static func tag(at bytes: [UInt8]) -> (tag: UInt64, headSize: Int)? {
        var reader = Reader(bytes: bytes, maxDepth: 0)
        guard let (major, argument) = reader.head(), major == 6, let argument else { return nil }
        return (argument, reader.index)
    }

    private struct Reader {
        let bytes: [UInt8]
        let maxDepth: Int
        var index = 0

        var remaining: Int { bytes.count - index }

        /// The major type and argument of the next head; argument nil for an indefinite length.
        mutating func head() -> (major: UInt8, argument: UInt64?)? {
            guard index < bytes.count else { return nil }
            let initial = bytes[index]
            index += 1
            let major = initial >> 5, info = initial & 0x1f
            switch info {
            case ..<24: return (major, UInt64(info))
            case 24...27:
                let size = 1 << Int(info - 24)
                guard remaining >= size else { return nil }
                let argument = bytes[index..<index + size].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                index += size
                return (major, argument)
            case 31: return (major, nil)
            default: return nil
            }
        }

        mutating func item(depth: Int) -> Bool {
            guard depth <= maxDepth, let (major, argument) = head() else { return false }
            switch (major, argument) {
            case (0, _?), (1, _?): return true
            case (2, let length?), (3, let length?):
                guard length <= UInt64(remaining) else { return false }
                index += Int(length)
                return true
            case (2, nil), (3, nil):
                // Chunks of the same major type, each definite, until the break byte.
                while index < bytes.count, bytes[index] != 0xff {
                    guard bytes[index] >> 5 == major, bytes[index] & 0x1f != 31, item(depth: depth + 1) else { return false }
                }
                return skipBreak()
            case (4, let count?), (5, let count?):
                // Every item takes at least a byte.
                guard count <= UInt64(remaining) / (major == 5 ? 2 : 1) else { return false }
                for _ in 0..<Int(count) * (major == 5 ? 2 : 1) where !item(depth: depth + 1) { return false }
                return true
            case (4, nil), (5, nil):
                var items = 0
                while index < bytes.count, bytes[index] != 0xff {
                    guard item(depth: depth + 1) else { return false }
                    items += 1
                }
                return (major == 4 || items % 2 == 0) && skipBreak()
            case (6, _?): return item(depth: depth + 1)
            case (7, _?): return true  // simple values and floats; their bytes were the argument
            default: return false  // a break where an item belongs, or an indefinite tag or integer
            }
        }

        mutating func skipBreak() -> Bool {
            guard index < bytes.count, bytes[index] == 0xff else { return false }
            index += 1
            return true
        }
    }
}
