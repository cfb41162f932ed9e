import Library
import Platform

/// Writes a file a command makes (`export`, `report`) by the rules of every write: whole or not at
/// all, never over one of the command's inputs, and over an existing file only with `--overwrite`
/// (otherwise `NAME-1.EXT`); a FIFO or a device is written into, never replaced.
enum OutputFile {
    /// Returns the path written.
    static func write(_ bytes: [UInt8], to target: String, overwrite: Bool, protected: Set<FileIdentity> = []) throws -> String {
        let slash = target.lastIndex(of: "/")
        let folder = slash.map { $0 == target.startIndex ? "/" : String(target[..<$0]) } ?? "."
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        guard !name.isEmpty else {
            throw UsageError.badValue(option: "--output", value: target, expected: "a file name")
        }
        // A FIFO or a device (/dev/stdout, /dev/null) is written into, as a shell redirection would;
        // it is never replaced by a file.
        if let kind = FileStatus(path: FilePath(target))?.kind, kind == .fifo || kind == .characterDevice {
            do { try FileSystem.writeInto(FilePath(target), bytes) } catch {
                throw FileError.io(path: target, reason: "write failed: \(error.reason)")
            }
            return target
        }
        try OutputFolder.prepare(folder, mark: false)
        let written = try AtomicFile.write(bytes, directory: folder, name: name, overwrite: overwrite, protected: protected)
        return slash == nil && written.hasPrefix("./") ? String(written.dropFirst(2)) : written
    }
}
