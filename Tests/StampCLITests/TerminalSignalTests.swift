import Testing
@testable import Platform
@testable import StampCLI

#if canImport(Glibc)
import Glibc
#endif

/// The terminal's cleanup, run by a signal on a private `Signals` (so no other test is disturbed).
@Suite struct TerminalSignalTests {
    @Test("SIGTERM and SIGHUP restore a raw terminal: its settings, the normal screen, the cursor",
          arguments: [Signals.Signal.terminate, .hangUp])
    func restores(signal: Signals.Signal) throws {
        var master: Int32 = -1, slave: Int32 = -1
        try #require(openpty(&master, &slave, nil, nil, nil) == 0)
        defer { close(master); close(slave) }
        var before = termios()
        tcgetattr(slave, &before)
        let signals = Signals()
        let terminal = Terminal(input: slave, output: slave, signals: signals)
        #expect(terminal.enterRawMode())
        var raw = termios()
        tcgetattr(slave, &raw)
        #expect(raw.c_lflag & tcflag_t(ICANON) == 0)  // raw now: the comparison below can fail
        var ended: Signals.Signal?
        signals.deliver(signal) { ended = $0 }
        #expect(ended == signal)
        var after = termios()
        tcgetattr(slave, &after)
        #expect(after.c_lflag == before.c_lflag && after.c_iflag == before.c_iflag && after.c_oflag == before.c_oflag)
        _ = fcntl(master, F_SETFL, O_NONBLOCK)
        #expect(Self.drain(master).hasSuffix("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"))
        terminal.write("after")  // nothing more is drawn once the terminal is given back
        #expect(Self.drain(master).isEmpty)
    }

    /// Everything the pty has for its master side now (it may come in several pieces).
    static func drain(_ master: Int32) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var idle = 0
        while idle < 5 {
            let count = read(master, &buffer, buffer.count)
            if count > 0 {
                bytes += buffer[..<count]
                idle = 0
            } else {
                idle += 1
                usleep(10_000)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
