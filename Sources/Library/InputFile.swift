import Platform

/// Reads input files. Opens read-only (an input is never modified) and only regular files, without
/// blocking on a FIFO.
public enum InputFile {
    /// A photo's bytes, mapped rather than copied: a 3 GB file that is not a JPEG costs nothing.
    public static func map(_ path: String) throws(FileError) -> MappedFile {
        do { return try MappedFile(path: path) } catch { throw FileError(reading: path, error) }
    }

    /// A small file (a template, a config) read whole, refusing more than `limit` bytes.
    public static func read(_ path: String, limit: Int = 16 << 20) throws(FileError) -> [UInt8] {
        do { return try FileSystem.read(path, limit: limit) } catch { throw FileError(reading: path, error) }
    }
}
