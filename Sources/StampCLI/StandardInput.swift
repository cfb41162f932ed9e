import Platform

/// Standard input read as a list of paths, one per line, byte for byte (names need not be UTF-8).
enum StandardInput {
    static func lines() -> [String] {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { FileSystem.readSome(0, into: $0) }
            guard count > 0 else { break }
            data += buffer[..<count]
        }
        return data.split(separator: 0x0A).map { line in
            PathEncoding.decode(line.last == 0x0D ? line.dropLast() : line)
        }.filter { !$0.allSatisfy(\.isWhitespace) }
    }
}
