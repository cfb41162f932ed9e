/// What a signature's RFC 3161 time-stamp (C2PA's `sigTst2`) says and whether it holds: when an
/// authority saw the signature, so that a certificate valid then keeps the photo valid after it expires.
public struct TimeStamp: Sendable, Equatable, Encodable {
    /// When the authority stamped the signature, in seconds since the epoch; nil when unreadable.
    public internal(set) var time: Int?
    /// The subject of the authority's certificate (`CN=…,O=…`), when the token carries it.
    public internal(set) var authority: String?
    /// The token stamps this signature (and not other data).
    public internal(set) var matches = false
    /// Its authority's chain reaches a trusted anchor, valid at the stamped time, for time-stamping.
    public internal(set) var trusted = false
    /// Why it is not used, in one line; nil when it is.
    public internal(set) var problem: String?

    init(time: Int? = nil, authority: String? = nil, problem: String? = nil) {
        self.time = time
        self.authority = authority
        self.problem = problem
    }

    /// Whether its time stands for when the photo was signed.
    public var holds: Bool { matches && trusted && time != nil }
}
