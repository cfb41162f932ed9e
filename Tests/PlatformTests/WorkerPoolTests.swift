import Synchronization
import Testing
@testable import Platform

@Suite struct WorkerPoolTests {
    final class Fonts {  // not Sendable, as a watermarker is not: it never leaves its worker
        let serial: Int
        var used = 0
        init(_ serial: Int) { self.serial = serial }
    }

    @Test("each worker makes its state once and keeps it; map's results come in the order of its items")
    func stateAndOrder() throws {
        let made = Mutex(0)
        let pool = try WorkerPool(workers: 3) { () -> Fonts in
            Fonts(made.withLock { count in
                count += 1
                return count
            })
        }
        let results = pool.map(Array(0..<200)) { state, item -> (item: Int, serial: Int) in
            guard case .success(let fonts) = state else { return (-1, -1) }
            fonts.used += 1
            return (item * 2, fonts.serial)
        }
        #expect(results.map(\.item) == Array(0..<200).map { $0 * 2 })
        #expect(Set(results.map(\.serial)).isSubset(of: [1, 2, 3]))
        pool.close()
        #expect(made.withLock { $0 } == 3, "three workers, three states, however many jobs")
        #expect(pool.submit { _ in } == false, "no work is taken once closed")
    }

    @Test("no more jobs run at once than there are workers; close runs what was queued")
    func bounded() throws {
        let running = Mutex((now: 0, most: 0, done: 0))
        let gate = ConditionLock(false)
        let pool = try WorkerPool(workers: 2, makeState: {})
        for _ in 0..<10 {
            pool.submit { _ in
                running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                gate.wait(until: { $0 }, then: { _ in })
                running.withLock { $0.now -= 1; $0.done += 1 }
            }
        }
        #expect(pool.pending == 10)
        gate.withLock { $0 = true }
        pool.close()
        #expect(running.withLock { $0.most } <= 2 && running.withLock { $0.done } == 10)
    }

    @Test("a state that cannot be made reaches each job as its error")
    func brokenState() throws {
        struct NoFonts: Error {}
        let pool = try WorkerPool<Int>(workers: 1) { throw NoFonts() }
        let outcomes = pool.map([1, 2]) { state, _ -> Bool in
            if case .failure(let error) = state { return error is NoFonts }
            return false
        }
        #expect(outcomes == [true, true])
        pool.close()
    }
}
