#if canImport(Glibc)
import Glibc
#endif

/// Pixels in Cairo's RGB24 layout: 32 bits per pixel, blue-green-red-unused in memory (little-endian),
/// rows `stride` bytes apart. A value: copies share memory until one of them is written to, and a
/// write never reaches another copy (copy-on-write behind a uniqueness check).
public struct Bitmap: Sendable {
    public let width: Int
    public let height: Int
    public let stride: Int
    private var storage: Storage

    /// Allocates a black bitmap; nil when the memory is not there.
    public init?(width: Int, height: Int) {
        self.init(width: width, height: height, zeroed: true)
    }

    /// `zeroed: false` skips clearing memory that a decoder or a full paint overwrites anyway.
    package init?(width: Int, height: Int, zeroed: Bool) {
        guard width > 0, height > 0 else { return nil }
        let (stride, strideOverflow) = width.multipliedReportingOverflow(by: 4)
        guard !strideOverflow else { return nil }
        let (bytes, overflow) = stride.multipliedReportingOverflow(by: height)
        guard !overflow, let storage = Storage(byteCount: bytes, zeroed: zeroed) else { return nil }
        self.width = width
        self.height = height
        self.stride = stride
        self.storage = storage
    }

    public var byteCount: Int { stride * height }

    /// Reads the pixel memory; valid inside `body` only.
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(start: storage.memory, count: byteCount))
    }

    /// Writes the pixel memory, after making it this value's own; valid inside `body` only.
    public mutating func withUnsafeMutableBytes<Result, Failure: Error>(
        _ body: (UnsafeMutableRawBufferPointer) throws(Failure) -> Result) throws(Failure) -> Result {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return try body(UnsafeMutableRawBufferPointer(start: storage.memory, count: byteCount))
    }

    /// Whether two bitmaps share memory (for tests of the copy-on-write rule).
    public func sharesMemory(with other: Bitmap) -> Bool { storage === other.storage }

    /// The colour at (x, y) as 8-bit red, green, blue.
    public func rgb(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let p = storage.memory.advanced(by: y * stride + x * 4).assumingMemoryBound(to: UInt8.self)
        return (p[2], p[1], p[0])
    }

    public mutating func setRGB(x: Int, y: Int, _ color: (red: UInt8, green: UInt8, blue: UInt8)) {
        let offset = y * stride + x * 4
        withUnsafeMutableBytes { bytes in
            bytes[offset] = color.blue
            bytes[offset + 1] = color.green
            bytes[offset + 2] = color.red
            bytes[offset + 3] = 255
        }
    }

    /// The memory behind a bitmap: written only through a bitmap that holds the one reference.
    private final class Storage: @unchecked Sendable {
        let memory: UnsafeMutableRawPointer
        let byteCount: Int

        init?(byteCount: Int, zeroed: Bool) {
            guard let memory = zeroed ? calloc(byteCount, 1) : malloc(byteCount) else { return nil }
            self.memory = memory
            self.byteCount = byteCount
        }

        deinit { free(memory) }

        /// A private copy for a writer. Running out of memory here is fatal, as it is for an Array.
        func copy() -> Storage {
            guard let copy = Storage(byteCount: byteCount, zeroed: false) else {
                fatalError("out of memory copying a \(byteCount)-byte bitmap")
            }
            memcpy(copy.memory, memory, byteCount)
            return copy
        }
    }
}
