import Synchronization
import Testing
@testable import Platform

@Suite struct ThreadsTests {
    /// More than any address space holds: pthread_create cannot map the stack.
    static let impossibleStack = 1 << 60

    @Test("run gives every index to one thread and returns when all are done")
    func runsAll() throws {
        let seen = Mutex<[Int]>([])
        try Threads.run(count: 8) { index in seen.withLock { $0.append(index) } }
        #expect(seen.withLock { $0.sorted() } == Array(0..<8))
    }

    @Test("a thread that cannot be made throws, and no body runs (not even on the caller's thread)")
    func runRefused() {
        let ran = Mutex(0)
        #expect(throws: Threads.StartError.self) {
            try Threads.run(count: 2, stackSize: Self.impossibleStack) { _ in ran.withLock { $0 += 1 } }
        }
        // Two threads made, the third refused: the two return without running their bodies.
        #expect(throws: Threads.StartError.self) {
            try Threads.run(stackSizes: [1 << 20, 1 << 20, Self.impossibleStack]) { _ in ran.withLock { $0 += 1 } }
        }
        #expect(ran.withLock { $0 } == 0)
    }

    @Test("detach runs its body on another thread; one that cannot be made throws and runs nothing")
    func detach() throws {
        let done = ConditionLock(false)
        try Threads.detach { done.withLock { $0 = true } }
        #expect(done.wait(until: { $0 }, then: { $0 }) == true)

        let ran = ConditionLock(false)
        #expect(throws: Threads.StartError.self) {
            try Threads.detach(stackSize: Self.impossibleStack) { ran.withLock { $0 = true } }
        }
        #expect(!ran.withLock { $0 })
    }

    @Test("the error says what failed and why")
    func message() {
        #expect(Threads.StartError(.wouldBlock).description == "cannot start a thread: Resource temporarily unavailable")
    }
}
