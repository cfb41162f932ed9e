import Platform
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The controlling terminal in raw mode for the shoot screen: keys arrive one by one, unechoed; the
/// screen is the alternate one with the cursor hidden. Whatever happens — `q`, Ctrl-C, SIGTERM,
/// SIGHUP, an error — the user gets their terminal back: `restore()` on the way out, and a cleanup
/// registered with `Signals` for the signals.
final class Terminal: Sendable {
    private let input: Int32
    private let output: Int32
    private struct Raw {
        var saved = termios()
        var isRaw = false
        /// A frame is being written: the restore waits for it (briefly), so no frame lands on the
        /// normal screen after it is back.
        var drawing = false
        var cleanup: Signals.Registration?
    }
    private let raw = Mutex(Raw())
    private let signals: Signals

    /// `signals` is where the restore is registered (a test passes its own).
    init(input: Int32 = 0, output: Int32 = 1, signals: Signals = .shared) {
        self.input = input
        self.output = output
        self.signals = signals
    }

    static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    func enterRawMode() -> Bool {
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { return false }
        var settings = saved
        cfmakeraw(&settings)
        settings.c_oflag |= tcflag_t(OPOST | ONLCR)  // keep "\n" → "\r\n" for our own output
        // Reads wait at most 0.1 s, so the preview keeps moving while no key is pressed.
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 1
        }
        guard tcsetattr(input, TCSAFLUSH, &settings) == 0 else { return false }
        let registration = signals.onTermination(.terminal) { [self] in restore(fromSignal: true) }
        raw.withLock {
            $0.saved = saved
            $0.isRaw = true
            $0.cleanup = registration
        }
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
        return true
    }

    /// Gives the terminal back: its settings, the normal screen, the cursor. From a signal it does
    /// not wait for a terminal that stopped reading (a dropped SSH session).
    func restore(fromSignal: Bool = false) {
        let state = raw.withLock { raw -> Raw? in
            guard raw.isRaw else { return nil }
            raw.isRaw = false
            return raw
        }
        guard var saved = state?.saved else { return }
        if fromSignal {
            // A terminal that stopped reading (a dropped SSH session) must not hold us here.
            let deadline = WallClock.monotonic() + 0.3
            while raw.withLock({ $0.drawing }) && WallClock.monotonic() < deadline { WallClock.sleep(0.005) }
            _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
        }
        writeAll(Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8), to: output)
        tcsetattr(input, fromSignal ? TCSANOW : TCSAFLUSH, &saved)
        if !fromSignal { raw.withLock { $0.cleanup = nil } }
    }

    /// Columns and rows, or 80×24 when the terminal does not say.
    var size: (columns: Int, rows: Int) {
        var window = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return (80, 24) }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Keys pressed since the last call; waits up to 0.1 s for the first. A terminal that is gone
    /// (a closed SSH session, a killed tmux) reads as Ctrl-C.
    func readKeys() -> [Key] {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
        if count < 0 && errno != EINTR && errno != EAGAIN { return [.interrupt] }
        return count > 0 ? Key.decode(Array(buffer[..<count])) : []
    }

    /// Draws, unless the terminal has been given back (a signal's cleanup may run meanwhile).
    func write(_ text: String) {
        let allowed = raw.withLock { raw -> Bool in
            raw.drawing = raw.isRaw
            return raw.isRaw
        }
        guard allowed else { return }
        writeAll(Array(text.utf8), to: output)
        raw.withLock { $0.drawing = false }
    }
}
