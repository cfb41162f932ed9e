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

    /// For a file made of many parts (a KMZ): `make` builds it in a scratch folder beside `target`
    /// (in `temporary`, TMPDIR, when `target` is standard output, a device or a FIFO); `place` then
    /// puts it there.
    static func build<Made>(_ target: String, temporary: String, make: (ScratchFolder) throws -> Made) throws -> (ScratchFolder, Made) {
        let (folder, _) = try parts(target)
        let scratch: ScratchFolder
        if target == "-" || isStream(target) {
            scratch = try ScratchFolder(in: temporary, for: target)
        } else {
            try OutputFolder.prepare(folder, mark: false)
            scratch = try ScratchFolder(in: folder, for: target)
        }
        return (scratch, try make(scratch))
    }

    /// Puts the finished `file` (in `scratch`) at `target` by the rules of `write`; returns the path.
    static func place(_ file: String, from scratch: ScratchFolder, to target: String, overwrite: Bool,
                      protected: Set<FileIdentity> = []) throws -> String {
        if target == "-" || isStream(target) {
            do throws(Errno) {
                if target == "-" { try FileSystem.copy(FilePath(file), into: 1) } else { try FileSystem.copy(FilePath(file), into: FilePath(target)) }
            } catch {
                throw FileError.io(path: target == "-" ? "standard output" : target, reason: "write failed: \(error.reason)")
            }
            return target == "-" ? "standard output" : target
        }
        let (folder, name) = try parts(target)
        let written = try AtomicFile.place(file: file, directory: folder, name: name, overwrite: overwrite, protected: protected)
        return !target.contains("/") && written.hasPrefix("./") ? String(written.dropFirst(2)) : written
    }

    /// A FIFO or a device: written into, never replaced.
    private static func isStream(_ target: String) -> Bool {
        guard let kind = FileStatus(path: FilePath(target))?.kind else { return false }
        return kind == .fifo || kind == .characterDevice
    }

    private static func parts(_ target: String) throws -> (folder: String, name: String) {
        let slash = target.lastIndex(of: "/")
        let folder = slash.map { $0 == target.startIndex ? "/" : String(target[..<$0]) } ?? "."
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        guard !name.isEmpty else { throw UsageError.badValue(option: "--output", value: target, expected: "a file name") }
        return (folder, name)
    }
}
