/// A catalog row's place in a hash chain: which chain (the catalog that logged it), where in it,
/// the hash of the link before it and its own. See docs/provenance.md, "The photo log's chain".
public struct ChainLink: Sendable, Equatable {
    /// The id of the chain: the catalog the row was logged in (merged rows keep theirs).
    public var chain: String
    /// Its place in the chain, from 1.
    public var position: Int
    /// The own hash of the link before it (64 zeros for the first), and its own; 64 lowercase hex digits.
    public var previous: String
    public var own: String
    /// For a row that was updated (a photo's save finished): the own hash of its earlier link.
    public var supersedes: String?

    public init(chain: String, position: Int, previous: String, own: String, supersedes: String? = nil) {
        self.chain = chain
        self.position = position
        self.previous = previous
        self.own = own
        self.supersedes = supersedes
    }
}
