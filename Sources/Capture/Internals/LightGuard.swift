import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Keeps a lit flash LED from staying on after the program ends: closing the node does not switch
/// it off. While any light is lit, SIGINT and SIGTERM first switch every light off and then end
/// the process the way the signal would have; once all are dark the default handling is back.
final class LightGuard: Sendable {
    static let shared = LightGuard()

    private struct State {
        var lights: [Int: @Sendable () -> Void] = [:]
        var nextKey = 0
        var sources: [any DispatchSourceSignal] = []
    }

    private let state = Mutex(State())
    private static let signals = [SIGINT, SIGTERM]

    /// Registers a light that is now on; `switchOff` must work from any thread. Returns the key for `dark`.
    func lit(switchOff: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state in
            let key = state.nextKey
            state.nextKey += 1
            state.lights[key] = switchOff
            if state.sources.isEmpty { state.sources = Self.install(self) }
            return key
        }
    }

    /// The light registered as `key` is off again.
    func dark(_ key: Int) {
        state.withLock { state in
            state.lights[key] = nil
            if state.lights.isEmpty && !state.sources.isEmpty {
                for source in state.sources { source.cancel() }
                state.sources = []
                for signal in Self.signals { Glibc.signal(signal, SIG_DFL) }
            }
        }
    }

    private static func install(_ guardian: LightGuard) -> [any DispatchSourceSignal] {
        signals.map { number in
            // Ignored at the process level so only the dispatch source sees it.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                let lights = guardian.state.withLock { Array($0.lights.values) }
                for switchOff in lights { switchOff() }
                signal(number, SIG_DFL)
                raise(number)
            }
            source.resume()
            return source
        }
    }
}
