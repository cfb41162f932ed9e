import CZip
import Platform

#if canImport(Glibc)
import Glibc
#endif

/// Owns one libzip archive being written. Entries are read from their files only when the archive
/// is closed, one at a time, so an archive of many photos never holds them all in memory.
final class ZipArchive {
    private let archive: OpaquePointer
    private var closed = false

    /// A new archive to be written at `path` (libzip writes a temp file beside it, then renames).
    init(path: String) throws(CatalogExportError) {
        var code: Int32 = 0
        guard let archive = FilePath(path).withCString({ zip_open($0, ZIP_CREATE | ZIP_TRUNCATE, &code) }) else {
            throw .cannotWriteArchive(reason: "libzip cannot create it (error \(code))")
        }
        self.archive = archive
    }

    deinit { if !closed { zip_discard(archive) } }

    /// Adds `bytes` as `name`, deflated.
    func add(_ name: String, bytes: [UInt8]) throws(CatalogExportError) {
        // libzip frees its copy when it is done with it.
        guard let copy = malloc(max(bytes.count, 1)) else { throw failure("out of memory for \(name)") }
        bytes.withUnsafeBytes { if let base = $0.baseAddress { copy.copyMemory(from: base, byteCount: $0.count) } }
        guard let source = zip_source_buffer(archive, copy, zip_uint64_t(bytes.count), 1) else {
            free(copy)
            throw failure("cannot add \(name)")
        }
        try add(name, source: source, store: false)
    }

    /// Adds the file at `file` as `name`, stored as it is (a JPEG does not deflate).
    func add(_ name: String, file: String) throws(CatalogExportError) {
        guard let source = FilePath(file).withCString({ zip_source_file(archive, $0, 0, -1) }) else {
            throw failure("cannot add \(name)")
        }
        try add(name, source: source, store: true)
    }

    private func add(_ name: String, source: OpaquePointer, store: Bool) throws(CatalogExportError) {
        let index = zip_file_add(archive, name, source, zip_flags_t(ZIP_FL_ENC_UTF_8))
        guard index >= 0 else {
            zip_source_free(source)
            throw failure("cannot add \(name)")
        }
        if store { zip_set_file_compression(archive, zip_uint64_t(index), ZIP_CM_STORE, 0) }
    }

    /// Writes the archive out; on failure libzip removes its temp file and nothing is written.
    func close() throws(CatalogExportError) {
        guard !closed else { return }
        guard zip_close(archive) == 0 else { throw .cannotWriteArchive(reason: String(cString: zip_strerror(archive))) }
        closed = true
    }

    private func failure(_ what: String) -> CatalogExportError {
        .cannotWriteArchive(reason: "\(what): " + String(cString: zip_strerror(archive)))
    }
}
