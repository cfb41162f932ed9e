import Location
import Platform

/// Photos taken at once, without a viewfinder (`shoot --yes`): shutter, use, and the next one after
/// `interval` seconds, `count` times. An interrupt (Ctrl-C) ends the series once the photo in hand
/// is saved. With a live GPS source, the first photo waits a moment for a usable fix.
public struct ShootSeries: Sendable {
    public var count: Int
    /// Seconds between one photo saved and the next shutter.
    public var interval: Double

    public init(count: Int = 1, interval: Double = 0) {
        self.count = max(1, count)
        self.interval = max(0, interval)
    }

    /// What happened, as it happens.
    public enum Event {
        /// A note or warning of the camera or the session.
        case notice(ShootController.Notice)
        /// A photo saved. Its stamp notes come as notices, each once (`ShootController` tells them).
        case saved(WrittenPhoto)
    }

    public enum Outcome: Sendable, Equatable {
        case finished, interrupted
    }

    /// Why a series stopped without an error of the camera or the disk to say so.
    public enum Failure: Error, Sendable, Equatable {
        /// The camera gave no photo (in time).
        case noPhoto
        /// The photo was not saved (in time).
        case notSaved
    }

    /// The longest wait for a photo or a save: a camera or a disk that stops answering ends the series.
    static let patience = 600.0

    /// gpsd sends a fix about once a second: the first photo waits up to this long for a usable one.
    static let firstFixWait = 2.0

    /// Takes the series with `controller` and closes it (waiting for the last share command).
    /// Throws the error behind a failed capture or save (`Snapshot.lastError`), else a `Failure`.
    public func run(_ controller: ShootController, report: (Event) -> Void) throws -> Outcome {
        let stop = ConditionLock(false)
        let interrupt = Signals.shared.interceptInterrupt { stop.withLock { $0 = true } }
        defer { interrupt.cancel() }
        let whereabouts = controller.fieldPolicy.whereabouts
        if let gps = whereabouts.live as? GPSDReceiver {
            gps.waitForFix(timeout: Self.firstFixWait) { whereabouts.rules.judge($0, now: WallClock.monotonic()).fix != nil }
        }
        for number in 1...count {
            if number > 1 { stop.wait(timeout: interval, until: { $0 }, then: { _ in }) }
            if stop.withLock({ $0 }) { return .interrupted }
            controller.send(.shutter)
            let taken = controller.wait(timeout: Self.patience) { $0.state.phase != .capturing && $0.state.phase != .viewfinder }
            Self.tell(controller, report)
            guard let taken, taken.state.phase == .reviewing else { throw taken?.lastError ?? Failure.noPhoto }
            controller.send(.use)
            let saved = controller.wait(timeout: Self.patience) { $0.state.phase != .saving }
            Self.tell(controller, report)
            guard let saved, case .saved = saved.state.phase, let written = saved.lastSaved else {
                throw saved?.lastError ?? Failure.notSaved
            }
            report(.saved(written))
        }
        controller.close()  // waits for the share command of the last photo
        Self.tell(controller, report)
        return stop.withLock { $0 } ? .interrupted : .finished
    }

    /// The notices since the last call.
    private static func tell(_ controller: ShootController, _ report: (Event) -> Void) {
        for notice in controller.snapshot(takeNotices: true).notices { report(.notice(notice)) }
    }
}
