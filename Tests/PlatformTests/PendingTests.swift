import Testing
@testable import Platform

@Suite struct PendingTests {
    final class Fonts {  // not Sendable, as a watermarker is not
        var name: String
        init(_ name: String) { self.name = name }
    }

    @Test("a value made on another thread is taken by this one; what the work threw is thrown")
    func takenAcrossThreads() throws {
        let gate = ConditionLock(false)
        let pending = try Pending { () -> Fonts in
            gate.wait(until: { $0 }, then: { _ in })  // still working while the caller goes on
            return Fonts("DejaVu")
        }
        gate.withLock { $0 = true }
        #expect(try pending.take().name == "DejaVu")

        struct Broken: Error {}
        let failing = try Pending { () throws -> Fonts in throw Broken() }
        #expect(throws: Broken.self) { try failing.take() }
    }

    @Test("wait returns once the work has ended, and leaves the value to be taken")
    func waitThenTake() throws {
        let pending = try Pending { Fonts("Noto") }
        pending.wait()
        pending.wait()
        #expect(try pending.take().name == "Noto")
    }
}
