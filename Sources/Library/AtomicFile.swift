import Platform
#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Puts files into place whole or not at all: bytes go to a temp file in the target folder, are
/// synced, and only then take their final name. A crash or a full disk never leaves a partial file
/// under a final name.
public enum AtomicFile {
    /// Temp files are named `.stampcam-PID-XXXXXX`, so a later run can find the leftovers of a
    /// killed one and tell them from those of a run still going.
    public static let tempPrefix = ".stampcam-"

    /// Writes `bytes` as `directory/name`. Unless `overwrite`, an existing file is kept and the
    /// new one is named `name-1.ext`, `name-2.ext` …. Refuses to replace a file in `protected`.
    /// Returns the path written.
    @discardableResult
    public static func write(_ bytes: [UInt8], directory: String, name: String, overwrite: Bool = false,
                             protected: Set<FileIdentity> = []) throws(FileError) -> String {
        let target = directory.hasSuffix("/") ? directory + name : directory + "/" + name
        var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast())
        template += Array((tempPrefix + "\(getpid())-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .cannotCreate(path: target, reason: FileError.reason(errno)) }
        let tempPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var placed = false
        defer {
            if !placed { unlink(tempPath) }
        }
        do {
            defer { close(fd) }
            try writeAll(fd, bytes, path: target)
            fchmod(fd, fileMode)  // mkstemp makes 0600; a photo gets what a new file would
            guard fsync(fd) == 0 else { throw FileError.io(path: target, reason: FileError.reason(errno)) }
        }
        var attempt = 0
        while true {
            let candidate = attempt == 0 ? target : numbered(target, attempt)
            if let identity = FileIdentity(path: candidate), protected.contains(identity) {
                throw .wouldReplaceInput(path: candidate)
            }
            if overwrite {
                guard rename(tempPath, candidate) == 0 else {
                    throw .cannotCreate(path: candidate, reason: FileError.reason(errno))
                }
                placed = true
                return candidate
            }
            // link() fails instead of replacing: no race with another writer choosing the same name.
            if link(tempPath, candidate) == 0 {
                return candidate
            }
            guard errno == EEXIST else { throw .cannotCreate(path: candidate, reason: FileError.reason(errno)) }
            attempt += 1
        }
    }

    /// The mode a new file gets under this process's umask. Read from /proc: the umask(2) way of
    /// reading it sets it for a moment, which other threads creating files at that moment would get.
    static let fileMode: mode_t = {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
        let mask = line.flatMap { mode_t($0.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8) }
            ?? { let mask = umask(0o022); umask(mask); return mask }()
        return 0o666 & ~mask
    }()

    /// Removes temp files left in `folder` by runs that are no longer alive (killed mid-write).
    /// Returns how many were removed.
    @discardableResult
    public static func removeStaleTemps(in folder: String) -> Int {
        guard let directory = opendir(folder) else { return 0 }
        defer { closedir(directory) }
        var removed = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix(tempPrefix) else { continue }
            let fields = name.dropFirst(tempPrefix.count).split(separator: "-")
            guard fields.count == 2, let pid = pid_t(fields[0]) else { continue }
            if kill(pid, 0) == 0 || errno == EPERM { continue }  // that run is still going
            if unlink(folder + "/" + name) == 0 { removed += 1 }
        }
        return removed
    }

    /// `dir/photo.jpg` → `dir/photo-2.jpg`
    static func numbered(_ path: String, _ number: Int) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        if let dot = path[slash...].lastIndex(of: "."), dot != slash {
            return "\(path[..<dot])-\(number)\(path[dot...])"
        }
        return "\(path)-\(number)"
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(FileError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw .io(path: path, reason: "write failed: " + FileError.reason(errno)) }
            written += count
        }
    }
}
