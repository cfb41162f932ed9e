#if canImport(Glibc)
import Glibc
#endif

/// Where a command's output goes: results on `out`, messages (errors, warnings, summary) on `err`.
/// Tests pass closures that collect the lines.
public struct Console: Sendable {
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
        self.out = out
        self.err = err
    }

    /// The process's stdout and stderr, one line per call.
    public static let standard = Console(out: { write(line: $0, to: 1) }, err: { write(line: $0, to: 2) })

    /// Unbuffered, one write per line, so lines from workers never interleave mid-line.
    private static func write(line: String, to descriptor: Int32) {
        var bytes = Array((line + "\n").utf8)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            bytes = bytes.dropFirst(count)
        }
    }
}
