import Synchronization
import Testing
@testable import Platform

@Suite struct HandoffTests {
    @Test("a value given on one thread reaches the thread waiting for it")
    func givenAcrossThreads() throws {
        let handoff = Handoff<String>()
        let taken = Pending { handoff.take() }
        WallClock.sleep(0.05)  // the taker is waiting by now
        handoff.give("style")
        #expect(try taken.value() == "style")
    }

    @Test("nil tells the waiting thread nothing will come, and only the first give counts")
    func noneWillCome() {
        let handoff = Handoff<Int>()
        handoff.give(nil)
        handoff.give(7)
        #expect(handoff.take() == nil)
        let given = Handoff<Int>()
        given.give(7)
        given.give(nil)
        #expect(given.take() == 7)
        #expect(given.take() == 7)
    }
}
