import Platform

#if canImport(Glibc)
import Glibc
#endif

/// The gazetteer's index as a file in the cache folder: the places in tree order, so loading is
/// one read and no rebuild. The header names the table it was built from (path, size, time); an
/// index of another table, another version or a damaged file is not used (it is rebuilt).
///
/// Layout (little-endian): "stampcam places\n", version u32, count u32, source size u64, source
/// mtime i64, source path length u32 and bytes; count latitudes f64; count longitudes f64;
/// count + 1 label starts u32; the labels (name, region, country joined by U+001F).
enum PlaceIndexFile {
    struct Source: Equatable {
        var path: String
        var size: Int
        var modified: Int
    }

    static let magic = Array("stampcam places\n".utf8)
    static let version: UInt32 = 2
    /// More than GeoNames' cities500 needs; a larger file is not ours.
    static let maxCount = 2_000_000

    static func encode(_ gazetteer: Gazetteer, source: Source) -> [UInt8] {
        var out = magic
        append(&out, UInt64(version), bytes: 4)
        append(&out, UInt64(gazetteer.count), bytes: 4)
        append(&out, UInt64(source.size), bytes: 8)
        append(&out, UInt64(bitPattern: Int64(source.modified)), bytes: 8)
        let path = Array(source.path.utf8)
        append(&out, UInt64(path.count), bytes: 4)
        out += path
        out.reserveCapacity(out.count + gazetteer.count * 20 + gazetteer.labels.count + 4)
        for value in gazetteer.latitudes { append(&out, value.bitPattern, bytes: 8) }
        for value in gazetteer.longitudes { append(&out, value.bitPattern, bytes: 8) }
        for value in gazetteer.labelStarts { append(&out, UInt64(value), bytes: 4) }
        return out + gazetteer.labels
    }

    /// The gazetteer in `bytes` when they are an index of `source`; nil otherwise (another table,
    /// another version, or damage: every number is checked before use).
    static func decode(_ bytes: [UInt8], source: Source) -> Gazetteer? {
        var reader = Reader(bytes: bytes)
        guard reader.take(magic.count) == magic, reader.number(4) == UInt64(version),
              let count = reader.number(4).map(Int.init), count <= maxCount,
              reader.number(8) == UInt64(source.size), reader.number(8) == UInt64(bitPattern: Int64(source.modified)),
              let pathLength = reader.number(4).map(Int.init), let path = reader.take(pathLength),
              path == Array(source.path.utf8),
              let latitudes: [Double] = reader.array(count), let longitudes: [Double] = reader.array(count),
              let starts: [UInt32] = reader.array(count + 1) else { return nil }
        let labels = Array(bytes[reader.offset...])
        guard starts.first == 0, Int(starts.last ?? 0) == labels.count, zip(starts, starts.dropFirst()).allSatisfy({ $0 <= $1 }),
              zip(latitudes, longitudes).allSatisfy({ $0.isFinite && $1.isFinite && abs($0) <= 90 && abs($1) <= 180 }) else {
            return nil
        }
        return Gazetteer(latitudes: latitudes, longitudes: longitudes, labels: labels, labelStarts: starts)
    }

    /// Writes `bytes` to `path` whole or not at all (a temporary file renamed over it).
    static func write(_ bytes: [UInt8], to path: String) throws(Errno) {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !folder.isEmpty { try FileSystem.makeFolders(FilePath(folder)) }
        let temporary = path + ".tmp-\(getpid())"
        let fd = try Errno.retrying { () throws(Errno) in
            try Errno.check(FilePath(temporary).withCString { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) })
        }
        do {
            try FileSystem.writeAll(fd, bytes)
            close(fd)
            try FileSystem.rename(FilePath(temporary), to: FilePath(path))
        } catch {
            close(fd)
            _ = FileSystem.remove(FilePath(temporary))
            throw error
        }
    }

    private static func append(_ out: inout [UInt8], _ value: UInt64, bytes: Int) {
        for shift in 0..<bytes { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(shift)))) }
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func take(_ count: Int) -> [UInt8]? {
            guard count >= 0, offset + count <= bytes.count else { return nil }
            defer { offset += count }
            return Array(bytes[offset..<offset + count])
        }

        /// `count` little-endian values of a fixed-size type, copied as they are (this is x86-64 and
        /// arm64 Linux: little-endian).
        mutating func array<T: FixedWidthInteger & UnsignedInteger>(_ count: Int) -> [T]? {
            let size = MemoryLayout<T>.size * count
            guard offset + size <= bytes.count else { return nil }
            defer { offset += size }
            return bytes[offset..<offset + size].withUnsafeBytes { raw in
                (0..<count).map { T(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * MemoryLayout<T>.size, as: T.self)) }
            }
        }

        mutating func array(_ count: Int) -> [Double]? {
            let bits: [UInt64]? = array(count)
            return bits?.map(Double.init(bitPattern:))
        }

        mutating func number(_ size: Int) -> UInt64? {
            guard offset + size <= bytes.count else { return nil }
            var value: UInt64 = 0
            for index in 0..<size { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
            offset += size
            return value
        }
    }
}
