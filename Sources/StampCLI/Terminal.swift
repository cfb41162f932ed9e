#if canImport(Glibc)
import Glibc
#endif

/// The controlling terminal in raw mode for the shoot screen: keys arrive one by one, unechoed; the
/// screen is the alternate one with the cursor hidden. Whatever happens — `q`, Ctrl-C, SIGTERM, an
/// error — `restore()` (also run from the signal handlers) gives the user their terminal back.
final class Terminal {
    private let input: Int32
    private let output: Int32
    private var saved = termios()
    private(set) var isRaw = false

    /// The terminal's original settings, for the signal handler (which may not touch Swift objects).
    nonisolated(unsafe) private static var original = termios()
    nonisolated(unsafe) private static var originalFD: Int32 = -1

    init(input: Int32 = 0, output: Int32 = 1) {
        self.input = input
        self.output = output
    }

    static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    func enterRawMode() -> Bool {
        guard tcgetattr(input, &saved) == 0 else { return false }
        var raw = saved
        cfmakeraw(&raw)
        raw.c_oflag |= tcflag_t(OPOST | ONLCR)  // keep "\n" → "\r\n" for our own output
        // Reads wait at most 0.1 s, so the preview keeps moving while no key is pressed.
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 1
        }
        guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else { return false }
        Terminal.original = saved
        Terminal.originalFD = input
        isRaw = true
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            signal(signalNumber) { number in
                Terminal.restoreFromSignal()
                signal(number, SIG_DFL)
                raise(number)
            }
        }
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
        return true
    }

    func restore() {
        guard isRaw else { return }
        write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(input, TCSAFLUSH, &saved)
        isRaw = false
        Terminal.originalFD = -1
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { signal(signalNumber, SIG_DFL) }
    }

    /// Async-signal-safe: only write(2) and tcsetattr(3).
    private static func restoreFromSignal() {
        guard originalFD >= 0 else { return }
        let reset = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
        _ = reset.withCString { Glibc.write(1, $0, strlen($0)) }
        tcsetattr(originalFD, TCSAFLUSH, &original)
    }

    /// Columns and rows, or 80×24 when the terminal does not say.
    var size: (columns: Int, rows: Int) {
        var window = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return (80, 24) }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Keys pressed since the last call; waits up to 0.1 s for the first.
    func readKeys() -> [Key] {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
        // The terminal is gone (a closed SSH session, a killed tmux): leave as if interrupted.
        if count < 0 && errno != EINTR && errno != EAGAIN { return [.interrupt] }
        return count > 0 ? Key.decode(Array(buffer[..<count])) : []
    }

    func write(_ text: String) {
        writeAll(text, to: output)
    }
}
