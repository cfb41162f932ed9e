import Glibc
import Synchronization
import Testing
@testable import Platform

/// The C handler's part: a number into the self-pipe, errno untouched, never blocking.
@Suite(.serialized) struct SignalPipeTests {
    /// Where the test's handler writes (a C handler captures nothing).
    nonisolated(unsafe) static var writeEnd: Int32 = -1

    /// A pipe from `makePipe`, filled until it takes no more.
    static func fullPipe() throws -> (read: Int32, write: Int32) {
        let ends = try #require(Signals.makePipe())
        let chunk = [UInt8](repeating: 7, count: 1 << 16)
        while write(ends.write, chunk, chunk.count) > 0 {}
        #expect(errno == EAGAIN)
        return ends
    }

    static func unblock(_ signal: Int32) {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    @Test("the write end never blocks, the read end does, and neither is inherited by exec")
    func flags() throws {
        let ends = try #require(Signals.makePipe())
        defer { close(ends.read); close(ends.write) }
        #expect(fcntl(ends.write, F_GETFL) & O_NONBLOCK != 0)
        #expect(fcntl(ends.read, F_GETFL) & O_NONBLOCK == 0)
        #expect(fcntl(ends.write, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(ends.read, F_GETFD) & FD_CLOEXEC != 0)
    }

    @Test("the signal's number reaches the pipe, and errno is as it was")
    func forwards() throws {
        let ends = try #require(Signals.makePipe())
        defer { close(ends.read); close(ends.write) }
        errno = EDOM
        Signals.forward(SIGTERM, to: ends.write)
        #expect(errno == EDOM)
        var byte: UInt8 = 0
        #expect(read(ends.read, &byte, 1) == 1)
        #expect(byte == UInt8(SIGTERM))
    }

    @Test("a full pipe: the handler returns at once and leaves errno alone (the failed write's EAGAIN is not seen)")
    func fullPipeKeepsErrno() throws {
        let ends = try Self.fullPipe()
        defer { close(ends.read); close(ends.write) }
        var changed = 0
        for _ in 0..<1000 {
            errno = EDOM
            Signals.forward(SIGINT, to: ends.write)
            if errno != EDOM { changed += 1 }
        }
        #expect(changed == 0)
    }

    @Test("raised signals, many at once on several threads into a full pipe: none blocks, errno survives each")
    func raised() throws {
        let ends = try Self.fullPipe()
        defer { close(ends.read); close(ends.write) }
        Self.writeEnd = ends.write
        var action = sigaction(), previous = sigaction()
        action.__sigaction_handler.sa_handler = { number in Signals.forward(number, to: SignalPipeTests.writeEnd) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        #expect(sigaction(SIGUSR1, &action, &previous) == 0)
        defer { sigaction(SIGUSR1, &previous, nil) }
        let changed = Mutex(0)
        try Threads.run(count: 4) { _ in
            // The test runner's threads block signals, and a new thread inherits that.
            Self.unblock(SIGUSR1)
            for _ in 0..<20_000 {
                errno = EDOM
                raise(SIGUSR1)  // handled on this thread before raise returns
                if errno != EDOM { changed.withLock { $0 += 1 } }
            }
        }
        #expect(changed.withLock { $0 } == 0)
        // Room again: the next signal's number gets through.
        var drained = [UInt8](repeating: 0, count: 1 << 17)
        #expect(read(ends.read, &drained, drained.count) == 1 << 16)
        try Threads.run(count: 1) { _ in
            Self.unblock(SIGUSR1)
            errno = EDOM
            raise(SIGUSR1)
            if errno != EDOM { changed.withLock { $0 += 1 } }
        }
        #expect(changed.withLock { $0 } == 0)
        var byte: UInt8 = 0
        #expect(read(ends.read, &byte, 1) == 1)
        #expect(byte == UInt8(SIGUSR1))
    }
}
