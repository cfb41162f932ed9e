import Foundation

/// Waits for something a test can observe (a file, a line printed) by looking at it every 10 ms;
/// false when it still does not hold after `failsafe`, which only keeps a broken build from hanging
/// the suite: it is never the wait a test expects.
public func waitUntil(failsafe: Duration = .seconds(120), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + failsafe
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        usleep(10_000)
    }
    return true
}
