#if canImport(Glibc)
import Glibc
#endif

/// Where a command's output goes: results on `out`, messages (errors, warnings, summary) on `err`,
/// and a self-overwriting status line on `progress` when stderr is a terminal. Tests pass closures
/// that collect the lines.
public struct Console: Sendable {
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void
    /// Redraws the one status line; nil when stderr is not a terminal (a pipe, a file, a test).
    public var progress: (@Sendable (String) -> Void)?
    /// Whether stdout is a terminal (results are then left to the progress line and summary).
    public var outIsTerminal: Bool

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
                progress: (@Sendable (String) -> Void)? = nil, outIsTerminal: Bool = false) {
        self.out = out
        self.err = err
        self.progress = progress
        self.outIsTerminal = outIsTerminal
    }

    /// The process's stdout and stderr, one line per call.
    public static var standard: Console {
        let errIsTerminal = isatty(2) == 1
        // On a terminal each message first clears the progress line it would otherwise run into.
        let clear = errIsTerminal ? "\r\u{1B}[K" : ""
        let out: @Sendable (String) -> Void = { line in writeAll(line + "\n", to: 1) }
        let err: @Sendable (String) -> Void = { line in writeAll(clear + line + "\n", to: 2) }
        let status: @Sendable (String) -> Void = { line in writeAll("\r\u{1B}[K" + line, to: 2) }
        return Console(out: out, err: err, progress: errIsTerminal ? status : nil, outIsTerminal: isatty(1) == 1)
    }
}

/// Writes all of `text` to `descriptor` in as few write(2) calls as it takes, unbuffered, so lines from
/// several threads never interleave mid-line. Errors other than EINTR drop the rest (a closed pipe).
func writeAll(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return }
        bytes = bytes.dropFirst(count)
    }
}
