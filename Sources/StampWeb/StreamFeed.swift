/// What a streamed answer sends next.
enum StreamStep: Equatable {
    case send([UInt8])
    /// Nothing new yet: ask again when `gate` opens.
    case wait
    /// The stream is over (the server is stopping).
    case end
}

/// Where a streamed answer's pieces come from (the live picture, the events). The server asks
/// for the next piece whenever the client has taken the last one, from one thread at a time.
protocol StreamFeed: AnyObject, Sendable {
    /// Opens when there may be a new piece.
    var gate: StreamGate { get }
    func next() -> StreamStep
    /// The answer is over (sent, or the client went away); called once.
    func finished()
}
