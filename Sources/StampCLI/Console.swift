import Platform
import Synchronization

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
    /// Called once the command is done: the first error that lost some of `out` (a full disk, a
    /// closed descriptor), after the results are flushed to the disk; nil when all of it arrived.
    public var finishOut: @Sendable () -> Errno?

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
                progress: (@Sendable (String) -> Void)? = nil, outIsTerminal: Bool = false,
                finishOut: @escaping @Sendable () -> Errno? = { nil }) {
        self.out = out
        self.err = err
        self.progress = progress
        self.outIsTerminal = outIsTerminal
        self.finishOut = finishOut
    }

    /// The process's stdout and stderr, one line per call. Results (paths) go out byte for byte, so
    /// a pipe gets the real file names; messages show names that are not text as `\xNN` and never
    /// let a control character in a name reach the terminal.
    public static var standard: Console {
        let errIsTerminal = Terminal.isTerminal(2)
        // On a terminal each message first clears the progress line it would otherwise run into.
        let clear = errIsTerminal ? "\r\u{1B}[K" : ""
        let lost = StandardOutput()
        let out: @Sendable (String) -> Void = { line in lost.write(PathEncoding.encode(line) + [0x0A]) }
        let err: @Sendable (String) -> Void = { line in
            writeAll(Array((clear + PathEncoding.display(line) + "\n").utf8), to: 2)
        }
        let status: @Sendable (String) -> Void = { line in writeAll(Array(("\r\u{1B}[K" + line).utf8), to: 2) }
        return Console(out: out, err: err, progress: errIsTerminal ? status : nil, outIsTerminal: Terminal.isTerminal(1),
                       finishOut: lost.finish)
    }
}

/// Standard output, keeping the first error that lost some of it: a command's results written into
/// a full disk or pipe must not end in exit 0.
private final class StandardOutput: Sendable {
    private let failure = Mutex<Errno?>(nil)

    func write(_ bytes: [UInt8]) {
        do { try FileSystem.writeAll(1, bytes) } catch {
            failure.withLock { $0 = $0 ?? error }
        }
    }

    /// The first error; a file's delayed allocation may only fail when it is synced, so it is.
    func finish() -> Errno? {
        if (try? FileStatus(descriptor: 1))?.isRegular == true, fsync(1) != 0 {
            let error = Errno.current
            failure.withLock { $0 = $0 ?? error }
        }
        return failure.withLock { $0 }
    }
}

/// Writes all of `bytes` to `descriptor`, unbuffered, so lines from several threads never
/// interleave mid-line. A closed pipe or terminal drops the rest.
func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
    try? FileSystem.writeAll(descriptor, bytes)
}
