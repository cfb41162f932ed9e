import Synchronization
import Testing
@testable import Platform

/// What a signal does, without sending one: `deliver` with a `terminate` that records.
@Suite(.serialized) struct SignalsTests {
    final class Log: Sendable {
        let entries = Mutex<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    @Test("SIGTERM and SIGHUP run every cleanup in order (lights, terminal, work) and then end the process",
          arguments: [Signals.Signal.terminate, .hangUp, .quit])
    func cleanupsInOrder(signal: Signals.Signal) {
        let signals = Signals()
        let log = Log()
        let work = signals.onTermination(.workInFlight) { log.add("work") }
        let terminal = signals.onTermination(.terminal) { log.add("terminal") }
        let light = signals.onTermination(.lights) { log.add("light") }
        signals.deliver(signal) { log.add("end \($0.name)") }
        #expect(log.all == ["light", "terminal", "work", "end \(signal.name)"])
        _ = (work, terminal, light)
    }

    @Test("a cancelled cleanup does not run")
    func cancelled() {
        let signals = Signals()
        let log = Log()
        let light = signals.onTermination(.lights) { log.add("light") }
        light.cancel()
        signals.deliver(.terminate) { _ in log.add("end") }
        #expect(log.all == ["end"])
    }

    @Test("an intercepted Ctrl-C stops the job; the second one runs the cleanups and ends the process")
    func interrupt() {
        let signals = Signals()
        let log = Log()
        let stop = signals.interceptInterrupt { log.add("stop") }
        let light = signals.onTermination(.lights) { log.add("light") }
        signals.deliver(.interrupt) { _ in log.add("end") }
        #expect(log.all == ["stop"])
        #expect(signals.interrupted)
        signals.deliver(.interrupt) { _ in log.add("end") }
        #expect(log.all == ["stop", "light", "end"])
        _ = (stop, light)
    }

    @Test("a server intercepts SIGTERM like Ctrl-C: the first stops it, a second one ends the process; SIGHUP is not intercepted")
    func interceptTerminate() {
        let signals = Signals()
        let log = Log()
        let stop = signals.intercept([.interrupt, .terminate]) { log.add("stop") }
        let light = signals.onTermination(.lights) { log.add("light") }
        signals.deliver(.terminate) { _ in log.add("end") }
        #expect(log.all == ["stop"])
        signals.deliver(.interrupt) { _ in log.add("end") }
        #expect(log.all == ["stop", "light", "end"])
        let other = Signals()
        let otherLog = Log()
        let otherStop = other.intercept([.interrupt, .terminate]) { otherLog.add("stop") }
        other.deliver(.hangUp) { _ in otherLog.add("end") }
        #expect(otherLog.all == ["end"])
        _ = (stop, light, otherStop)
    }

    @Test("intercepting Ctrl-C leaves SIGTERM alone")
    func interruptOnly() {
        let signals = Signals()
        let log = Log()
        let stop = signals.interceptInterrupt { log.add("stop") }
        signals.deliver(.terminate) { _ in log.add("end") }
        #expect(log.all == ["end"])
        _ = stop
    }
}
