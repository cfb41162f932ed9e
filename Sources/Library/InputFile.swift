import Platform

/// Reads input files. Opens read-only (an input is never modified) and only regular files, without
/// blocking on a FIFO.
public enum InputFile {
    /// A photo's bytes, read whole (see `FileContents`: a photo cut short while it is read is one
    /// failed photo). `check` (a `LoadOptions`' `check`) sees the first bytes and the size before
    /// the rest is read and may refuse the file, so a 3 GB file that is no photo costs one small
    /// read. At most `limit` bytes are read. Throws `FileError`, or what `check` throws.
    public static func photo(_ path: String, limit: Int = .max,
                             check: (_ head: UnsafeRawBufferPointer, _ size: Int) throws -> Void = { _, _ in }) throws -> FileContents {
        do {
            return try FileContents(path: FilePath(path), limit: limit, check: check)
        } catch let error as FileSystem.ReadError {
            throw FileError(reading: path, error)
        }
    }

    /// A small file (a template, a config) read whole, refusing more than `limit` bytes.
    public static func read(_ path: String, limit: Int = 16 << 20) throws(FileError) -> [UInt8] {
        do { return try FileSystem.read(FilePath(path), limit: limit) } catch { throw FileError(reading: path, error) }
    }
}
