import Library
import Synchronization

/// The shot numbers of one folder (`YYYYMMDD-HHMMSS-NNNN.jpg`, `{seq}`), shared by everything that
/// saves into it during one session (the camera, the team's phones): each number is handed out once,
/// so a camera photo and an upload never reach for the same one.
public final class ShotCounter: Sendable {
    private let next: Mutex<Int>

    /// Counts on from the highest shot number in `folder`.
    public convenience init(folder: String) { self.init(next: PhotoName.nextShotNumber(in: folder)) }

    public init(next: Int) { self.next = Mutex(max(1, next)) }

    /// The number the next shot gets, not taken (what a live picture's `{seq}` shows).
    public var peek: Int { next.withLock { $0 } }

    /// Takes the next number.
    public func take() -> Int {
        next.withLock { next in
            defer { next += 1 }
            return next
        }
    }

    /// No number below `number` is handed out from now on (the folder has files up to it).
    public func skip(to number: Int) {
        next.withLock { $0 = max($0, number) }
    }

    /// `number` was taken and not used (a photo retaken): when it was the last one handed out, the
    /// next shot gets it, so names do not skip one.
    public func giveBack(_ number: Int) {
        next.withLock { if $0 == number + 1 { $0 = number } }
    }
}
