#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation

/// Ctrl-C during a batch: the first one lets the photos in flight finish (so no temp file is left
/// and no photo is half done), the second one quits at once.
final class Interruption: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var source: (any DispatchSourceSignal)?

    var requested: Bool { lock.withLock { count > 0 } }

    /// Starts catching SIGINT until `stop()`.
    func start(onFirst: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [self] in
            let count = lock.withLock { self.count += 1; return self.count }
            if count == 1 { onFirst() } else { _exit(130) }
        }
        source.resume()
        self.source = source
    }

    func stop() {
        source?.cancel()
        source = nil
        signal(SIGINT, SIG_DFL)
    }
}
