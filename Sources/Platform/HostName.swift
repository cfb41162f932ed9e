#if canImport(Glibc)
import Glibc
#endif

/// The machine's own name, for the photo log: which machine of a fleet wrote a photo.
public enum HostName {
    /// gethostname(2); nil when it fails or is empty.
    public static var current: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = PathEncoding.decode(buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
        return name.isEmpty ? nil : name
    }
}
