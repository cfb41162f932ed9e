#if canImport(Glibc)
import Glibc
#endif

/// A regular file mapped read-only into memory: its bytes without a copy on the heap, paged in as
/// they are read, so a huge file costs only what is looked at. The mapping lives as long as this.
public final class MappedFile: @unchecked Sendable {  // immutable; the mapping is read-only
    private let address: UnsafeRawPointer?
    public let count: Int
    public let status: FileStatus

    /// Maps `path`; it must be a regular file (a FIFO or device is refused without blocking).
    public init(path: String) throws(FileSystem.ReadError) {
        let (fd, status) = try FileSystem.openRegular(path)
        defer { close(fd) }
        self.status = status
        count = status.size
        guard count > 0 else {
            address = nil
            return
        }
        guard let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            throw .system(.current)
        }
        address = UnsafeRawPointer(mapped)
    }

    deinit {
        if let address { munmap(UnsafeMutableRawPointer(mutating: address), count) }
    }

    /// The bytes, valid inside `body` only.
    public func withUnsafeBytes<Result, Failure: Error>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> Result) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(start: address, count: count))
    }

    /// The first `length` bytes (fewer when the file is shorter): for a magic-number check.
    public func prefix(_ length: Int) -> [UInt8] {
        withUnsafeBytes { Array($0.prefix(length)) }
    }
}
