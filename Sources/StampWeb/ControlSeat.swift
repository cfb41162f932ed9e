/// Which browser controls the camera: one at a time. The first one to change something takes
/// the seat; the others see the picture and are told who has it, and can take it over. A holder
/// that has gone (no event stream open and no request for `awayAfter` seconds — a closed tab, a
/// phone gone to sleep) gives the seat to the next one who asks. A value: time comes in.
struct ControlSeat: Sendable, Equatable {
    struct Client: Sendable, Equatable {
        /// The id the page made up for itself (or the peer's address for a script without one).
        var id: String
        /// For people: "Chrome on Android (192.168.1.23)".
        var label: String
    }

    private(set) var holder: Client?
    private var lastSeen: [String: Double] = [:]
    private var listening: [String: Int] = [:]
    let awayAfter: Double

    init(awayAfter: Double = 10) { self.awayAfter = awayAfter }

    /// Notes that `client` made a request at `now`.
    mutating func seen(_ client: Client, at now: Double) {
        lastSeen[client.id] = now
        if lastSeen.count > 512 {
            // Many one-off clients (scripts, reloads): forget the ones not seen for an hour.
            lastSeen = lastSeen.filter { now - $0.value < 3600 || $0.key == holder?.id }
        }
    }

    /// An event stream of `client` opened or closed.
    mutating func listening(_ client: Client, opened: Bool, at now: Double) {
        listening[client.id, default: 0] += opened ? 1 : -1
        if listening[client.id, default: 0] <= 0 { listening[client.id] = nil }
        lastSeen[client.id] = now
    }

    /// Whether `client` may change something now; it takes the seat when it is free or its holder is away.
    mutating func claim(_ client: Client, at now: Double) -> Bool {
        seen(client, at: now)
        if let holder, holder.id != client.id, !isAway(holder, at: now) { return false }
        holder = client
        return true
    }

    /// `client` takes the seat whoever has it.
    mutating func takeOver(_ client: Client, at now: Double) {
        seen(client, at: now)
        holder = client
    }

    func isAway(_ client: Client, at now: Double) -> Bool {
        listening[client.id, default: 0] == 0 && now - (lastSeen[client.id] ?? -.infinity) > awayAfter
    }

    /// Says who the holder is, for someone who is not.
    var holderDescription: String { holder?.label ?? "nobody" }
}
