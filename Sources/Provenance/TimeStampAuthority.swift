import Platform
import Synchronization

/// A time-stamp authority (RFC 3161) the user names (`--tsa URL`): it countersigns each photo's
/// signature with the time it saw it, so the photo stays valid after the signing certificate expires.
/// A TSA that does not answer costs one photo its time-stamp (and a note), and is left alone for
/// `restSeconds` after, so a batch is not slowed by it photo after photo. Shared by a batch's threads.
public final class TimeStampAuthority: Sendable {
    /// Its address, `http://…`.
    public let url: String
    /// How long one exchange may take, in seconds.
    public let timeout: Int
    /// How long it is left alone after failing.
    public let restSeconds: Double

    /// When it may be asked again, and the size of its last token (the room a signature reserves).
    private struct State {
        var restUntil = -Double.infinity
        var tokenSize = TimeStampAuthority.defaultReserve
    }

    private let state = Mutex(State())
    private let clock: @Sendable () -> Double

    /// The room reserved for a token before the first one is seen: a token with its TSA's chain.
    static let defaultReserve = 6 * 1024

    public init(url: String, timeout: Int = 5, restSeconds: Double = 60,
                clock: @escaping @Sendable () -> Double = { WallClock.monotonic() }) {
        self.url = url
        self.timeout = max(1, timeout)
        self.restSeconds = restSeconds
        self.clock = clock
    }

    /// Whether `text` is an address stampcam can ask: `http://host[:port]/path`; the reason when not.
    public static func problem(with text: String) -> String? {
        let lower = text.lowercased()
        if lower.hasPrefix("https://") {
            return "stampcam asks time-stamp authorities over http:// (a time-stamp is signed, so plain HTTP is safe); give its http:// address"
        }
        guard lower.hasPrefix("http://"), text.count > 7, text.count <= 2000,
              !text.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value > 0x7e }) else {
            return "a time-stamp authority's address, like http://timestamp.example.com/tsa"
        }
        return nil
    }

    /// Room to reserve in a signature for this authority's token.
    var reserve: Int { state.withLock { $0.tokenSize } }

    /// The authority's token over `message`; nil, with the reason, when it is resting or fails now.
    func token(for message: [UInt8]) -> Result<[UInt8], TimeStampFailure> {
        let now = clock()
        if state.withLock({ now < $0.restUntil }) {
            return .failure(.unreachable("it did not answer a moment ago"))
        }
        do throws(TimeStampFailure) {
            let token = try TimeStampQuery.token(for: message, url: url, timeout: timeout)
            state.withLock { $0.tokenSize = max($0.tokenSize, token.count + 512) }
            return .success(token)
        } catch {
            if case .unreachable = error { state.withLock { $0.restUntil = clock() + restSeconds } }
            return .failure(error)
        }
    }
}
